/**
 * PgBouncer restarted while PostgreSQL is down (audit 66c F3): the restarted pooler accepts
 * connections but holds each login until it reaches a server (PgBouncer's
 * client_login_timeout, 60 s). A keyed request must still be a 503 with `Retry-After: 5`
 * within the store's connection wait (5 s; docs/http.md, 503 row), and a store opening
 * (`serve --db`) must fail within it, not after the pooler's 60 s. (PostgreSQL is down
 * throughout: nothing can be charged.)
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openAccount, type OpenedAccount } from '../../src/accounts/accounts.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { buildApp } from '../../src/http/app.js';
import { createFixtureEngine } from '../http/support/fixture-engine.js';
import { pgbouncerAvailable } from '../support/pgbouncer.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { expectKeyedRequestRefused, expectOpenRefused } from './outage-bound.js';
import { startRestartablePgBouncer, type RestartablePooler } from './restartable-pgbouncer.js';


let server: PostgresServer;
let pooler: RestartablePooler;
let store: PostgresAccountsStore;
let app: FastifyInstance;
let acct: OpenedAccount;

const available = pgbouncerAvailable || process.env['CI'] !== undefined;

beforeAll(async () => {
  if (!available) return;
  server = await startPostgres();
  const direct = await server.createDatabase('pooler_without_server');
  pooler = await startRestartablePgBouncer(direct);
  store = await PostgresAccountsStore.open(pooler.url, { maxConnections: 4 });
  acct = await openAccount(store, 'Enterprise', { nowMs: Date.now() });
  app = await buildApp({ engine: await createFixtureEngine(), accounts: store });
  await app.ready();
  // PostgreSQL goes down, then the pooler restarts: it has no server to log its clients in with
  await server.stop();
  await pooler.stop();
  await pooler.start();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await store?.close().catch(() => {});
  await pooler?.close();
});


describe.skipIf(!available)('PgBouncer restarted while PostgreSQL is down', () => {
  it('a keyed request is a 503 with Retry-After: 5 within the connection wait, not a connection held for 30 s', async () => {
    await expectKeyedRequestRefused(app, acct.secretKey);
  }, 30_000);

  it('opening a store through it (serve --db) fails within the connection wait, naming the database', async () => {
    await expectOpenRefused(pooler.url, 'pooler_without_server');
  }, 30_000);
});

