/**
 * The request guard, run as an `onRequest` hook before the body is even read:
 * authenticate the key (401), check a public key's permission list (403), then count the
 * request against the account's plan windows (429). The decision's rate-limit headers go on
 * every guarded response, errors included.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AccountsStore, KeyPrincipal } from '../accounts/accounts-store.js';
import { HttpError } from './http-errors.js';
import { hashApiKey, keyKindOf } from '../accounts/keys.js';
import { presentedKey, publicKeyMayCall } from './key-header.js';
import { originAllowed, requestOrigin } from './origins.js';
import type { PlanName, RateWindow } from '../accounts/plans.js';
import { rateLimitHeaders } from '../accounts/rate-limit.js';

/** Routes with `config: { public: true }` skip the guard (the OpenAPI document, 405 answers). */
export interface GuardRouteConfig {
  public?: boolean;
}

const principals = new WeakMap<FastifyRequest, KeyPrincipal>();

/** The account behind a guarded request; throws if called on an unguarded route (a bug). */
export function principalOf(request: FastifyRequest): KeyPrincipal {
  const principal = principals.get(request);
  if (principal === undefined) throw new Error(`no principal on ${request.method} ${request.url}: route is not guarded`);
  return principal;
}

/** The key itself never goes into a message or a log line. */
function invalidKey(): HttpError {
  return new HttpError('invalid_api_key', 'the API key is not valid: unknown, revoked or past its rotation grace period');
}

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
  headers: FastifyRequest['headers'],
): Promise<{ allowed: boolean; origin: string | undefined; allowedOrigins: readonly string[] }> {
  const origin = requestOrigin(headers);
  const allowedOrigins = await accounts.allowedOrigins(accountId);
  return { allowed: originAllowed(origin, allowedOrigins, headers), origin, allowedOrigins };
}

export function createGuard(
  accounts: AccountsStore,
  clock: () => number,
  planWindows: (plan: PlanName) => readonly RateWindow[],
): onRequestHookHandler {
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if ((request.routeOptions.config as GuardRouteConfig).public === true) return;
    const presented = presentedKey(request.headers);
    if (presented.kind === 'none') {
      throw new HttpError('missing_api_key', 'no API key: send your key in the API-Key header');
    }
    if (presented.kind === 'conflict') {
      throw new HttpError('conflicting_api_keys', 'more than one API key was sent: send exactly one in the API-Key header');
    }
    const nowMs = clock();
    const principal = await principalOfKey(accounts, presented.key, nowMs);
    if (principal === undefined) throw invalidKey();
    const path = request.url.split('?', 1)[0] ?? request.url;
    if (principal.keyKind === 'public' && !publicKeyMayCall(request.method, path)) {
      throw new HttpError('public_key_not_permitted', `a public key may not call ${request.method} ${path}; use the secret key from a server`,
      );
    }
    if (principal.keyKind === 'public' && requestOrigin(request.headers) !== undefined) {
      const check = await publicKeyOriginCheck(accounts, principal.accountId, request.headers);
      if (!check.allowed) {
        throw new HttpError('origin_not_allowed', `this public key may not be used from the origin ${check.origin}; the account allows a fixed list of origins`);
      }
    }
    const decision = await accounts.consumeRate(principal.accountId, planWindows(principal.plan), nowMs);
    const headers = rateLimitHeaders(decision, nowMs);
    reply.headers(headers);
    if (!decision.admitted) {
      const blocked = decision.blockedBy;
      const per = blocked?.window.name === 'day' ? '24 hours' : 'second';
      throw new HttpError('rate_limited', `rate limit of the ${principal.plan} plan reached: ${blocked?.window.limit ?? 0} requests per ${per}; retry after ${headers['retry-after'] ?? '1'} s`,
        undefined,
        headers,
      );
    }
    principals.set(request, principal);
  };
}
