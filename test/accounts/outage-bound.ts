/**
 * The checks of a PostgreSQL outage behind a pooler (pooler-without-server.test.ts,
 * pooler-server-down.test.ts): within the store's 5 s wait (docs/deploy.md), a keyed request
 * is a 503 with `Retry-After: 5` (docs/http.md, 503 row) and a store opening fails naming
 * its database. BOUND_MS leaves room for a loaded machine.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { AccountsDatabaseError } from '../../src/accounts/accounts-store.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';

/** The bound asserted: the store's 5 s wait, with room for a loaded machine. */
export const BOUND_MS = 12_000;

/** `promise`'s outcome, or a rejection naming `what` once BOUND_MS pass. */
export function withinBound<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no outcome within ${BOUND_MS} ms`)), BOUND_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A keyed find on `app` is a 503 with Retry-After: 5 within the bound. */
export async function expectKeyedRequestRefused(app: FastifyInstance, secretKey: string): Promise<void> {
  const res = await withinBound('a keyed find', app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': secretKey } }));
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
}

/** Opening a store at `url` fails within the bound with AccountsDatabaseError; its message, for more checks. */
export async function expectOpenRefused(url: string, database: string): Promise<string> {
  const error = await withinBound('opening the store', PostgresAccountsStore.open(url)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AccountsDatabaseError);
  const message = String((error as Error).message);
  expect(message).toContain(database);
  return message;
}
