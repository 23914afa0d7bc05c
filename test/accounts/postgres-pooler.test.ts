/**
 * docs/deploy.md, "Beyond one database's write rate": a connection pooler in transaction
 * mode (a real PgBouncer) between the service and PostgreSQL. PgBouncer refuses the
 * `options` startup parameter the store asks `synchronous_commit = on` with; the store then
 * connects without it, and each charge sets it on for its own transaction.
 * The oracle is the ledger read over a direct connection.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { planWindows, priceMicros } from '../../src/accounts/plans.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { pgbouncerAvailable, startPgBouncer, type Pooler } from '../support/pgbouncer.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
const poolers: Pooler[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const p of poolers) await p.stop();
  await server?.stop();
});

/** A new database (set up by `prepare` over a direct connection first), and a PgBouncer in front of it. */
async function pooled(database: string, prepare: (client: pg.Client) => Promise<unknown> = async () => {}): Promise<{ direct: string; pooler: string }> {
  const direct = await server.createDatabase(database);
  const client = new pg.Client({ connectionString: direct });
  await client.connect();
  try {
    await prepare(client);
  } finally {
    await client.end();
  }
  const pooler = await startPgBouncer(direct);
  poolers.push(pooler);
  return { direct, pooler: pooler.url };
}

describe.skipIf(!pgbouncerAvailable && process.env['CI'] === undefined)('through PgBouncer in transaction mode', () => {
  it('the store opens, charges exactly once and counts rate windows; the ledger read directly agrees', async () => {
    const { direct, pooler } = await pooled('through_pooler');
    const store = await PostgresAccountsStore.open(pooler);
    try {
      const acct = await openAccount(store, 'Scale', { nowMs: 0 });
      const price = priceMicros('search');
      const results = await Promise.all(Array.from({ length: 20 }, (_, k) => store.charge({ accountId: acct.accountId, costMicros: price, requestId: `r${k % 10}`, kind: 'search', nowMs: 1 })));
      expect(results.filter((r) => r.charged)).toHaveLength(10);
      expect((await store.consumeRate(acct.accountId, planWindows('Scale'), Date.UTC(2026, 0, 1))).admitted).toBe(true);
      const client = new pg.Client({ connectionString: direct });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT count(*)::int AS n, (SELECT balance_micros::text FROM accounts WHERE id = $1) AS balance FROM ledger WHERE account_id = $1 AND kind = 'search'", [acct.accountId]);
        expect(rows[0].n).toBe(10);
        expect(Number(rows[0].balance)).toBe((await store.balanceMicros(acct.accountId))!);
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
    }
  });

  it("with the database's synchronous_commit off, every charge and top-up through the pooler still commits with it on (audit 64b 4)", async () => {
    const { direct, pooler } = await pooled('async_commit', async (client) => {
      // the oracle, on the server: the setting in force in the transaction that writes each ledger row
      await client.query('CREATE TABLE seen (kind text, synchronous_commit text)');
      await client.query(`CREATE FUNCTION note_setting() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO seen VALUES (NEW.kind, current_setting('synchronous_commit')); RETURN NEW; END $$`);
      await client.query('ALTER DATABASE async_commit SET synchronous_commit = off');
    });
    // the store opens (before: refused, by a check made once, on one pooled connection)
    const store = await PostgresAccountsStore.open(pooler);
    const client = new pg.Client({ connectionString: direct });
    await client.connect();
    try {
      // the pooler's own connections have the database's setting
      const through = new pg.Client({ connectionString: pooler });
      await through.connect();
      expect((await through.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('off');
      await through.end();
      await client.query('CREATE TRIGGER note_setting AFTER INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION note_setting()');
      const acct = await openAccount(store, 'Scale', { nowMs: 0 });
      const price = priceMicros('search');
      await Promise.all(Array.from({ length: 6 }, (_, k) => store.charge({ accountId: acct.accountId, costMicros: price, requestId: `d${k}`, kind: 'search', nowMs: 1 })));
      await store.topUp(acct.accountId, 1_000_000, 2);
      const { rows } = await client.query('SELECT kind, synchronous_commit FROM seen ORDER BY kind');
      expect(rows).toEqual([
        { kind: 'credit', synchronous_commit: 'on' },
        ...Array.from({ length: 6 }, () => ({ kind: 'search', synchronous_commit: 'on' })),
        { kind: 'topup', synchronous_commit: 'on' },
      ]);
    } finally {
      await client.end();
      await store.close();
    }
  });
});
