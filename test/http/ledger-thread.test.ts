/**
 * The file store's write paths: charges committed by the ledger worker thread, rate counters
 * in their own file. Oracles: the ledger and counters read back with a separate better-sqlite3
 * connection (not the store), hand-computed balances and allowances.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { LedgerThread } from '../../src/accounts/ledger-thread.js';
import { DAY_MS, type RateWindow } from '../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-ledger-thread-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0, 0);
const FIND = 6000;

function readLedger(dbPath: string, accountId: string): { balance: number; charges: string[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const balance = (db.prepare('SELECT balance_micros AS b FROM accounts WHERE id = ?').get(accountId) as { b: number }).b;
    const charges = (db.prepare('SELECT request_id FROM ledger WHERE account_id = ? AND amount_micros < 0 ORDER BY seq').all(accountId) as { request_id: string }[]).map(
      (r) => r.request_id,
    );
    return { balance, charges };
  } finally {
    db.close();
  }
}

describe('charges in the ledger worker thread', () => {
  it('worker and main-thread charging give the same results: 7 concurrent charges on a balance of 5 finds -> 5 charged in arrival order, 2 refused, balance 0', async () => {
    for (const ledgerThread of [true, false]) {
      const dbPath = join(tmp, `same-${ledgerThread}.sqlite`);
      const store = new SqliteAccountsStore(dbPath, { ledgerThread });
      const acct = await openAccount(store, 'Scale', { nowMs: T0, openingCreditMicros: 5 * FIND });
      const results = await Promise.all(
        Array.from({ length: 7 }, (_, i) => store.charge({ accountId: acct.accountId, requestId: `r${i}`, kind: 'find', costMicros: FIND, nowMs: T0 + i })),
      );
      expect(results.map((r) => r.charged)).toEqual([true, true, true, true, true, false, false]);
      expect(results.map((r) => r.balanceMicros)).toEqual([4, 3, 2, 1, 0, 0, 0].map((n) => n * FIND));
      expect(readLedger(dbPath, acct.accountId)).toEqual({ balance: 0, charges: ['r0', 'r1', 'r2', 'r3', 'r4'] });
      await store.close();
    }
  });

  it('close() waits for charges still queued or in flight: each promise settles charged and its row is in the file', async () => {
    const dbPath = join(tmp, 'close-drains.sqlite');
    const store = new SqliteAccountsStore(dbPath);
    const acct = await openAccount(store, 'Scale', { nowMs: T0 });
    const pending = Array.from({ length: 20 }, (_, i) => store.charge({ accountId: acct.accountId, requestId: `c${i}`, kind: 'find', costMicros: FIND, nowMs: T0 }));
    await store.close();
    const results = await Promise.all(pending);
    expect(results.every((r) => r.charged)).toBe(true);
    const ledger = readLedger(dbPath, acct.accountId);
    expect(ledger.charges).toHaveLength(20);
    expect(ledger.balance).toBe(10_000_000 - 20 * FIND);
  });

  it('a worker that cannot open its database rejects the batch (nothing charged, the caller answers 500); the next batch starts a new worker', async () => {
    const thread = new LedgerThread(join(tmp, 'no-such-folder', 'accounts.sqlite'), 100);
    const request = { accountId: 'acct_x', requestId: 'r1', kind: 'find' as const, costMicros: FIND, nowMs: T0 };
    await expect(thread.charge([request])).rejects.toThrow();
    await expect(thread.charge([request])).rejects.toThrow();
    await thread.close();
  });
});

describe('rate counters in their own file', () => {
  const windows: RateWindow[] = [{ name: 'day', limit: 3, windowMs: DAY_MS }];

  it('are written to <accounts file>-rates, not to the accounts file', async () => {
    const dbPath = join(tmp, 'rates-file.sqlite');
    const store = new SqliteAccountsStore(dbPath);
    const acct = await openAccount(store, 'Scale', { nowMs: T0 });
    await Promise.all([1, 2].map(() => store.consumeRate(acct.accountId, windows, T0)));
    await store.close();
    const rates = new Database(`${dbPath}-rates`, { readonly: true });
    expect(rates.prepare('SELECT account_id, window, count FROM rate_counters').all()).toEqual([{ account_id: acct.accountId, window: 'day', count: 2 }]);
    rates.close();
    const accounts = new Database(dbPath, { readonly: true });
    expect(accounts.prepare('SELECT COUNT(*) AS n FROM rate_counters').get()).toEqual({ n: 0 });
    accounts.close();
  });

  it('counters an older version kept in the accounts file are taken over once: 2 of 3 used there -> 1 more admitted', async () => {
    const dbPath = join(tmp, 'legacy.sqlite');
    const setup = new SqliteAccountsStore(dbPath, { ratesPath: join(tmp, 'legacy-setup-rates.sqlite') });
    const acct = await openAccount(setup, 'Scale', { nowMs: T0 });
    await setup.close();
    const raw = new Database(dbPath);
    raw.prepare('INSERT INTO rate_counters (account_id, window, window_start_ms, count) VALUES (?, ?, ?, ?)').run(acct.accountId, 'day', Date.UTC(2026, 2, 10), 2);
    raw.close();
    const store = new SqliteAccountsStore(dbPath);
    const decisions = await Promise.all([1, 2].map(() => store.consumeRate(acct.accountId, windows, T0 + 1000)));
    expect(decisions.map((d) => d.admitted)).toEqual([true, false]);
    await store.close();
  });
});
