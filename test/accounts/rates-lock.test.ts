/**
 * The rate counters' file locked by another process (a sqlite3 shell, a backup tool) must not
 * stall the service (audit 64a F17): the rate step waits for the lock with the event loop
 * free, and a request that needs no rate decision is answered meanwhile. Oracles: a timer's
 * ticks while the lock is held (a blocked event loop misses them), the counters read back with
 * a separate connection, and the lock's holder deciding when the decision can be made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isAccountsUnavailable } from '../../src/accounts/accounts-unavailable.js';
import { DAY_MS, type RateWindow } from '../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { createHarness } from '../http/support/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-rates-lock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WINDOWS: readonly RateWindow[] = [{ name: 'day', limit: 10, windowMs: DAY_MS }];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds `file`'s write lock from another connection until the returned function is called. */
function hold(file: string): () => void {
  const holder = new Database(file);
  holder.prepare('BEGIN EXCLUSIVE').run();
  return () => {
    holder.prepare('COMMIT').run();
    holder.close();
  };
}

describe("the rate counters' file locked by another process", () => {
  it('a rate decision waits for the lock with the event loop free, and is made once the lock is let go', async () => {
    const file = join(tmp, 'wait.sqlite');
    const store = new SqliteAccountsStore(file, { busyTimeoutMs: 5000 });
    await store.insertAccount({ id: 'acct_a', plan: 'Enterprise', createdAtMs: 0, openingCreditMicros: 0, keys: [] });
    const release = hold(`${file}-rates`);
    // a timer that ticks every 10 ms: a call blocking the event loop for the lock's 600 ms misses its ticks
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    let decided = false;
    const decision = store.consumeRate('acct_a', WINDOWS, 1000).then((d) => {
      decided = true;
      return d;
    });
    await sleep(600);
    expect(decided).toBe(false); // the lock is held: no decision yet
    const ticksWhileHeld = ticks;
    release();
    expect((await decision).admitted).toBe(true);
    clearInterval(timer);
    // ~60 ticks in 600 ms with the loop free; a blocked loop (the old busy_timeout wait inside the call) gets at most 1
    expect(ticksWhileHeld).toBeGreaterThan(20);
    await store.close();
    const counters = new Database(`${file}-rates`, { readonly: true });
    expect(counters.prepare("SELECT count FROM rate_counters WHERE account_id = 'acct_a' AND window = 'day'").get()).toEqual({ count: 1 });
    counters.close();
  });

  it('held past the wait: the decision fails as SQLite busy (a 503), with the event loop free meanwhile', async () => {
    const file = join(tmp, 'past.sqlite');
    const store = new SqliteAccountsStore(file, { busyTimeoutMs: 300 });
    await store.insertAccount({ id: 'acct_b', plan: 'Enterprise', createdAtMs: 0, openingCreditMicros: 0, keys: [] });
    const release = hold(`${file}-rates`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const error = await store.consumeRate('acct_b', WINDOWS, 1000).then(
      () => null,
      (e: unknown) => e,
    );
    clearInterval(timer);
    release();
    expect((error as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    expect(isAccountsUnavailable(error)).toBe(true);
    expect(ticks).toBeGreaterThan(10);
    expect((await store.consumeRate('acct_b', WINDOWS, 1000)).admitted).toBe(true);
    await store.close();
  });

  it('over HTTP: GET /v1/openapi.json is answered while a billed request waits for the locked counters (before: both waited for the lock)', async () => {
    const dbPath = join(tmp, 'http.sqlite');
    const h = await createHarness({ dbPath });
    const acct = await h.open('Enterprise');
    const release = hold(`${dbPath}-rates`);
    let findDone = false;
    const find = h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } }).then((r) => {
      findDone = true;
      return r;
    });
    await sleep(100);
    const spec = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(spec.statusCode).toBe(200);
    // the billed request still waits for the lock when the document has been answered
    expect(findDone).toBe(false);
    release();
    expect((await find).statusCode).toBe(200);
    await h.close();
  });
});
