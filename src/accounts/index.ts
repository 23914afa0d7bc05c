/** The accounts module's public surface: stores, accounts and keys, plans and prices (re-exported by `venue-search/http`). */
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
} from './accounts-store.js';
export { SqliteAccountsStore, type SqliteAccountsStoreOptions } from './sqlite-accounts-store.js';
export { AccountsDatabaseError } from './accounts-store.js';
export { MissingDatabaseClientError } from './database-clients.js';
export { SqliteNativeModuleError } from './sqlite-native.js';
export { openAccount, rotateAccountKeys, DEFAULT_ROTATION_GRACE_MS, type OpenedAccount, type RotatedKeys } from './accounts.js';
export { generateApiKey, hashApiKey, keyKindOf, maskKeys, type KeyKind } from './keys.js';
export { publicKeyMayCall } from './public-key-scope.js';
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
} from './plans.js';
