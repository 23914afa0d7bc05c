/** `venue-search/http`: the HTTP service (fastify adapter, accounts, keys, limits, billing). */
export { buildApp, maskKeys, type BuildAppOptions } from './app.js';
export type { AtInstant, EngineLike, FindParams } from './engine-like.js';
export type {
  AccountRecord,
  AccountsStore,
  BalancePrecheck,
  ChargeRequest,
  ChargeResult,
  KeyPrincipal,
  NewKeyDigest,
  TimeRange,
  Usage,
  UsageEntry,
} from '../accounts/accounts-store.js';
export { SqliteAccountsStore, type SqliteAccountsStoreOptions } from '../accounts/sqlite-accounts-store.js';
export { openAccount, rotateAccountKeys, DEFAULT_ROTATION_GRACE_MS, type OpenedAccount, type RotatedKeys } from '../accounts/accounts.js';
export { generateApiKey, hashApiKey, keyKindOf, type KeyKind } from '../accounts/keys.js';
export { publicKeyMayCall } from './key-header.js';
export {
  PLAN_NAMES,
  BILLABLE_KINDS,
  NEW_ACCOUNT_CREDIT_MICROS,
  MICROS_PER_GBP,
  isPlanName,
  parseGbpToMicros,
  planWindows,
  priceMicros,
  type BillableKind,
  type PlanName,
  type RateWindow,
} from '../accounts/plans.js';
export { HttpError, toErrorResponse, type ErrorEnvelope, type ErrorType } from './http-errors.js';
