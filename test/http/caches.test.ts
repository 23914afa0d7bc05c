/**
 * The store's per-request shortcuts keep their guarantees (docs/http.md "Performance"):
 * - key rows cached for a bounded real time: a rotation through the same store takes effect at
 *   once, one through another store on the same file within the TTL; grace ends on the request clock;
 * - the balance pre-check may read a mirror, but never refuses what the database balance covers
 *   and never lets a charge through that the database balance cannot pay;
 * - rate decisions grouped per event-loop turn stay exact across two stores on one file.
 * Oracles: SQL read directly from the database file (key expiries, balances, ledger rows,
 * counters), hand-computed allowances, and a hand-driven monotonic clock for the cache TTL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccount, rotateAccountKeys } from '../../src/accounts/accounts.js';
import { KeyCache } from '../../src/accounts/key-cache.js';
import { hashApiKey } from '../../src/accounts/keys.js';
import { SECOND_MS, type RateWindow } from '../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { createHarness, FakeClock, ledgerRows } from './support/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-caches-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0, 0);

/** Reads a key's stored expiry straight from the file (independent of the store's code). */
function storedExpiry(dbPath: string, key: string): number | null {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db.prepare('SELECT expires_at_ms FROM api_keys WHERE digest = ?').get(hashApiKey(key)) as { expires_at_ms: number | null };
    return row.expires_at_ms;
  } finally {
    db.close();
  }
}

function sqlBalance(dbPath: string, accountId: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT balance_micros AS b FROM accounts WHERE id = ?').get(accountId) as { b: number }).b;
  } finally {
    db.close();
  }
}

describe('KeyCache (hand-driven monotonic clock)', () => {
  const entry = { principal: { accountId: 'a', plan: 'Scale' as const, keyKind: 'secret' as const }, digest: Buffer.alloc(32, 1), expiresAtMs: null };

  it('serves an entry for less than ttlMs of monotonic time, then forgets it (boundary: exactly ttlMs is stale)', () => {
    let now = 1000;
    const cache = new KeyCache(250, 10, () => now);
    cache.set('k', entry);
    now += 249;
    expect(cache.get('k')).toBe(entry);
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('ttl 0 never caches; past maxEntries the cache empties instead of growing', () => {
    const off = new KeyCache(0, 10, () => 0);
    off.set('k', entry);
    expect(off.get('k')).toBeUndefined();
    const small = new KeyCache(1000, 3, () => 0);
    for (const id of ['a', 'b', 'c']) small.set(id, entry);
    expect(small.size).toBe(3);
    small.set('d', entry);
    expect(small.size).toBe(1);
    expect(small.get('a')).toBeUndefined();
    expect(small.get('d')).toBe(entry);
  });

  it('rejects a negative or non-finite TTL', () => {
    expect(() => new KeyCache(-1)).toThrow(RangeError);
    expect(() => new KeyCache(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('cached keys and rotation', () => {
  it('same store: a cached key revoked with grace 0 is refused on the next request; a grace end is exact on the request clock', async () => {
    const clock = new FakeClock(T0);
    const h = await createHarness({ clock, dbPath: join(tmp, 'same.sqlite') });
    const acct = await h.open('Enterprise');
    const status = async (key: string) => (await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': key } })).statusCode;
    expect(await status(acct.secretKey)).toBe(200); // now cached
    const r = await rotateAccountKeys(h.store, acct.accountId, { kinds: ['secret'], graceMs: 5_000, nowMs: clock.nowMs });
    expect(storedExpiry(join(tmp, 'same.sqlite'), acct.secretKey)).toBe(T0 + 5_000);
    expect(await status(acct.secretKey)).toBe(200); // in its grace
    clock.nowMs = T0 + 4_999;
    expect(await status(acct.secretKey)).toBe(200); // cached, still 1 ms of grace
    clock.nowMs = T0 + 5_000;
    expect(await status(acct.secretKey)).toBe(401); // grace over, from the cache too
    expect(await status(r.secretKey!)).toBe(200);
    await rotateAccountKeys(h.store, acct.accountId, { kinds: ['secret'], graceMs: 0, nowMs: clock.nowMs });
    expect(await status(r.secretKey!)).toBe(401); // cached a moment ago, revoked now
    await h.close();
  });

  it('another store on the same file: a revocation there is seen here once the cache TTL has passed (boundary: 999 ms cached, 1000 ms not), and at once with TTL 0', async () => {
    const dbPath = join(tmp, 'other.sqlite');
    const clock = new FakeClock(T0);
    let monotonic = 0;
    const h = await createHarness({ clock, dbPath, storeOptions: { keyCacheTtlMs: 1000, monotonicClock: () => monotonic } });
    const uncached = await createHarness({ clock, dbPath, storeOptions: { keyCacheTtlMs: 0 } });
    const operator = new SqliteAccountsStore(dbPath); // the `keys rotate` command, elsewhere
    const acct = await h.open('Enterprise');
    const status = async (app: typeof h, key: string) =>
      (await app.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': key } })).statusCode;
    expect(await status(h, acct.secretKey)).toBe(200); // read at monotonic 0
    expect(await status(uncached, acct.secretKey)).toBe(200);
    await rotateAccountKeys(operator, acct.accountId, { kinds: ['secret'], graceMs: 0, nowMs: clock.nowMs });
    // no grace: stored as expired at the epoch, so that no server's clock, however far behind, keeps it
    expect(storedExpiry(dbPath, acct.secretKey)).toBe(0);
    expect(await status(uncached, acct.secretKey)).toBe(401);
    monotonic = 999;
    expect(await status(h, acct.secretKey)).toBe(200); // the documented bound: cached for up to the TTL
    monotonic = 1000;
    expect(await status(h, acct.secretKey)).toBe(401);
    monotonic = 5000;
    expect(await status(h, acct.secretKey)).toBe(401);
    await operator.close();
    await uncached.close();
    await h.close();
  });

  it('an unknown key is never cached: a key created by another store works on its first request', async () => {
    const dbPath = join(tmp, 'created-elsewhere.sqlite');
    const h = await createHarness({ dbPath, storeOptions: { keyCacheTtlMs: 60_000 } });
    const operator = new SqliteAccountsStore(dbPath);
    const acct = await h.open('Enterprise');
    const rotated = await rotateAccountKeys(operator, acct.accountId, { kinds: ['public'], graceMs: 0, nowMs: h.clock.nowMs });
    const res = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': rotated.publicKey! } });
    expect(res.statusCode).toBe(200);
    await operator.close();
    await h.close();
  });
});

describe('balance mirror', () => {
  const FIND = 6000;

  it('a top-up made through another store is honoured at once: no 402 from an out-of-date mirror', async () => {
    const dbPath = join(tmp, 'topup-elsewhere.sqlite');
    const h = await createHarness({ dbPath });
    const operator = new SqliteAccountsStore(dbPath);
    const acct = await h.open('Enterprise', FIND);
    const find = async () => (await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } })).statusCode;
    expect(await find()).toBe(200);
    expect(await find()).toBe(402); // the mirror now says 0
    await operator.topUp(acct.accountId, 3 * FIND, h.clock.nowMs);
    expect(sqlBalance(dbPath, acct.accountId)).toBe(3 * FIND);
    expect([await find(), await find(), await find(), await find()]).toEqual([200, 200, 200, 402]);
    expect(sqlBalance(dbPath, acct.accountId)).toBe(0);
    expect((await ledgerRows(h.store, acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(4);
    await operator.close();
    await h.close();
  });

  it('money spent through another store: the out-of-date mirror lets the engine run, but the charge refuses (402, no ledger row, balance stays 0)', async () => {
    const dbPath = join(tmp, 'spent-elsewhere.sqlite');
    const h = await createHarness({ dbPath });
    const other = new SqliteAccountsStore(dbPath);
    const acct = await h.open('Enterprise', 2 * FIND);
    const find = () => h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } });
    expect((await find()).statusCode).toBe(200); // mirror: FIND left
    const spent = await other.charge({ accountId: acct.accountId, requestId: 'elsewhere-1', kind: 'find', costMicros: FIND, nowMs: h.clock.nowMs });
    expect(spent.charged).toBe(true);
    expect(sqlBalance(dbPath, acct.accountId)).toBe(0);
    const callsBefore = h.engine.calls.find;
    const refused = await find();
    expect(refused.statusCode).toBe(402);
    expect(h.engine.calls.find).toBe(callsBefore + 1); // served from the stale mirror, refused at the charge
    const again = await find();
    expect(again.statusCode).toBe(402);
    expect(h.engine.calls.find).toBe(callsBefore + 1); // the charge refreshed the mirror: no engine call now
    expect(sqlBalance(dbPath, acct.accountId)).toBe(0);
    expect((await ledgerRows(h.store, acct.accountId)).filter((r) => r.amount_micros < 0).map((r) => r.request_id)).toEqual([
      expect.any(String),
      'elsewhere-1',
    ]);
    await other.close();
    await h.close();
  });

  it('precheckBalance: covers exactly when the database balance >= cost (boundary: equal covers), 0 for an unknown account', async () => {
    const store = new SqliteAccountsStore(':memory:');
    const acct = await openAccount(store, 'Scale', { nowMs: T0, openingCreditMicros: 10_000 });
    expect(await store.precheckBalance(acct.accountId, 10_000)).toEqual({ covers: true, balanceMicros: 10_000 });
    expect(await store.precheckBalance(acct.accountId, 10_001)).toEqual({ covers: false, balanceMicros: 10_000 });
    expect(await store.precheckBalance('acct_nobody', 1)).toEqual({ covers: false, balanceMicros: 0 });
    await store.close();
  });
});

describe('rate decisions grouped by turn', () => {
  it('two stores on one file, 3 x 40 concurrent decisions each against 25/s and 70/day: exactly 25 admitted per second until the day is full; counters in the file match', async () => {
    const dbPath = join(tmp, 'rates.sqlite');
    const a = new SqliteAccountsStore(dbPath);
    const b = new SqliteAccountsStore(dbPath);
    const acct = await openAccount(a, 'Scale', { nowMs: T0 });
    const windows: RateWindow[] = [
      { name: 'second', limit: 25, windowMs: SECOND_MS },
      { name: 'day', limit: 70, windowMs: 86_400_000 },
    ];
    const admittedPerSecond: number[] = [];
    for (let s = 0; s < 3; s++) {
      const now = T0 + s * SECOND_MS + 10;
      const decisions = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).consumeRate(acct.accountId, windows, now)));
      const admitted = decisions.filter((d) => d.admitted);
      admittedPerSecond.push(admitted.length);
      // each admitted request saw a distinct remaining count in the binding window
      const remainingDay = admitted.map((d) => d.windows[1]!.remaining).sort((x, y) => x - y);
      expect(new Set(remainingDay).size).toBe(admitted.length);
    }
    expect(admittedPerSecond).toEqual([25, 25, 20]); // 70 a day: 25 + 25 + 20
    const db = new Database(`${dbPath}-rates`, { readonly: true }); // the rate counters' own file
    const rows = db.prepare('SELECT window, window_start_ms, count FROM rate_counters WHERE account_id = ? ORDER BY window').all(acct.accountId);
    db.close();
    expect(rows).toEqual([
      { window: 'day', window_start_ms: Date.UTC(2026, 2, 10), count: 70 },
      { window: 'second', window_start_ms: T0 + 2 * SECOND_MS, count: 20 },
    ]);
    await a.close();
    await b.close();
  });

  it('a decision is committed before it is returned: a store opened after the promise settles sees the count (restart)', async () => {
    const dbPath = join(tmp, 'rates-restart.sqlite');
    const a = new SqliteAccountsStore(dbPath);
    const acct = await openAccount(a, 'Scale', { nowMs: T0 });
    const windows: RateWindow[] = [{ name: 'day', limit: 5, windowMs: 86_400_000 }];
    await Promise.all(Array.from({ length: 3 }, () => a.consumeRate(acct.accountId, windows, T0)));
    const fresh = new SqliteAccountsStore(dbPath);
    const next = await fresh.consumeRate(acct.accountId, windows, T0 + 1);
    expect(next.windows[0]!.used).toBe(4);
    await fresh.close();
    await a.close();
  });
});
