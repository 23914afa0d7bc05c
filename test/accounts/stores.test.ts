/**
 * Issue 18: every billing guarantee, for both stores (SQLite file, PostgreSQL server started
 * by this file). Two store instances on one database stand for two service processes.
 * Oracles: hand-computed prices and balances, a plain count of the ledger rows read over a
 * separate connection, the plan table (2 per second for Hobbyist).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsStore } from '../../src/accounts/accounts-store.js';
import { openAccount, rotateAccountKeys } from '../../src/accounts/accounts.js';
import { hashApiKey } from '../../src/accounts/keys.js';
import { PLAN_NAMES, planWindows, priceMicros, type PlanName, type RateWindow } from '../../src/accounts/plans.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

interface StoreKind {
  readonly name: string;
  /** A fresh database; returns a factory of store instances on it and a ledger reader. */
  fresh(options?: { keyCacheTtlMs?: number; monotonicClock?: () => number }): Promise<{
    open(options?: { keyCacheTtlMs?: number; monotonicClock?: () => number }): Promise<AccountsStore>;
    /** Charges (negative amounts) in the ledger of `accountId`, over a separate connection. */
    charges(accountId: string): Promise<{ requestId: string; amount: number }[]>;
    /** Every ledger row of `accountId` in order, and the account's stored balance, over a separate connection. */
    ledger(accountId: string): Promise<{ rows: LedgerRow[]; balance: number }>;
    /** Holds the write lock a charge of `accountId` waits for (another connection's transaction) until the returned function is called. */
    holdLock(accountId: string): Promise<() => Promise<void>>;
  }>;
}

interface LedgerRow {
  readonly requestId: string;
  readonly kind: string;
  readonly amount: number;
  readonly balanceAfter: number;
}

let server: PostgresServer;
const tmp = mkdtempSync(join(tmpdir(), 'venue-search-stores-'));
let databases = 0;
const opened: AccountsStore[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const store of opened) await store.close().catch(() => {});
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const KINDS: readonly StoreKind[] = [
  {
    name: 'SQLite',
    async fresh() {
      const file = join(tmp, `accounts-${++databases}.sqlite`);
      return {
        async open(options = {}) {
          const store = new SqliteAccountsStore(file, options);
          opened.push(store);
          return store;
        },
        async charges(accountId) {
          const db = new Database(file, { readonly: true });
          try {
            return (db.prepare('SELECT request_id AS requestId, amount_micros AS amount FROM ledger WHERE account_id = ? AND amount_micros < 0').all(accountId) as {
              requestId: string;
              amount: number;
            }[]);
          } finally {
            db.close();
          }
        },
        async ledger(accountId) {
          const db = new Database(file, { readonly: true });
          try {
            const rows = db
              .prepare('SELECT request_id AS requestId, kind, amount_micros AS amount, balance_after_micros AS balanceAfter FROM ledger WHERE account_id = ? ORDER BY seq')
              .all(accountId) as LedgerRow[];
            const { balance } = db.prepare('SELECT balance_micros AS balance FROM accounts WHERE id = ?').get(accountId) as { balance: number };
            return { rows, balance };
          } finally {
            db.close();
          }
        },
        async holdLock() {
          const db = new Database(file);
          db.prepare('BEGIN IMMEDIATE').run();
          return async () => {
            db.prepare('COMMIT').run();
            db.close();
          };
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async fresh() {
      const url = await server.createDatabase(`accounts_${++databases}`);
      return {
        async open(options = {}) {
          const store = await PostgresAccountsStore.open(url, options);
          opened.push(store);
          return store;
        },
        async charges(accountId) {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            const { rows } = await client.query('SELECT request_id, amount_micros::text AS amount FROM ledger WHERE account_id = $1 AND amount_micros < 0', [accountId]);
            return rows.map((r: { request_id: string; amount: string }) => ({ requestId: r.request_id, amount: Number(r.amount) }));
          } finally {
            await client.end();
          }
        },
        async ledger(accountId) {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            const { rows } = await client.query(
              'SELECT request_id, kind, amount_micros::text AS amount, balance_after_micros::text AS after FROM ledger WHERE account_id = $1 ORDER BY seq',
              [accountId],
            );
            const balance = await client.query('SELECT balance_micros::text AS b FROM accounts WHERE id = $1', [accountId]);
            return {
              rows: rows.map((r: { request_id: string; kind: string; amount: string; after: string }) => ({
                requestId: r.request_id,
                kind: r.kind,
                amount: Number(r.amount),
                balanceAfter: Number(r.after),
              })),
              balance: Number((balance.rows[0] as { b: string }).b),
            };
          } finally {
            await client.end();
          }
        },
        async holdLock(accountId) {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query('BEGIN');
          await client.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
          return async () => {
            await client.query('COMMIT');
            await client.end();
          };
        },
      };
    },
  },
];

const FIND = priceMicros('find'); // 6000

describe.each(KINDS)('$name store', (kind) => {
  it('exactly-once: credit for exactly K finds, 2K concurrent charges over two store instances -> K charged, K refused, K ledger rows, balance 0', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const K = 40;
    const acct = await openAccount(a, 'Enterprise', { nowMs: 0, openingCreditMicros: K * FIND });
    const results = await Promise.all(
      Array.from({ length: 2 * K }, (_, i) => (i % 2 === 0 ? a : b).charge({ accountId: acct.accountId, requestId: `req-${i}`, kind: 'find', costMicros: FIND, nowMs: 1 + i })),
    );
    expect(results.filter((r) => r.charged).length).toBe(K);
    expect(results.filter((r) => !r.charged && r.reason === 'insufficient_balance').length).toBe(K);
    const ledger = await db.charges(acct.accountId);
    expect(ledger.length).toBe(K);
    expect(new Set(ledger.map((r) => r.requestId)).size).toBe(K);
    expect(ledger.every((r) => r.amount === -FIND)).toBe(true);
    expect(await b.balanceMicros(acct.accountId)).toBe(0);
    // a 402 on the pre-check now, from either instance
    expect(await a.precheckBalance(acct.accountId, FIND)).toEqual({ covers: false, balanceMicros: 0 });
  });

  it('a second charge under the same request id is refused (same instance and another one)', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const acct = await openAccount(a, 'Scale', { nowMs: 0 });
    const request = { accountId: acct.accountId, requestId: 'req-1', kind: 'find' as const, costMicros: FIND, nowMs: 1 };
    const results = await Promise.all([a.charge(request), b.charge(request), a.charge(request)]);
    expect(results.filter((r) => r.charged).length).toBe(1);
    expect(results.filter((r) => !r.charged && r.reason === 'duplicate_request').length).toBe(2);
    expect(await a.balanceMicros(acct.accountId)).toBe(10_000_000 - FIND);
    expect(await a.charge({ ...request, accountId: 'acct_none', requestId: 'req-2' })).toEqual({ charged: false, reason: 'unknown_account', balanceMicros: 0 });
  });

  it('a charge the database gets to after its deadline is not made (audit 61c: the client had been answered nothing at 30 s, then charged)', async () => {
    const db = await kind.fresh();
    const store = await db.open();
    const acct = await openAccount(store, 'Scale', { nowMs: 0 });
    const release = await db.holdLock(acct.accountId);
    const late = store.charge({ accountId: acct.accountId, requestId: 'late', kind: 'find', costMicros: FIND, nowMs: 1, deadlineMs: Date.now() + 300 });
    const inTime = store.charge({ accountId: acct.accountId, requestId: 'in-time', kind: 'find', costMicros: FIND, nowMs: 2, deadlineMs: Date.now() + 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await release();
    // (its balance is read before or after the other charge's debit: they wait for the lock together)
    expect(await late).toMatchObject({ charged: false, reason: 'too_late' });
    expect(await inTime).toEqual({ charged: true, balanceMicros: 10_000_000 - FIND });
    expect((await db.charges(acct.accountId)).map((r) => r.requestId)).toEqual(['in-time']);
    expect(await store.balanceMicros(acct.accountId)).toBe(10_000_000 - FIND);
  });

  it('balances and usage exact to the micro-pound: top-ups, every kind, a time range', async () => {
    const db = await kind.fresh();
    const store = await db.open();
    const acct = await openAccount(store, 'Scale', { nowMs: 0, openingCreditMicros: 1 });
    expect(await store.topUp(acct.accountId, 12_345_678, 5)).toBe(12_345_679);
    const plan: [kind: 'search' | 'find' | 'basic' | 'advanced' | 'menus', cost: number, at: number][] = [
      ['search', priceMicros('search', 45), 10], // ceil(45/20) x 6000 = 18000
      ['find', FIND, 20],
      ['basic', priceMicros('basic'), 30],
      ['advanced', priceMicros('advanced'), 40],
      ['menus', priceMicros('menus'), 50],
      ['find', FIND, 60],
    ];
    let i = 0;
    for (const [k, cost, at] of plan) expect((await store.charge({ accountId: acct.accountId, requestId: `u-${i++}`, kind: k, costMicros: cost, nowMs: at })).charged).toBe(true);
    expect(await store.balanceMicros(acct.accountId)).toBe(12_345_679 - 18_000 - 6000 - 8000 - 12_000 - 6000 - 6000);
    expect(await store.usage(acct.accountId)).toEqual({
      search: { requests: 1, costMicros: 18_000 },
      find: { requests: 2, costMicros: 12_000 },
      basic: { requests: 1, costMicros: 8000 },
      advanced: { requests: 1, costMicros: 12_000 },
      menus: { requests: 1, costMicros: 6000 },
    });
    expect((await store.usage(acct.accountId, { fromMs: 20, toMs: 50 })).find).toEqual({ requests: 1, costMicros: 6000 });
    expect((await store.usage(acct.accountId, { fromMs: 20, toMs: 50 })).menus).toEqual({ requests: 0, costMicros: 0 });
  });

  it('a refund gives a charge back once, across instances: one ledger row, the balance the sum of the ledger, usage without it; nothing else is refunded', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const acct = await openAccount(a, 'Scale', { nowMs: 0 });
    const other = await openAccount(a, 'Scale', { nowMs: 0 });
    for (const [i, id] of ['r-a', 'r-b', 'r-c'].entries()) {
      expect((await a.charge({ accountId: acct.accountId, requestId: id, kind: 'find', costMicros: FIND, nowMs: 10 + i })).charged).toBe(true);
    }
    // the same refund four times at once, from both instances: exactly one is made
    const results = await Promise.all([a, b, a, b].map((store) => store.refund({ accountId: acct.accountId, requestId: 'r-b', nowMs: 20 })));
    expect(results.filter((r) => r.refunded)).toEqual([{ refunded: true, amountMicros: FIND, balanceMicros: 10_000_000 - 2 * FIND }]);
    expect(results.filter((r) => !r.refunded)).toEqual(Array.from({ length: 3 }, () => ({ refunded: false, reason: 'already_refunded' })));
    // not a charge of this account, no such request, a credit row: nothing written
    expect(await b.refund({ accountId: other.accountId, requestId: 'r-a', nowMs: 21 })).toEqual({ refunded: false, reason: 'not_charged' });
    expect(await b.refund({ accountId: acct.accountId, requestId: 'r-none', nowMs: 21 })).toEqual({ refunded: false, reason: 'not_charged' });
    expect(await b.refund({ accountId: acct.accountId, requestId: `open:${acct.accountId}`, nowMs: 21 })).toEqual({ refunded: false, reason: 'not_charged' });

    const { rows, balance } = await db.ledger(acct.accountId);
    // hand-computed: the opening credit, three charges, one refund
    expect(rows).toEqual([
      { requestId: `open:${acct.accountId}`, kind: 'credit', amount: 10_000_000, balanceAfter: 10_000_000 },
      { requestId: 'r-a', kind: 'find', amount: -FIND, balanceAfter: 10_000_000 - FIND },
      { requestId: 'r-b', kind: 'find', amount: -FIND, balanceAfter: 10_000_000 - 2 * FIND },
      { requestId: 'r-c', kind: 'find', amount: -FIND, balanceAfter: 10_000_000 - 3 * FIND },
      { requestId: 'refund:r-b', kind: 'refund', amount: FIND, balanceAfter: 10_000_000 - 2 * FIND },
    ]);
    expect(balance).toBe(rows.reduce((sum, r) => sum + r.amount, 0));
    expect((await db.ledger(other.accountId)).balance).toBe(10_000_000);
    expect(await a.balanceMicros(acct.accountId)).toBe(10_000_000 - 2 * FIND);
    expect((await b.usage(acct.accountId)).find).toEqual({ requests: 2, costMicros: 2 * FIND });
    expect((await b.usage(acct.accountId, { fromMs: 11, toMs: 12 })).find).toEqual({ requests: 0, costMicros: 0 });
    expect((await b.usage(acct.accountId, { fromMs: 12, toMs: 13 })).find).toEqual({ requests: 1, costMicros: FIND });
  });

  it('close() waits for a refund under way: its row is in the database once close resolves', async () => {
    const db = await kind.fresh();
    const store = await db.open();
    const acct = await openAccount(store, 'Scale', { nowMs: 0 });
    expect((await store.charge({ accountId: acct.accountId, requestId: 'r-1', kind: 'find', costMicros: FIND, nowMs: 1 })).charged).toBe(true);
    const refund = store.refund({ accountId: acct.accountId, requestId: 'r-1', nowMs: 2 });
    await store.close();
    expect(await refund).toEqual({ refunded: true, amountMicros: FIND, balanceMicros: 10_000_000 });
    const { rows, balance } = await db.ledger(acct.accountId);
    expect(rows.map((r) => r.requestId)).toEqual([`open:${acct.accountId}`, 'r-1', 'refund:r-1']);
    expect(balance).toBe(10_000_000);
  });

  it('rate windows exact across instances: Hobbyist, 10 concurrent in one second over two instances -> 2 admitted; the next second 2 more; a day window of 5 holds', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const acct = await openAccount(a, 'Hobbyist', { nowMs: 0 });
    const windows = planWindows('Hobbyist');
    const t0 = Date.UTC(2026, 2, 10, 12, 0, 0, 100);
    const burst = async (nowMs: number) => (await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).consumeRate(acct.accountId, windows, nowMs)))).filter((d) => d.admitted).length;
    expect(await burst(t0)).toBe(2);
    expect(await burst(t0 + 500)).toBe(0);
    expect(await burst(t0 + 1000)).toBe(2);
    // a day window of 5 (the Hobbyist day is 1,000: the same rule, a smaller number), another account
    const other = await openAccount(a, 'Hobbyist', { nowMs: 0 });
    const day: RateWindow[] = [{ name: 'day', limit: 5, windowMs: 86_400_000 }];
    let admitted = 0;
    for (let s = 0; s < 4; s++) {
      admitted += (await Promise.all(Array.from({ length: 3 }, (_, i) => (i % 2 ? a : b).consumeRate(other.accountId, day, t0 + s * 1000)))).filter((d) => d.admitted).length;
    }
    expect(admitted).toBe(5);
  });

  it('a key rotation by one instance is seen by another within the 250 ms key cache', async () => {
    const db = await kind.fresh();
    let now = 0;
    const clock = () => now;
    const [a, b] = [await db.open({ keyCacheTtlMs: 250, monotonicClock: clock }), await db.open({ keyCacheTtlMs: 250, monotonicClock: clock })];
    const acct = await openAccount(a, 'Scale', { nowMs: 0 });
    const digest = hashApiKey(acct.secretKey);
    expect((await b.findKey(digest, 1))?.accountId).toBe(acct.accountId);
    await rotateAccountKeys(a, acct.accountId, { graceMs: 0, nowMs: 2 });
    expect(await a.findKey(digest, 3)).toBeUndefined();
    now = 249;
    // b's cached row still has no expiry: served for at most the TTL
    expect((await b.findKey(digest, 3))?.accountId).toBe(acct.accountId);
    now = 250;
    expect(await b.findKey(digest, 3)).toBeUndefined();
  });

  it('a rotation without grace from a machine whose clock is 30 s ahead ends the old key at once on an instance whose clock is behind', async () => {
    const db = await kind.fresh();
    const [operator, server] = [await db.open(), await db.open({ keyCacheTtlMs: 0 })];
    const t = Date.UTC(2026, 10, 29, 14, 3, 24);
    const acct = await openAccount(operator, 'Scale', { nowMs: t - 60_000 });
    const digest = hashApiKey(acct.secretKey);
    expect((await server.findKey(digest, t))?.accountId).toBe(acct.accountId);
    await rotateAccountKeys(operator, acct.accountId, { kinds: ['secret'], graceMs: 0, nowMs: t + 30_000 });
    expect(await server.findKey(digest, t + 1000)).toBeUndefined();
    // a grace period still ends at the rotating machine's time plus the grace
    const other = await openAccount(operator, 'Scale', { nowMs: t - 60_000 });
    const otherDigest = hashApiKey(other.secretKey);
    await rotateAccountKeys(operator, other.accountId, { kinds: ['secret'], graceMs: 60_000, nowMs: t });
    expect((await server.findKey(otherDigest, t + 59_999))?.accountId).toBe(other.accountId);
    expect(await server.findKey(otherDigest, t + 60_000)).toBeUndefined();
  });

  it('rate windows across instances whose clocks differ by 400 ms: at midnight, the instance behind counts in the new day the other started (1/s holds)', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const acct = await openAccount(a, 'Builder', { nowMs: 0 });
    const windows: RateWindow[] = [
      { name: 'second', limit: 1, windowMs: 1000 },
      { name: 'day', limit: 3, windowMs: 86_400_000 },
    ];
    const midnight = Date.UTC(2027, 1, 10);
    for (const t of [midnight - 5000, midnight - 3000, midnight - 2000]) expect((await a.consumeRate(acct.accountId, windows, t)).admitted).toBe(true);
    const outcomes: string[] = [];
    for (let k = 0; k < 10; k++) {
      const [store, t] = k % 2 === 0 ? [a, midnight - 300 + k * 20] : [b, midnight + 100 + k * 20];
      outcomes.push(`${k % 2 === 0 ? 'A' : 'B'}:${(await store.consumeRate(acct.accountId, windows, t)).admitted ? 200 : 429}`);
    }
    expect(outcomes.join(' ')).toBe('A:429 B:200 A:429 B:429 A:429 B:429 A:429 B:429 A:429 B:429');
  });

  it('rate windows across instances whose clocks differ by 59 s: after B (ahead) serves one, A alone admits 5 a second, not 4 in a minute (audit 68b F1; hand-computed)', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const acct = await openAccount(a, 'Scale', { nowMs: 0 });
    const windows: RateWindow[] = [{ name: 'second', limit: 5, windowMs: 1000 }];
    const t0 = Date.UTC(2026, 10, 30, 12, 0, 0, 300);
    expect((await b.consumeRate(acct.accountId, windows, t0 + 59_000)).admitted).toBe(true);
    const admittedPerSecond: number[] = [];
    for (let s = 0; s < 6; s++) {
      // A, one request at a time, 10 in each of its seconds (t0 + s s .. + 450 ms)
      let admitted = 0;
      for (let k = 0; k < 10; k++) if ((await a.consumeRate(acct.accountId, windows, t0 + s * 1000 + k * 50)).admitted) admitted++;
      admittedPerSecond.push(admitted);
    }
    // A follows B from 58 s on (the lead it learns, kept by the store): its seconds 0 and 1 fall in
    // B's second (1 used), 4 admitted; then 5 each (before: 4, then 0 until A's clock reached B's)
    expect(admittedPerSecond).toEqual([4, 0, 5, 5, 5, 5]);
  });

  it('a request that waited for the counters is decided at the clock read once they are free, so a wait is not learnt as lead (audit 68j F1; hand-computed)', async () => {
    const db = await kind.fresh();
    const [a, b] = [await db.open(), await db.open()];
    const acct = await openAccount(a, 'Scale', { nowMs: 0 });
    const windows: RateWindow[] = [{ name: 'second', limit: 5, windowMs: 1000 }];
    const t0 = Date.UTC(2026, 10, 30, 12, 0, 0, 0);
    const skew = 59_000; // B's clock reads 59 s ahead of A's (the true one)
    await b.consumeRate(acct.accountId, windows, t0 + 100 + skew);
    // A follows B from 58 s on (the lead less one window)
    expect((await a.consumeRate(acct.accountId, windows, t0 + 200)).atMs).toBe(t0 + 200 + 58_000);
    // B stores its second 12:01:02 (true 12:00:03.9); A's request arrived at 12:00:01.000 and is
    // decided at 12:00:04.000 (it waited 3 s for the counters: a lock held, a busy file)
    await b.consumeRate(acct.accountId, windows, t0 + 3900 + skew);
    const late = await a.consumeRate(acct.accountId, windows, t0 + 1000, () => t0 + 4000);
    expect(late.atMs).toBe(t0 + 4000 + 58_000);
    // the next request, at 12:00:05, is decided with the same 58 s lead: never ahead of B's clock
    // (before: the 3 s wait read as a stored window 3 s ahead, the lead grew to 60 s, 12:01:05)
    const next = await a.consumeRate(acct.accountId, windows, t0 + 5000, () => t0 + 5000);
    expect(next.atMs).toBe(t0 + 5000 + 58_000);
    expect(next.atMs).toBeLessThanOrEqual(t0 + 5000 + skew);
  });

  it('a balance stays exact to the micro-pound: a top-up that would pass 2^53 - 1 micro-GBP is refused and changes nothing', async () => {
    const db = await kind.fresh();
    const store = await db.open();
    const acct = await openAccount(store, 'Scale', { nowMs: 0 });
    const topUp = 999_999_999_000_000; // the most one top-up takes: 999,999,999 GBP
    let expected = BigInt((await store.balanceMicros(acct.accountId))!);
    let refused: unknown;
    for (let k = 0; k < 11 && refused === undefined; k++) {
      try {
        const balance = await store.topUp(acct.accountId, topUp, k + 1);
        expected += BigInt(topUp);
        expect(BigInt(balance)).toBe(expected);
      } catch (err) {
        refused = err;
      }
    }
    // BigInt oracle: 10 GBP + 9 top-ups fit under 9,007,199,254.740991 GBP; the 10th does not
    expect(expected).toBe(10_000_000n + 9n * BigInt(topUp));
    expect(refused).toBeInstanceOf(RangeError);
    expect((refused as Error).message).toMatch(/^a balance may hold at most 9,007,199,254\.740991 GBP; topping up 999,999,999 GBP would take acct_\w+ past it$/);
    expect(BigInt((await store.balanceMicros(acct.accountId))!)).toBe(expected);
    expect(BigInt((await store.usage(acct.accountId)).find.costMicros)).toBe(0n);
  });

  it('allowed origins round-trip; an unknown account is a RangeError', async () => {
    const db = await kind.fresh();
    const store = await db.open();
    const acct = await openAccount(store, 'Scale', { nowMs: 0 });
    await store.setAllowedOrigins(acct.accountId, ['https://b.example', 'https://a.example']);
    expect(await store.allowedOrigins(acct.accountId)).toEqual(['https://a.example', 'https://b.example']);
    await store.setAllowedOrigins(acct.accountId, []);
    expect(await store.allowedOrigins(acct.accountId)).toEqual([]);
    await expect(store.setAllowedOrigins('acct_none', ['https://a.example'])).rejects.toThrow(RangeError);
    await expect(store.topUp('acct_none', 5, 0)).rejects.toThrow(RangeError);
  });
});

describe('openAccount refuses what would open a useless account, naming the field and value', () => {
  it('an unknown plan, a plan given as an object, a credit that is not a whole number of micro-GBP; nothing is opened', async () => {
    const store = new SqliteAccountsStore(':memory:');
    try {
      const cases: Array<[unknown, Record<string, unknown>, string, unknown]> = [
        ['Gold', {}, 'plan', 'Gold'],
        [{ plan: 'StartUp' }, {}, 'plan', { plan: 'StartUp' }],
        ['startup', {}, 'plan', 'startup'],
        ['StartUp', { openingCreditMicros: -1 }, 'openingCreditMicros', -1],
        ['StartUp', { openingCreditMicros: 1.5 }, 'openingCreditMicros', 1.5],
      ];
      for (const [k, [plan, options, param, value]] of cases.entries()) {
        const accountId = `acct_refused_${k}`;
        await expect(openAccount(store, plan as PlanName, { ...options, accountId })).rejects.toMatchObject({ code: 'invalid_request', param, value });
        expect(await store.getAccount(accountId)).toBeUndefined();
      }
      await expect(openAccount(store, 'Gold' as PlanName)).rejects.toThrow('plan must be one of Builder, Hobbyist, StartUp, Scale, Enterprise; got "Gold"');
      // every real plan opens
      for (const plan of PLAN_NAMES) expect((await openAccount(store, plan, { openingCreditMicros: 0 })).plan).toBe(plan);
    } finally {
      await store.close();
    }
  });
});
