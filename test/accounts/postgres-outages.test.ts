/**
 * The PostgreSQL store through the events of an outage, on a real server: a pooled connection
 * killed by the server (pg_terminate_backend, as a failover or a network cut does) and a
 * request whose rate decision waited for the account's counter rows (as behind a pooler's
 * queue through an outage). Oracles: the server's own rows read over a separate connection,
 * windows and Retry-After computed by hand from epoch-aligned windows.
 */
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitRequest } from '../../src/accounts/admission.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { planWindows } from '../../src/accounts/plans.js';
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

/** Resolves once a server process of `database` waits for a lock. */
async function someoneWaitsForALock(database: string): Promise<void> {
  for (;;) {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [database]);
    if (rowCount !== 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a request whose rate decision waited for the counters (audit 64b 1)', () => {
  it('is decided at the clock read once the rows are locked, not at its arrival: 200, not a 429 for a window that had ended', async () => {
    const url = await server.createDatabase('stale_rate');
    const store = await PostgresAccountsStore.open(url);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      const T0 = Date.UTC(2026, 0, 1, 3, 54, 0); // on a second and a day boundary's multiple of 1 s
      let now = T0 + 500;
      const clock = () => now;
      const acct = await openAccount(store, 'Builder', { nowMs: T0 }); // 1 request per second
      const ask = (nowMs: number) =>
        admitRequest(store, { key: acct.secretKey, method: 'GET', path: '/v1/find', headers: {}, nowMs, clock, planWindows });
      // the first request creates the counter rows: second window T0, day window 2026-01-01
      expect((await ask(now)).admitted).toBe(true);

      // another instance holds the rows; a request arrives at T0 + 20.5 s and waits for them
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM rate_counters WHERE account_id = $1 FOR UPDATE', [acct.accountId]);
      now = T0 + 20_500;
      const waiting = ask(now);
      await someoneWaitsForALock('stale_rate');
      // meanwhile that instance admits a request at T0 + 24.2 s: the second window T0 + 24 s is full
      await holder.query("UPDATE rate_counters SET window_start_ms = $2, count = 1 WHERE account_id = $1 AND window_name = 'second'", [acct.accountId, T0 + 24_000]);
      await holder.query("UPDATE rate_counters SET count = count + 1 WHERE account_id = $1 AND window_name = 'day'", [acct.accountId]);
      // the rows are freed at T0 + 35.3 s: the window of T0 + 35 s is empty
      now = T0 + 35_300;
      await holder.query('COMMIT');
      const late = await waiting;
      // before: counted in the ended window T0 + 24 s, refused with Retry-After ceil((T0 + 25 s - (T0 + 20.5 s)) / 1 s) = 5
      expect(late).toMatchObject({ admitted: true });
      expect(late.headers['retry-after']).toBeUndefined();
      expect(late.headers['ratelimit']).toBe('"second";r=0;t=1, "day";r=297;t=' + String(Math.ceil((Date.UTC(2026, 0, 2) - now) / 1000)));
      const { rows } = await holder.query("SELECT window_name, window_start_ms::float8 AS start, count FROM rate_counters WHERE account_id = $1 ORDER BY window_name", [acct.accountId]);
      expect(rows).toEqual([
        { window_name: 'day', start: Date.UTC(2026, 0, 1), count: 3 },
        { window_name: 'second', start: T0 + 35_000, count: 1 },
      ]);
      // a second request in that window is refused until its end: Retry-After ceil((T0 + 36 s - (T0 + 35.3 s)) / 1 s) = 1
      const next = await ask(now);
      expect(next.admitted).toBe(false);
      expect(next.headers['retry-after']).toBe('1');
    } finally {
      await holder.end();
      await store.close();
    }
  });
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
