/**
 * Who may make a request, decided before the request's body is read: the key is known and
 * current (else `invalid_api_key`), a public key calls only what it may (interface section
 * 5, else `public_key_not_permitted`) from an origin its account allows (else
 * `origin_not_allowed`), and the account's plan windows have room (else `rate_limited`,
 * counted in no window). The refusal codes are the HTTP catalogue's (src/http/http-errors.ts);
 * the adapter turns a refusal into its error response and the headers onto the reply.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AccountsStore, KeyPrincipal } from './accounts-store.js';
import { hashApiKey, keyKindOf } from './keys.js';
import { originAllowed, requestOrigin } from './origins.js';
import type { PlanName, RateWindow } from './plans.js';
import { publicKeyMayCall } from './public-key-scope.js';
import { rateLimitHeaders } from './rate-limit.js';

/** The principal of a presented key: well-formed, known, current or in its grace period; else undefined. */
export async function principalOfKey(accounts: AccountsStore, key: string, nowMs: number): Promise<KeyPrincipal | undefined> {
  if (keyKindOf(key) === undefined) return undefined;
  return accounts.findKey(hashApiKey(key), nowMs);
}

/**
 * Whether the account's public key may be used from the request's browser origin (Origin,
 * else Referer; none: a server call, allowed), with the origin and the account's list.
 */
export async function publicKeyOriginCheck(
  accounts: AccountsStore,
  accountId: string,
  headers: IncomingHttpHeaders,
): Promise<{ allowed: boolean; origin: string | undefined; allowedOrigins: readonly string[] }> {
  const origin = requestOrigin(headers);
  const allowedOrigins = await accounts.allowedOrigins(accountId);
  return { allowed: originAllowed(origin, allowedOrigins, headers), origin, allowedOrigins };
}

export interface AdmissionRequest {
  /** The one key the request carried. */
  readonly key: string;
  readonly method: string;
  /** The request path without its query string. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly nowMs: number;
  /**
   * The clock `nowMs` was read from, read again by the store once the account's rate
   * counters are locked: a request that waited in the database's queue (an outage, a
   * pooler) is judged at the time it is decided, not at its arrival (audit 64b 1).
   */
  readonly clock?: () => number;
  readonly planWindows: (plan: PlanName) => readonly RateWindow[];
}

export type AdmissionRefusalCode = 'invalid_api_key' | 'public_key_not_permitted' | 'origin_not_allowed' | 'rate_limited';

export type Admission =
  /** `headers`: the rate-limit headers of the decision, for every counted response. */
  | { readonly admitted: true; readonly principal: KeyPrincipal; readonly headers: Readonly<Record<string, string>> }
  | { readonly admitted: false; readonly code: AdmissionRefusalCode; readonly message: string; readonly headers: Readonly<Record<string, string>> };

function refused(code: AdmissionRefusalCode, message: string, headers: Readonly<Record<string, string>> = {}): Admission {
  return { admitted: false, code, message, headers };
}

/** Decides one request. The key itself never goes into a message. */
export async function admitRequest(accounts: AccountsStore, request: AdmissionRequest): Promise<Admission> {
  const { method, path, headers, nowMs } = request;
  const principal = await principalOfKey(accounts, request.key, nowMs);
  if (principal === undefined) return refused('invalid_api_key', 'the API key is not valid: unknown, revoked or past its rotation grace period');
  if (principal.keyKind === 'public' && !publicKeyMayCall(method, path)) {
    return refused('public_key_not_permitted', `a public key may not call ${method} ${path}; use the secret key from a server`);
  }
  if (principal.keyKind === 'public' && requestOrigin(headers) !== undefined) {
    const check = await publicKeyOriginCheck(accounts, principal.accountId, headers);
    if (!check.allowed) {
      return refused('origin_not_allowed', `this public key may not be used from the origin ${check.origin}; the account allows a fixed list of origins`);
    }
  }
  const decision = await accounts.consumeRate(principal.accountId, request.planWindows(principal.plan), nowMs, request.clock);
  const rateHeaders = rateLimitHeaders(decision, decision.atMs);
  if (decision.admitted) return { admitted: true, principal, headers: rateHeaders };
  const blocked = decision.blockedBy;
  const per = blocked?.window.name === 'day' ? '24 hours' : 'second';
  return refused(
    'rate_limited',
    `rate limit of the ${principal.plan} plan reached: ${blocked?.window.limit ?? 0} requests per ${per}; retry after ${rateHeaders['retry-after'] ?? '1'} s`,
    rateHeaders,
  );
}
