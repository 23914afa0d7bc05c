/**
 * The request guard, run as an `onRequest` hook before the body is even read: read the key
 * from its header (401 when none or two), then let the accounts decide (admitRequest in
 * src/accounts/admission.ts: 401, 403 or 429). The decision's rate-limit headers go on
 * every counted response, errors included.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AsyncHook } from './handlers-in-flight.js';
import type { AccountsStore, KeyPrincipal } from '../accounts/accounts-store.js';
import { admitRequest } from '../accounts/admission.js';
import type { PlanName, RateWindow } from '../accounts/plans.js';
import { API_KEY_CHALLENGE } from '../service/openapi-responses.js';
import { HTTP_ERRORS, HttpError } from './http-errors.js';
import { presentedKey, wrappedKeyAdvice } from './key-header.js';
import { targetPath } from './request-target.js';

/** Routes with `config: { public: true }` skip the guard (the OpenAPI document). */
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

/** Whether the accounts admitted the request (so the accounts database answered for it). */
export function wasAdmitted(request: FastifyRequest): boolean {
  return principals.has(request);
}

/** The challenge every 401 of the guard carries (RFC 9110). */
const CHALLENGE: Readonly<Record<string, string>> = { 'www-authenticate': API_KEY_CHALLENGE };

export function createGuard(
  accounts: AccountsStore,
  clock: () => number,
  planWindows: (plan: PlanName) => readonly RateWindow[],
): AsyncHook {
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if ((request.routeOptions.config as GuardRouteConfig).public === true) return;
    const presented = presentedKey(request.headers);
    if (presented.kind === 'none') {
      throw new HttpError('missing_api_key', 'no API key: send your key in the API-Key header', undefined, CHALLENGE);
    }
    if (presented.kind === 'conflict') {
      throw new HttpError('conflicting_api_keys', 'more than one API key was sent: send exactly one in the API-Key header', undefined, CHALLENGE);
    }
    // the path the router matched, also for an absolute-form target (`GET http://host/v1/find`)
    const path = targetPath(request.url);
    const admission = await admitRequest(accounts, { key: presented.key, method: request.method, path, headers: request.headers, nowMs: clock(), clock, planWindows });
    reply.headers(admission.headers);
    // every refusal code is a catalogue code: HttpError's parameter type checks it
    if (!admission.admitted) {
      const challenge = HTTP_ERRORS[admission.code].status === 401 ? CHALLENGE : {};
      const advice = admission.code === 'invalid_api_key' ? wrappedKeyAdvice(presented.key) : '';
      throw new HttpError(admission.code, admission.message + advice, undefined, { ...admission.headers, ...challenge });
    }
    principals.set(request, admission.principal);
  };
}
