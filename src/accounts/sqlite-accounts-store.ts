/**
 * The embedded accounts store: one SQLite file via better-sqlite3.
 *
 * Durability: WAL journal with `synchronous=FULL`, so a commit is on disk before the call
 * returns; a process killed with SIGKILL (or a power cut) loses no committed charge. Every
 * state change is one `BEGIN IMMEDIATE` transaction (better-sqlite3's `.immediate()`), which
 * takes the write lock up front: two processes sharing the file serialise instead of failing
 * mid-transaction, and `busy_timeout` makes a writer wait for the other rather than error.
 *
 * Group commit: an fsync costs about a millisecond, so charges arriving in the same turn of
 * the event loop are applied in ONE transaction (each debit still conditional, in arrival
 * order) and all their promises settle after that single commit. Nothing is answered before
 * its charge is on disk; throughput under load is no longer one fsync per request.
 *
 * Rate counters live in their own file beside this one (`<file>-rates`, ledger-ops.ts),
 * written with `synchronous=NORMAL`: in WAL mode that survives a process crash or `kill -9`
 * (the OS still has the pages); only an OS crash or power cut can lose the last increments,
 * which errs in the client's favour and is not money. Rate decisions are grouped by turn: one
 * BEGIN IMMEDIATE transaction decides every request of the turn, in arrival order, against
 * the counters as stored (so other processes' counts are included exactly), and each
 * request's promise settles after that commit. Their own file has its own write lock, so a
 * decision never waits for the ledger's lock, which each charge commit holds through its fsync.
 *
 * Ledger thread: for a database file the charge batches run in a worker thread with its own
 * connection (ledger-thread.ts), so a commit's fsync never blocks the event loop; the main
 * thread keeps its connection for reads and the rare operator writes (accounts, keys,
 * top-ups), which simply queue for the write lock. An in-memory store charges on the main thread.
 *
 * Caches (docs/http.md "Performance"): key rows are kept for `keyCacheTtlMs` (key-cache.ts);
 * the balance pre-check reads a mirror of each account's balance that this store refreshes on
 * every charge, top-up and read; the mirror may be too high (another process spent money) but
 * then the conditional debit refuses the charge, and when it says "too low" the database is
 * read before refusing, so an out-of-date mirror never refuses a request the balance covers.
 *
 * Money: integers in micro-pounds; `balance_micros >= 0` is also a CHECK constraint.
 */
import { randomUUID } from 'node:crypto';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import {
  AccountsDatabaseError,
  NOT_REFUNDED,
  type AccountRecord,
  type AccountsStore,
  type BalancePrecheck,
  type ChargeOptions,
  type ChargeRequest,
  type ChargeResult,
  type KeyPrincipal,
  type NewKeyDigest,
  type RefundRequest,
  type RefundResult,
  type TimeRange,
  type Usage,
  type UsageEntry,
} from './accounts-store.js';
import { BalanceMirror } from './balance-mirror.js';
import { DEFAULT_KEY_CACHE_TTL_MS, KeyCache, lookupKey } from './key-cache.js';
import { replacedKeysExpireAtMs, type KeyKind } from './keys.js';
import { BILLABLE_KINDS, MAX_BALANCE_MICROS, balanceLimitError, isPlanName, type BillableKind, type PlanName, type RateWindow } from './plans.js';
import { RATE_COUNTERS_TABLE, openRateCounters, prepareChargeBatch, prepareRateBatch, prepareRefund, rateCountersPath, type RateRequest } from './ledger-ops.js';
import { LedgerThread, type LedgerCharge } from './ledger-thread.js';
import type { RateDecision } from './rate-limit.js';
import { sqliteNativeModuleError } from './sqlite-native.js';
import { openSqliteFile, sqliteDatabaseClass } from './database-clients.js';
import { TurnBatcher } from './turn-batcher.js';
import { PendingWork } from '../pending-work.js';
import { retryWhileBusy } from './busy-retry.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  plan TEXT NOT NULL,
  balance_micros INTEGER NOT NULL CHECK (balance_micros >= 0),
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS api_keys (
  digest BLOB PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('secret', 'public')),
  created_at_ms INTEGER NOT NULL,
  -- NULL while current; after a rotation, the end of the old key's grace period
  expires_at_ms INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS api_keys_by_account ON api_keys (account_id, kind);
CREATE TABLE IF NOT EXISTS ledger (
  seq INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  request_id TEXT NOT NULL UNIQUE,
  -- a billable kind (search, find, basic, advanced, menus) or 'credit' / 'topup' / 'refund'
  kind TEXT NOT NULL,
  -- signed micro-pounds: charges negative, credits positive
  amount_micros INTEGER NOT NULL,
  balance_after_micros INTEGER NOT NULL,
  at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS ledger_by_account_time ON ledger (account_id, at_ms);
${RATE_COUNTERS_TABLE}
-- added with the widget; CREATE IF NOT EXISTS keeps older files valid (no rows: any origin)
CREATE TABLE IF NOT EXISTS public_key_origins (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  origin TEXT NOT NULL,
  PRIMARY KEY (account_id, origin)
) STRICT, WITHOUT ROWID;
`;

interface AccountRow {
  id: string;
  plan: string;
  balance_micros: number;
  created_at_ms: number;
}

export interface SqliteAccountsStoreOptions {
  /** How long a writer waits for another process's write lock before failing, ms. Default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * How long a key row read from the database is reused, ms of real time (key-cache.ts).
   * Bounds how long a key revoked by ANOTHER process (or store instance) keeps working here.
   * Default 250; 0 reads the database on every request.
   */
  readonly keyCacheTtlMs?: number;
  /** Real elapsed time for the key cache, ms (default `performance.now`); tests drive it by hand. */
  readonly monotonicClock?: () => number;
  /**
   * Run the charges in a worker thread (default true for a file; always false for ':memory:',
   * whose database only its own connection can see).
   */
  readonly ledgerThread?: boolean;
  /** The rate counters' file. Default: the accounts file's path + `-rates`; ':memory:' keeps them in the one database. */
  readonly ratesPath?: string;
}

// kept importable from here (their home is the store-neutral modules)
export { AccountsDatabaseError } from './accounts-store.js';
export { DEFAULT_KEY_CACHE_TTL_MS } from './key-cache.js';

export class SqliteAccountsStore implements AccountsStore {
  readonly db: SqliteDatabase;
  /** The rate counters' connection (its own file, `synchronous=NORMAL`), or `db` for ':memory:'. */
  private readonly ratesDb: SqliteDatabase;
  private readonly ledgerThread: LedgerThread | undefined;
  private readonly keyCache: KeyCache;
  /** Balances as last seen by this store (advisory: see precheckBalance). */
  private readonly mirror = new BalanceMirror();
  private readonly charges: TurnBatcher<LedgerCharge, ChargeResult>;
  private readonly rates: TurnBatcher<RateRequest, RateDecision>;
  /** Refunds on this thread (':memory:', or ledgerThread false); a file store's run in the ledger worker. */
  private readonly refundHere: ((request: RefundRequest) => RefundResult) | undefined;
  /** Refunds not yet settled: close() waits for them. */
  private readonly refunding = new PendingWork();
  private readonly stmt: {
    insertAccount: Statement;
    getAccount: Statement<[string], AccountRow>;
    insertKey: Statement;
    findKey: Statement<[Buffer], { digest: Buffer; account_id: string; kind: string; plan: string; expires_at_ms: number | null }>;
    expireKeys: Statement;
    credit: Statement<[number, string], { balance_micros: number }>;
    balance: Statement<[string], { balance_micros: number }>;
    insertLedger: Statement;
    usageAll: Statement<[string], { kind: string; requests: number; cost: number }>;
    usageRange: Statement<[string, number, number], { kind: string; requests: number; cost: number }>;
    origins: Statement<[string], { origin: string }>;
    clearOrigins: Statement;
    insertOrigin: Statement;
  };

  /** Opens (creating if needed) the database at `path`; `':memory:'` for a throwaway store. */
  constructor(path: string, options: SqliteAccountsStoreOptions = {}) {
    // better-sqlite3 itself missing: MissingDatabaseClientError, thrown as it is
    sqliteDatabaseClass();
    let opened: SqliteDatabase | undefined;
    try {
      opened = openSqliteFile(path);
      opened.pragma('journal_mode = WAL');
      opened.pragma('synchronous = FULL');
      opened.pragma('foreign_keys = ON');
      opened.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
      opened.exec(SCHEMA);
      // SQLite silently opens a file it may not write (read-only mount, immutable file) read-only,
      // and every request would then fail at its first write; a write that changes nothing finds out now.
      opened.prepare('DELETE FROM rate_counters WHERE 0').run();
    } catch (err) {
      opened?.close();
      // The first `new Database` loads better-sqlite3's binary: a missing one is named as such, with the fix.
      throw new AccountsDatabaseError(path, sqliteNativeModuleError(err) ?? err);
    }
    this.db = opened;
    const db = this.db;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    const inMemory = path === ':memory:' || path === '';
    // ':memory:' databases are private to a connection: counters and charges stay on this one
    if (inMemory) {
      this.ratesDb = db;
    } else {
      const ratesPath = options.ratesPath ?? rateCountersPath(path);
      try {
        this.ratesDb = openRateCounters(ratesPath, busyTimeoutMs);
      } catch (err) {
        db.close();
        throw new AccountsDatabaseError(ratesPath, err);
      }
      adoptLegacyCounters(db, this.ratesDb);
    }
    this.ledgerThread = !inMemory && options.ledgerThread !== false ? new LedgerThread(path, busyTimeoutMs) : undefined;
    this.stmt = {
      insertAccount: db.prepare('INSERT INTO accounts (id, plan, balance_micros, created_at_ms) VALUES (?, ?, ?, ?)'),
      getAccount: db.prepare('SELECT id, plan, balance_micros, created_at_ms FROM accounts WHERE id = ?'),
      insertKey: db.prepare('INSERT INTO api_keys (digest, account_id, kind, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, NULL)'),
      findKey: db.prepare(
        `SELECT k.digest, k.account_id, k.kind, a.plan, k.expires_at_ms FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.digest = ?`,
      ),
      // only ever brings an expiry forward: a key already on a shorter grace keeps it
      expireKeys: db.prepare(
        `UPDATE api_keys SET expires_at_ms = ? WHERE account_id = ? AND kind = ?
         AND (expires_at_ms IS NULL OR expires_at_ms > ?)`,
      ),
      credit: db.prepare('UPDATE accounts SET balance_micros = balance_micros + ? WHERE id = ? RETURNING balance_micros'),
      balance: db.prepare('SELECT balance_micros FROM accounts WHERE id = ?'),
      insertLedger: db.prepare(
        'INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      usageAll: db.prepare(
        `SELECT kind, COUNT(*) AS requests, -SUM(amount_micros) AS cost FROM ledger c
         WHERE account_id = ? AND amount_micros < 0 AND ${NOT_REFUNDED} GROUP BY kind`,
      ),
      usageRange: db.prepare(
        `SELECT kind, COUNT(*) AS requests, -SUM(amount_micros) AS cost FROM ledger c
         WHERE account_id = ? AND amount_micros < 0 AND at_ms >= ? AND at_ms < ? AND ${NOT_REFUNDED} GROUP BY kind`,
      ),
      origins: db.prepare('SELECT origin FROM public_key_origins WHERE account_id = ? ORDER BY origin'),
      clearOrigins: db.prepare('DELETE FROM public_key_origins WHERE account_id = ?'),
      insertOrigin: db.prepare('INSERT OR IGNORE INTO public_key_origins (account_id, origin) VALUES (?, ?)'),
    };
    this.keyCache = new KeyCache(options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS, undefined, options.monotonicClock);
    const thread = this.ledgerThread;
    // on this thread (':memory:', or ledgerThread false) the connection's own busy_timeout is the wait
    const onThisThread = thread === undefined ? prepareChargeBatch(db) : undefined;
    this.refundHere = thread === undefined ? prepareRefund(db) : undefined;
    const chargeBatch = (charges: readonly LedgerCharge[]) => onThisThread?.(charges.map((c) => c.request)) ?? thread!.charge(charges);
    this.charges = new TurnBatcher((charges) => {
      const mirror = (results: readonly ChargeResult[]) => {
        charges.forEach((c, i) => this.mirror.afterCharge(c.request.accountId, results[i]!));
        return results;
      };
      const results = chargeBatch(charges);
      return results instanceof Promise ? results.then(mirror) : mirror(results);
    });
    // A file's counters are written with the event loop free while another process holds its
    // write lock (busy-retry.ts): the connection waits for nothing itself from here on (it did
    // while it was opened, beside other workers opening theirs). ':memory:' is this connection's alone.
    if (inMemory) this.rates = new TurnBatcher(prepareRateBatch(this.ratesDb));
    else {
      this.ratesDb.pragma('busy_timeout = 0');
      this.rates = new TurnBatcher(retryWhileBusy(prepareRateBatch(this.ratesDb), busyTimeoutMs));
    }
  }

  async insertAccount(input: {
    readonly id: string;
    readonly plan: PlanName;
    readonly createdAtMs: number;
    readonly openingCreditMicros: number;
    readonly keys: readonly NewKeyDigest[];
  }): Promise<AccountRecord> {
    this.db
      .transaction(() => {
        this.stmt.insertAccount.run(input.id, input.plan, input.openingCreditMicros, input.createdAtMs);
        this.stmt.insertLedger.run(input.id, `open:${input.id}`, 'credit', input.openingCreditMicros, input.openingCreditMicros, input.createdAtMs);
        for (const key of input.keys) this.stmt.insertKey.run(Buffer.from(key.digest), input.id, key.kind, input.createdAtMs);
      })
      .immediate();
    this.keyCache.clear();
    this.mirror.set(input.id, input.openingCreditMicros);
    return { id: input.id, plan: input.plan, balanceMicros: input.openingCreditMicros, createdAtMs: input.createdAtMs };
  }

  async getAccount(accountId: string): Promise<AccountRecord | undefined> {
    const row = this.stmt.getAccount.get(accountId);
    return row === undefined ? undefined : toAccount(row);
  }

  findKey(digest: Uint8Array, nowMs: number): Promise<KeyPrincipal | undefined> {
    return lookupKey(this.keyCache, digest, nowMs, (presented) => {
      const row = this.stmt.findKey.get(presented);
      if (row === undefined || !isPlanName(row.plan)) return undefined;
      return { principal: { accountId: row.account_id, plan: row.plan, keyKind: row.kind as KeyKind }, digest: row.digest, expiresAtMs: row.expires_at_ms };
    });
  }

  async rotateKeys(
    accountId: string,
    keys: readonly NewKeyDigest[],
    options: { readonly nowMs: number; readonly graceMs: number },
  ): Promise<void> {
    this.db
      .transaction(() => {
        if (this.stmt.getAccount.get(accountId) === undefined) throw new RangeError(`no account ${JSON.stringify(accountId)}`);
        const kinds = new Set(keys.map((k) => k.kind));
        const expiresAt = replacedKeysExpireAtMs(options.nowMs, options.graceMs);
        for (const kind of kinds) {
          this.stmt.expireKeys.run(expiresAt, accountId, kind, expiresAt);
        }
        for (const key of keys) this.stmt.insertKey.run(Buffer.from(key.digest), accountId, key.kind, options.nowMs);
      })
      .immediate();
    this.keyCache.clear();
  }

  /** Queues the request for the turn's rate transaction; settles once its count is committed. */
  consumeRate(accountId: string, windows: readonly RateWindow[], nowMs: number, clock?: () => number): Promise<RateDecision> {
    return this.rates.submit({ accountId, windows, nowMs, ...(clock !== undefined && { clock }) });
  }

  async balanceMicros(accountId: string): Promise<number | undefined> {
    const balance = this.stmt.balance.get(accountId)?.balance_micros;
    if (balance !== undefined) this.mirror.set(accountId, balance);
    return balance;
  }

  precheckBalance(accountId: string, costMicros: number): Promise<BalancePrecheck> {
    // absent or "too low": the database decides, so a top-up made elsewhere is seen at once
    return this.mirror.precheck(accountId, costMicros, (id) => this.balanceMicros(id));
  }

  /**
   * Queues the charge for the turn's group commit; settles once the commit is durable. While
   * the file's write lock is held elsewhere, `deliverable` is asked between waits (ledger-thread.ts).
   */
  charge(request: ChargeRequest, options: ChargeOptions = {}): Promise<ChargeResult> {
    if (!Number.isSafeInteger(request.costMicros) || request.costMicros <= 0) {
      return Promise.reject(new RangeError(`costMicros must be a positive integer; got ${request.costMicros}`));
    }
    return this.charges.submit(options.deliverable === undefined ? { request } : { request, deliverable: options.deliverable });
  }

  /** Runs after the charges already sent to the ledger worker (or on this thread, for ':memory:'). */
  refund(request: RefundRequest): Promise<RefundResult> {
    return this.refunding.track(
      (async () => {
        const result = this.refundHere?.(request) ?? (await this.ledgerThread!.refund(request));
        if (result.refunded) this.mirror.set(request.accountId, result.balanceMicros);
        return result;
      })(),
    );
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async topUp(accountId: string, amountMicros: number, nowMs: number): Promise<number> {
    if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0) {
      throw new RangeError(`amountMicros must be a positive integer; got ${amountMicros}`);
    }
    const balance = this.db
      .transaction(() => {
        const row = this.stmt.credit.get(amountMicros, accountId);
        if (row === undefined) throw new RangeError(`no account ${JSON.stringify(accountId)}`);
        // thrown inside the transaction: the credit rolls back
        if (row.balance_micros > MAX_BALANCE_MICROS) throw balanceLimitError(accountId, amountMicros);
        this.stmt.insertLedger.run(accountId, `topup:${randomUUID()}`, 'topup', amountMicros, row.balance_micros, nowMs);
        return row.balance_micros;
      })
      .immediate();
    this.mirror.set(accountId, balance);
    return balance;
  }

  async usage(accountId: string, range?: TimeRange): Promise<Usage> {
    const rows = range === undefined ? this.stmt.usageAll.all(accountId) : this.stmt.usageRange.all(accountId, range.fromMs, range.toMs);
    const usage = Object.fromEntries(BILLABLE_KINDS.map((k) => [k, { requests: 0, costMicros: 0 }])) as Record<BillableKind, UsageEntry>;
    for (const row of rows) {
      if ((BILLABLE_KINDS as readonly string[]).includes(row.kind)) {
        usage[row.kind as BillableKind] = { requests: row.requests, costMicros: row.cost };
      }
    }
    return usage;
  }

  async allowedOrigins(accountId: string): Promise<readonly string[]> {
    return this.stmt.origins.all(accountId).map((row) => row.origin);
  }

  async setAllowedOrigins(accountId: string, origins: readonly string[]): Promise<void> {
    this.db
      .transaction(() => {
        if (this.stmt.getAccount.get(accountId) === undefined) throw new RangeError(`no account ${JSON.stringify(accountId)}`);
        this.stmt.clearOrigins.run(accountId);
        for (const origin of origins) this.stmt.insertOrigin.run(accountId, origin);
      })
      .immediate();
  }

  async close(): Promise<void> {
    await this.rates.drain();
    await this.charges.drain();
    await this.refunding.settled();
    await this.ledgerThread?.close();
    if (this.ratesDb !== this.db && this.ratesDb.open) this.ratesDb.close();
    if (this.db.open) this.db.close();
  }
}

/**
 * Rate counters used to live in the accounts file; a rates file that is still empty takes
 * them over once, so an upgrade keeps the day's counts.
 */
function adoptLegacyCounters(db: SqliteDatabase, ratesDb: SqliteDatabase): void {
  if ((ratesDb.prepare('SELECT COUNT(*) AS n FROM rate_counters').get() as { n: number }).n > 0) return;
  const rows = db.prepare('SELECT account_id, window, window_start_ms, count FROM rate_counters').all() as Record<string, unknown>[];
  if (rows.length === 0) return;
  const put = ratesDb.prepare('INSERT OR IGNORE INTO rate_counters (account_id, window, window_start_ms, count) VALUES (@account_id, @window, @window_start_ms, @count)');
  ratesDb.transaction(() => {
    for (const row of rows) put.run(row);
  }).immediate();
}

function toAccount(row: AccountRow): AccountRecord {
  if (!isPlanName(row.plan)) throw new RangeError(`account ${row.id} has an unknown plan ${JSON.stringify(row.plan)}`);
  return { id: row.id, plan: row.plan, balanceMicros: row.balance_micros, createdAtMs: row.created_at_ms };
}
