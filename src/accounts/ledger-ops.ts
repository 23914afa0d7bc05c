/**
 * The two per-request writes of the accounts store, as batches: the turn's charges (one
 * BEGIN IMMEDIATE transaction on the ledger's `synchronous=FULL` connection: one fsync for the
 * batch) and the turn's rate decisions (one BEGIN IMMEDIATE transaction on the rate counters'
 * `synchronous=NORMAL` connection). Charges run in the ledger worker thread for a file store
 * (ledger-worker.ts) and on the main thread for an in-memory one: one implementation for both.
 * Rate counters live in their own file beside the accounts file (`<accounts file>-rates`), so
 * a rate decision never waits for the ledger's write lock, held through each commit's fsync.
 *
 * Invariants: each charge debits only if the balance still covers it (`WHERE balance_micros
 * >= cost`), at most once per request id (checked, and UNIQUE in the schema), in arrival
 * order; each rate decision is made in arrival order against the counters as stored (other
 * processes' counts included, since the write lock is held), a rejected request counts in no
 * window. If a batch throws, its transaction rolls back whole.
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { refundRowId, type ChargeRequest, type ChargeResult, type RefundRequest, type RefundResult } from './accounts-store.js';
import { openSqliteFile } from './database-clients.js';
import type { RateWindow } from './plans.js';
import { decideRate, type ClockLead, type RateDecision, type WindowCounter } from './rate-limit.js';

export interface RateRequest {
  readonly accountId: string;
  readonly windows: readonly RateWindow[];
  readonly nowMs: number;
  /**
   * The clock `nowMs` was read from, read again inside the rates transaction (after any wait
   * for the file's write lock): the request is decided at the later instant. Deciding at the
   * arrival time after a wait made another process's newer window look ahead by the wait, and
   * the lead learnt from it (rate-limit.ts, ClockLead) grew by every such stall until clocks
   * pushed each other past a minute and stopped limiting (audit 68j F1).
   */
  readonly clock?: () => number;
}


export const RATE_COUNTERS_TABLE = `
CREATE TABLE IF NOT EXISTS rate_counters (
  account_id TEXT NOT NULL,
  window TEXT NOT NULL,
  window_start_ms INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (account_id, window)
) STRICT, WITHOUT ROWID;
`;

/** The rate counters' file for an accounts file. */
export function rateCountersPath(accountsPath: string): string {
  return `${accountsPath}-rates`;
}

/**
 * Opens (creating if needed) the rate counters' file: WAL, `synchronous=NORMAL` (survives a
 * kill -9; an OS crash may lose the last increments, in the client's favour).
 */
export function openRateCounters(path: string, busyTimeoutMs: number): SqliteDatabase {
  const db = openSqliteFile(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    db.exec(RATE_COUNTERS_TABLE);
    db.prepare('DELETE FROM rate_counters WHERE 0').run(); // fails now, not at a request, if read-only
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Opens the ledger's connection: WAL, `synchronous=FULL` (a commit is on disk when it returns). */
export function openLedgerConnection(path: string, busyTimeoutMs: number): SqliteDatabase {
  const db = openSqliteFile(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  return db;
}

/** A rate counter as read or updated inside one batch. */
interface BatchCounter {
  readonly accountId: string;
  readonly window: string;
  counter: WindowCounter | undefined;
  dirty: boolean;
}

/** The charge batch: one transaction, each debit conditional, in order. */
export function prepareChargeBatch(ledgerDb: SqliteDatabase): (requests: readonly ChargeRequest[]) => ChargeResult[] {
  const balance: Statement<[string], { balance_micros: number }> = ledgerDb.prepare('SELECT balance_micros FROM accounts WHERE id = ?');
  const ledgerHas: Statement<[string], { seq: number }> = ledgerDb.prepare('SELECT seq FROM ledger WHERE request_id = ?');
  const debit: Statement<[number, string, number], { balance_micros: number }> = ledgerDb.prepare(
    'UPDATE accounts SET balance_micros = balance_micros - ? WHERE id = ? AND balance_micros >= ? RETURNING balance_micros',
  );
  const insertLedger = ledgerDb.prepare(
    'INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
  );

  function chargeOne(request: ChargeRequest): ChargeResult {
    const current = balance.get(request.accountId);
    if (current === undefined) return { charged: false, reason: 'unknown_account', balanceMicros: 0 };
    if (ledgerHas.get(request.requestId) !== undefined) {
      return { charged: false, reason: 'duplicate_request', balanceMicros: current.balance_micros };
    }
    // in the write transaction: after any wait for the database's lock
    if (request.deadlineMs !== undefined && Date.now() > request.deadlineMs) return { charged: false, reason: 'too_late', balanceMicros: current.balance_micros };
    const row = debit.get(request.costMicros, request.accountId, request.costMicros);
    if (row === undefined) return { charged: false, reason: 'insufficient_balance', balanceMicros: current.balance_micros };
    insertLedger.run(request.accountId, request.requestId, request.kind, -request.costMicros, row.balance_micros, request.nowMs);
    return { charged: true, balanceMicros: row.balance_micros };
  }

  // a transaction wrapper made once (better-sqlite3 builds several closures per .transaction())
  return ledgerDb.transaction((requests: readonly ChargeRequest[]) => requests.map(chargeOne)).immediate;
}

/**
 * The refund of one charge: one transaction that finds the charge's ledger row, credits its
 * cost back and writes the refund's row (refundRowId: UNIQUE, so at most once). Invariant:
 * the balance still equals the sum of the ledger's amounts.
 */
export function prepareRefund(ledgerDb: SqliteDatabase): (request: RefundRequest) => RefundResult {
  const chargeOf: Statement<[string, string], { cost: number }> = ledgerDb.prepare(
    'SELECT -amount_micros AS cost FROM ledger WHERE request_id = ? AND account_id = ? AND amount_micros < 0',
  );
  const ledgerHas: Statement<[string], { seq: number }> = ledgerDb.prepare('SELECT seq FROM ledger WHERE request_id = ?');
  const credit: Statement<[number, string], { balance_micros: number }> = ledgerDb.prepare(
    'UPDATE accounts SET balance_micros = balance_micros + ? WHERE id = ? RETURNING balance_micros',
  );
  const insertLedger = ledgerDb.prepare(
    "INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms) VALUES (?, ?, 'refund', ?, ?, ?)",
  );
  return ledgerDb.transaction((request: RefundRequest): RefundResult => {
    const charge = chargeOf.get(request.requestId, request.accountId);
    if (charge === undefined) return { refunded: false, reason: 'not_charged' };
    const rowId = refundRowId(request.requestId);
    if (ledgerHas.get(rowId) !== undefined) return { refunded: false, reason: 'already_refunded' };
    const row = credit.get(charge.cost, request.accountId)!;
    insertLedger.run(request.accountId, rowId, charge.cost, row.balance_micros, request.nowMs);
    return { refunded: true, amountMicros: charge.cost, balanceMicros: row.balance_micros };
  }).immediate;
}

/** The rate batch: one transaction; each counter read once, updated as requests are admitted, written once. */
export function prepareRateBatch(ratesDb: SqliteDatabase): (requests: readonly RateRequest[]) => RateDecision[] {
  const getCounter: Statement<[string, string], { window_start_ms: number; count: number }> = ratesDb.prepare(
    'SELECT window_start_ms, count FROM rate_counters WHERE account_id = ? AND window = ?',
  );
  const putCounter = ratesDb.prepare(
    `INSERT INTO rate_counters (account_id, window, window_start_ms, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, window) DO UPDATE SET window_start_ms = excluded.window_start_ms, count = excluded.count`,
  );

  // this process's view of clocks ahead of its own (rate-limit.ts), across batches
  const lead: ClockLead = { ms: 0 };

  function decideRates(requests: readonly RateRequest[]): RateDecision[] {
    const touched = new Map<string, BatchCounter>();
    const counterOf = (accountId: string, window: string): BatchCounter => {
      const id = `${accountId}\u0000${window}`;
      let c = touched.get(id);
      if (c === undefined) {
        const row = getCounter.get(accountId, window);
        c = { accountId, window, counter: row === undefined ? undefined : { windowStart: row.window_start_ms, count: row.count }, dirty: false };
        touched.set(id, c);
      }
      return c;
    };
    const decisions = requests.map(({ accountId, windows, nowMs, clock }) => {
      const counters = windows.map((w) => counterOf(accountId, w.name));
      const { decision, next } = decideRate(
        windows,
        counters.map((c) => c.counter),
        clock === undefined ? nowMs : Math.max(nowMs, clock()),
        lead,
      );
      if (decision.admitted) {
        counters.forEach((c, i) => {
          c.counter = next[i]!;
          c.dirty = true;
        });
      }
      return decision;
    });
    for (const c of touched.values()) {
      if (c.dirty && c.counter !== undefined) putCounter.run(c.accountId, c.window, c.counter.windowStart, c.counter.count);
    }
    return decisions;
  }

  return ratesDb.transaction(decideRates).immediate;
}
