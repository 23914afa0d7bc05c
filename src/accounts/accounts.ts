/**
 * Operator actions on accounts (library API behind the `accounts` and `keys` commands):
 * open an account with its two keys, top it up, rotate keys. These are the only places raw
 * keys exist; they are returned once to the operator and only their digests are stored.
 */
import { randomBytes } from 'node:crypto';
import type { AccountsStore } from './accounts-store.js';
import { generateApiKey, hashApiKey, type KeyKind } from './keys.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { isPlanName, NEW_ACCOUNT_CREDIT_MICROS, PLAN_NAMES, type PlanName } from './plans.js';

export interface OpenedAccount {
  readonly accountId: string;
  readonly plan: PlanName;
  readonly balanceMicros: number;
  readonly secretKey: string;
  readonly publicKey: string;
}

export function newAccountId(): string {
  return `acct_${randomBytes(12).toString('hex')}`;
}

/** Opens an account on `plan` with the standard 10 GBP credit (or `openingCreditMicros`); a random id unless given. */
export async function openAccount(
  store: AccountsStore,
  plan: PlanName,
  options: { readonly nowMs?: number; readonly openingCreditMicros?: number; readonly accountId?: string } = {},
): Promise<OpenedAccount> {
  // A plan the rate limits and prices do not know would open an account whose keys never work.
  if (!isPlanName(plan)) throw new VenueSearchError('invalid_request', `plan must be one of ${PLAN_NAMES.join(', ')}; got ${describeValue(plan)}`, { param: 'plan', value: plan });
  const credit = options.openingCreditMicros;
  if (credit !== undefined && !(Number.isSafeInteger(credit) && credit >= 0)) {
    throw new VenueSearchError('invalid_request', `openingCreditMicros must be a whole number of micro-GBP, 0 or more; got ${describeValue(credit)}`, { param: 'openingCreditMicros', value: credit });
  }
  const secretKey = generateApiKey('secret');
  const publicKey = generateApiKey('public');
  const account = await store.insertAccount({
    id: options.accountId ?? newAccountId(),
    plan,
    createdAtMs: options.nowMs ?? Date.now(),
    openingCreditMicros: options.openingCreditMicros ?? NEW_ACCOUNT_CREDIT_MICROS,
    keys: [
      { kind: 'secret', digest: hashApiKey(secretKey) },
      { kind: 'public', digest: hashApiKey(publicKey) },
    ],
  });
  return { accountId: account.id, plan, balanceMicros: account.balanceMicros, secretKey, publicKey };
}

/** Default grace period during which a rotated-out key keeps working: 24 hours. */
export const DEFAULT_ROTATION_GRACE_MS = 86_400_000;

export interface RotatedKeys {
  readonly accountId: string;
  readonly secretKey?: string;
  readonly publicKey?: string;
  /** When the replaced keys stop working, ms since the epoch. */
  readonly previousKeysExpireAtMs: number;
}

/** Issues new keys of `kinds`; the old ones keep working for `graceMs` (default 24 h). */
export async function rotateAccountKeys(
  store: AccountsStore,
  accountId: string,
  options: { readonly kinds?: readonly KeyKind[]; readonly graceMs?: number; readonly nowMs?: number } = {},
): Promise<RotatedKeys> {
  const kinds = options.kinds ?? ['secret', 'public'];
  const nowMs = options.nowMs ?? Date.now();
  const graceMs = options.graceMs ?? DEFAULT_ROTATION_GRACE_MS;
  const issued = kinds.map((kind) => ({ kind, key: generateApiKey(kind) }));
  await store.rotateKeys(
    accountId,
    issued.map((k) => ({ kind: k.kind, digest: hashApiKey(k.key) })),
    { nowMs, graceMs },
  );
  const secretKey = issued.find((k) => k.kind === 'secret')?.key;
  const publicKey = issued.find((k) => k.kind === 'public')?.key;
  return {
    accountId,
    ...(secretKey === undefined ? {} : { secretKey }),
    ...(publicKey === undefined ? {} : { publicKey }),
    previousKeysExpireAtMs: nowMs + graceMs,
  };
}
