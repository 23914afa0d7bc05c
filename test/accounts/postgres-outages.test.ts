/**
 * The PostgreSQL store through the events of an outage, on a real server: a pooled connection
 * killed by the server (pg_terminate_backend, as a failover or a network cut does). Oracle:
 * the server's own rows read over a separate connection.
 */
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { createHarness, POSTGRES_SUITE_ENV } from '../http/support/harness.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
let admin: pg.Client;
beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
}, 60_000);
afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

describe('a pooled connection the server terminated (audit 64b 3)', () => {
  it('the request that meets it is a 503 with Retry-After: 5, counted in the outage warning, not a 500 with a stack; nothing charged', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    process.env[POSTGRES_SUITE_ENV] = server.url;
    const h = await createHarness({ extra: { logger: { level: 'info', stream } } }).finally(() => delete process.env[POSTGRES_SUITE_ENV]);
    try {
      const store = h.accounts as PostgresAccountsStore;
      const acct = await h.open('Enterprise');
      const find = () => h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } });
      expect((await find()).statusCode).toBe(200);

      // the n-th connection the store takes for a transaction or a charge (pool.connect() with
      // no callback) has had its server process terminated, and has seen it, when it is handed over
      const connect = store.pool.connect.bind(store.pool) as () => Promise<pg.PoolClient>;
      const breakConnection = (n: number) => {
        let taken = 0;
        store.pool.connect = ((...args: unknown[]) => {
          if (args.length > 0) return (connect as (...a: unknown[]) => unknown)(...args);
          if (++taken !== n) return connect();
          return connect().then(async (client) => {
            const died = new Promise((resolve) => client.once('error', resolve));
            await admin.query('SELECT pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID]);
            await died;
            return client;
          });
        }) as typeof store.pool.connect;
      };
      breakConnection(1); // the rate transaction's, before its BEGIN
      const atRate = await find();
      breakConnection(2); // the charge's (the rate transaction's is the first)
      const atCharge = await find();
      store.pool.connect = connect as typeof store.pool.connect;
      for (const res of [atRate, atCharge]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toMatchObject({ code: 'service_unavailable' });
      }
      expect((await find()).statusCode).toBe(200);
      // the oracle: the ledger read on the server: the two answered requests only
      expect((await h.ledger(acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(2);
      expect(lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
      const warned = lines.filter((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('accounts database out of reach'));
      expect(warned.length).toBeGreaterThan(0);
      expect(warned[0]!['cause']).toBe('Client has encountered a connection error and is not queryable');
    } finally {
      await h.close();
    }
  });
});
