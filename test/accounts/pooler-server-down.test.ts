/**
 * PostgreSQL stopped behind a PgBouncer that keeps running (audit 73a F1). Once the pooler's
 * `server_login_retry` window has passed with no traffic, it takes a pooled connection's
 * statement and queues it until it reaches a server (its `query_wait_timeout`, 120 s): a keyed
 * request waited until the HTTP idle timeout closed its connection with no answer, and a
 * store opening through the pooler (`serve --db`) sat silent for more than 85 s. Both must end
 * within the store's wait for a server (5 s): a 503 with `Retry-After: 5` (docs/http.md, 503
 * row), and a refusal naming the database. The retry window is set to 1 s here (15 s by
 * default) to keep the test short; it is the same state. (PostgreSQL stays down: nothing can be
 * charged.) Oracle: the statuses and bounds of docs/deploy.md and docs/http.md.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount, type OpenedAccount } from '../../src/accounts/accounts.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { buildApp } from '../../src/http/app.js';
import { createFixtureEngine } from '../http/support/fixture-engine.js';
import { pgbouncerAvailable, startPgBouncer, type Pooler } from '../support/pgbouncer.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { expectKeyedRequestRefused, expectOpenRefused } from './outage-bound.js';

/** PgBouncer's retry window here, seconds; the test waits past it before asking. */
const LOGIN_RETRY_S = 1;

let server: PostgresServer;
/** The pooler the service's store opened through before PostgreSQL stopped. */
let pooler: Pooler;
/** A second one, untouched since PostgreSQL stopped, for the opening: each test meets its pooler's first failure. */
let openPooler: Pooler;
let store: PostgresAccountsStore;
let app: FastifyInstance;
let acct: OpenedAccount;

const available = pgbouncerAvailable || process.env['CI'] !== undefined;

beforeAll(async () => {
  if (!available) return;
  server = await startPostgres();
  const direct = await server.createDatabase('pooler_server_down');
  pooler = await startPgBouncer(direct, { server_login_retry: String(LOGIN_RETRY_S) });
  openPooler = await startPgBouncer(direct, { server_login_retry: String(LOGIN_RETRY_S) });
  // it has served a client before PostgreSQL stops, as a running pooler has
  await (await PostgresAccountsStore.open(openPooler.url)).close();
  store = await PostgresAccountsStore.open(pooler.url, { maxConnections: 4 });
  acct = await openAccount(store, 'Enterprise', { nowMs: Date.now() });
  app = await buildApp({ engine: await createFixtureEngine(), accounts: store });
  await app.ready();
  // the pooled connections to PgBouncer stay logged in; PostgreSQL goes away behind it
  await server.stop();
  // past the retry window with no traffic: the poolers then queue a statement rather than refuse it
  await new Promise((resolve) => setTimeout(resolve, (LOGIN_RETRY_S + 1.5) * 1000));
}, 60_000);
afterAll(async () => {
  await app?.close();
  await store?.close().catch(() => {});
  await pooler?.stop();
  await openPooler?.stop();
});


describe.skipIf(!available)('PostgreSQL down behind a PgBouncer that keeps running, past its login retry window', () => {
  it('opening a store through it (serve --db) fails within the wait, naming the database and the cause', async () => {
    expect(await expectOpenRefused(openPooler.url, 'pooler_server_down')).toContain('no database server answered within 5 s');
  }, 30_000);

  it('a keyed request is a 503 with Retry-After: 5 within the wait for a server, not a connection held for 30 s', async () => {
    await expectKeyedRequestRefused(app, acct.secretKey);
  }, 30_000);
});
