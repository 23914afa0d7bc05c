/**
 * Audit 67a F7.2: the "charge outcome unknown" error line's `err.message` said its cause twice
 * ("... may have committed: the charge statement still runs on the server after 5000 ms: the
 * charge statement still runs on the server after 5000 ms"): the error's message carried the
 * cause's text and the log's error serializer (pino's, which fastify uses) appends the attached
 * cause's. A store whose charge ends with that error stands in for the database out of reach;
 * the oracle is the cause's text, written out by hand, counted in the logged line.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChargeOutcomeUnknownError, type ChargeRequest } from '../../src/accounts/accounts-store.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { buildApp } from '../../src/http/app.js';
import { createFixtureEngine } from '../http/support/fixture-engine.js';

const CAUSE = 'the charge statement still runs on the server after 5000 ms';

/** The SQLite store, its charges ending as a charge whose outcome the database could not confirm. */
class UnconfirmedCharges extends SqliteAccountsStore {
  override charge(request: ChargeRequest): never {
    throw new ChargeOutcomeUnknownError(request.requestId, new Error(CAUSE));
  }
}

const lines: Array<Record<string, unknown>> = [];
const store = new UnconfirmedCharges(':memory:');
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  app = await buildApp({ engine: await createFixtureEngine(), accounts: store, logger: { level: 'info', stream } });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

it('the charge-outcome-unknown line states its cause once', async () => {
  const account = await openAccount(store, 'Enterprise', { nowMs: Date.now() });
  const res = await app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': account.secretKey } });
  expect(res.statusCode).toBe(500);
  const requestId = String(res.headers['request-id']);
  const line = lines.find((l) => l['msg'] === `charge outcome unknown: request ${requestId} may have been charged`);
  const message = String((line?.['err'] as { message?: unknown } | undefined)?.message);
  expect(message).toBe(`the charge of request ${requestId} may have committed: ${CAUSE}`);
});
