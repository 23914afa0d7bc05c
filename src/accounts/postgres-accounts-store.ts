/**
 * The accounts store on a PostgreSQL server (`serve --db postgres://...`), for many service
 * processes on one or many machines. Same interface and guarantees as the SQLite store:
 *
 * - Charge exactly once, only if covered: ONE statement debits `WHERE balance_micros >= cost`
 *   and inserts the ledger row (`request_id` UNIQUE) from the debit's RETURNING, so both
 *   happen or neither does. Concurrent charges of one account serialise on its row lock; READ
 *   COMMITTED re-checks the condition on the locked row, so the balance never goes below zero
 *   and K credits pay for exactly K requests, whichever process sends them.
 * - Durable: `synchronous_commit = on`, set by each charge's statement and each other write's
 *   transaction (also through a pooler, whatever the server's setting): a charge is answered
 *   only after its commit is flushed to the WAL. The server group-commits
 *   concurrent transactions itself; a pool of connections gives it the concurrency.
 * - Rate windows exact across processes: per request one transaction locks the account's
 *   counter rows (`FOR UPDATE`, created if missing), decides with rate-limit.ts at the clock
 *   read once they are locked, and writes them back. Counters are written with `synchronous_commit = off`, as the SQLite store's
 *   `synchronous=NORMAL`: a server crash may lose the last increments, in the client's favour.
 * - Key rotation seen by every process within the key cache's TTL (250 ms), as for SQLite.
 * - Money is BIGINT micro-pounds, read back as JS numbers (exact below 2^53 micros, 9 billion GBP).
 *
 * Migrations (postgres-migrations.ts) run at open, under an advisory lock, so processes
 * starting together apply each migration once.
 */
import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { pgModule } from './pg-client.js';
import {
  AccountsDatabaseError,
  ChargeOutcomeUnknownError,
  NOT_REFUNDED,
  refundRowId,
  type AccountRecord,
  type AccountsStore,
  type BalancePrecheck,
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
import { migratePostgres } from './postgres-migrations.js';
import { decideRate, type ClockLead, type RateDecision } from './rate-limit.js';
import { databaseUrlProblem, redactUrl } from './database-url.js';
import { isAccountsUnavailable, ServerWaitTimeoutError } from './accounts-unavailable.js';
import { SERVER_WAIT_MS, withinServerWait } from './pg-server-wait.js';
import { PendingWork } from '../pending-work.js';

export interface PostgresAccountsStoreOptions {
  /** Most connections this process opens. Default 10. */
  readonly maxConnections?: number;
  /** As SqliteAccountsStoreOptions.keyCacheTtlMs: default 250 ms, 0 reads the database every time. */
  readonly keyCacheTtlMs?: number;
  readonly monotonicClock?: () => number;
}

const INT8_OID = 20;

/** BIGINT columns as numbers: every amount and time here is an integer below 2^53. */
function typeParsers(client: typeof pg): { getTypeParser: typeof pg.types.getTypeParser } {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? (text: string) => Number(text) : client.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
}

interface AccountRow {
  id: string;
  plan: string;
  balance_micros: number;
  created_at_ms: number;
}

const UNIQUE_VIOLATION = '23505';
/** A connection pooler's refusal of the startup `options` parameter (PgBouncer: "unsupported startup parameter: options"). */
const STARTUP_OPTIONS_REFUSED = /unsupported startup parameter.*options/i;
/**
 * The refusals of a server that asked for a password when none was given: pg's own SCRAM
 * error (`SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string`) and the
 * server's `password authentication failed` (md5, cleartext).
 */
const PASSWORD_REFUSED = /client password must be a (?:non-empty )?string|password authentication failed/;

/**
 * `err`, or, when it is a password refusal and no password was given (none in the URL, no
 * PGPASSWORD), an error that says so and what to do (audit 63b F8: the driver's SASL text
 * told an operator nothing). It names the user, never a password (there is none to name).
 */
function withPasswordHint(err: unknown, url: string, defaultUser: string | undefined): unknown {
  if (!(err instanceof Error) || !PASSWORD_REFUSED.test(err.message)) return err;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return err;
  }
  if (parsed.password !== '' || (process.env['PGPASSWORD'] ?? '') !== '') return err;
  const user = decodeURIComponent(parsed.username) || process.env['PGUSER'] || defaultUser || '(none)';
  return new Error(`no password for user ${user}: set PGPASSWORD in the service's environment (docs/deploy.md), or put it in the URL`, { cause: err });
}

/**
 * How long a broken charge's outcome is sought (its statement may still run on its server
 * process, or the database or pooler may be restarting) before it is called unknown.
 */
const BROKEN_CHARGE_WAIT_MS = 5000;
/** The pause between two attempts to ask a database out of reach about a broken charge. */
const BROKEN_CHARGE_RETRY_MS = 100;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `promise`, or a rejection once `deadline` (ms since the epoch) passes first (`promise` is then left to settle unheard). */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${BROKEN_CHARGE_WAIT_MS} ms`)), Math.max(0, deadline - Date.now()));
  });
  promise.catch(() => {});
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The comment a charge statement's text begins with, naming its request: how a broken
 * connection's statement is found among the server's (pg_stat_activity.query). A request id
 * of other characters than letters, digits and `.:_-` (one a client chose) is named by its
 * SHA-256 instead, so that no text closes the comment.
 */
function chargeTag(requestId: string): string {
  const name = /^[\w.:-]{1,128}$/.test(requestId) ? requestId : createHash('sha256').update(requestId).digest('hex');
  return `/* venue-search charge ${name} */`;
}

export class PostgresAccountsStore implements AccountsStore {
  private readonly keyCache: KeyCache;
  private readonly mirror = new BalanceMirror();
  /** This process's view of clocks ahead of its own, for rate windows (rate-limit.ts). */
  private readonly clockLead: ClockLead = { ms: 0 };
  /** Refunds not yet settled: close() waits for them. */
  private readonly refunding = new PendingWork();

  private constructor(
    /** The connection pool; exposed for tests and operator tools that read the ledger. */
    readonly pool: pg.Pool,
    options: PostgresAccountsStoreOptions,
  ) {
    this.keyCache = new KeyCache(options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS, undefined, options.monotonicClock);
  }

  /**
   * Connects, applies the migrations, and returns the store; AccountsDatabaseError if it cannot.
   * Every connection asks for `synchronous_commit = on` at its start; a connection pooler in
   * transaction mode (PgBouncer) refuses that startup parameter, and the store then connects
   * without it. Either way every charge and every other money or key write sets it on for its
   * own transaction (a start-time check of the server's setting, until 2026-11-30, was made
   * on one pooled connection and said nothing of later changes: audit 64b 4).
   */
  static async open(url: string, options: PostgresAccountsStoreOptions = {}): Promise<PostgresAccountsStore> {
    const unparsable = databaseUrlProblem(url);
    if (unparsable !== null) throw new AccountsDatabaseError(redactUrl(url), new Error(unparsable));
    try {
      return await PostgresAccountsStore.connect(url, options, true);
    } catch (err) {
      if (!(err instanceof AccountsDatabaseError) || !STARTUP_OPTIONS_REFUSED.test(String((err.cause as Error | undefined)?.message))) throw err;
      return await PostgresAccountsStore.connect(url, options, false);
    }
  }

  private static async connect(url: string, options: PostgresAccountsStoreOptions, startupOptions: boolean): Promise<PostgresAccountsStore> {
    // pg itself missing: MissingDatabaseClientError
    const client = pgModule();
    const pool = new client.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      // a new connection (a pooler that holds the login while its server is down, a server that
      // does not answer) or a free one of the pool: past it a request is a 503 "database out of
      // reach" (node-postgres's "timeout exceeded when trying to connect"), as a refused
      // connection is at once, and `serve` fails to start. Until 2026-11-30 there was none:
      // behind a PgBouncer restarted while PostgreSQL was down, keyed requests waited until the
      // HTTP idle timeout (30 s) closed their connection with no answer (audit 66c F3).
      connectionTimeoutMillis: SERVER_WAIT_MS,
      types: typeParsers(client),
      // every transaction's commit waits for its WAL flush unless it says otherwise
      ...(startupOptions ? { options: '-c synchronous_commit=on' } : {}),
    });
    // a connection's error (the server restarting, a network cut) must not crash the process:
    // the query running on it is rejected on its own, and the pool opens a new connection next time
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    try {
      // a server reached first, within the wait (a running pooler whose server is down queues the migrations' statements)
      await withinServerWait(pool, 'SELECT 1');
      await migratePostgres(pool);
    } catch (err) {
      await pool.end().catch(() => {});
      throw new AccountsDatabaseError(redactUrl(url), withPasswordHint(err, url, client.defaults.user));
    }
    return new PostgresAccountsStore(pool, options);
  }

  /**
   * Runs `run` in one transaction whose commit waits for its WAL flush (`durable`, the
   * default: accounts, keys, top-ups) or not (rate counters). Set per transaction, which a
   * pooler in transaction mode passes on, whatever the connection's or database's setting.
   */
  private async transaction<T>(run: (client: pg.PoolClient) => Promise<T>, durable = true): Promise<T> {
    const client = await this.pool.connect();
    // a BEGIN that waited past the server wait leaves the connection unusable (its statement may still be queued): dropped
    let unusable: Error | undefined;
    try {
      await withinServerWait(client, 'BEGIN');
      await client.query(`SET LOCAL synchronous_commit = ${durable ? 'on' : 'off'}`);
      const result = await run(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      if (err instanceof ServerWaitTimeoutError) unusable = err;
      else await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release(unusable);
    }
  }

  async insertAccount(input: {
    readonly id: string;
    readonly plan: PlanName;
    readonly createdAtMs: number;
    readonly openingCreditMicros: number;
    readonly keys: readonly NewKeyDigest[];
  }): Promise<AccountRecord> {
    await this.transaction(async (c) => {
      await c.query('INSERT INTO accounts (id, plan, balance_micros, created_at_ms) VALUES ($1, $2, $3, $4)', [
        input.id,
        input.plan,
        input.openingCreditMicros,
        input.createdAtMs,
      ]);
      await c.query(
        `INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms) VALUES ($1, $2, 'credit', $3, $3, $4)`,
        [input.id, `open:${input.id}`, input.openingCreditMicros, input.createdAtMs],
      );
      for (const key of input.keys) {
        await c.query('INSERT INTO api_keys (digest, account_id, kind, created_at_ms) VALUES ($1, $2, $3, $4)', [
          Buffer.from(key.digest),
          input.id,
          key.kind,
          input.createdAtMs,
        ]);
      }
    });
    this.keyCache.clear();
    this.mirror.set(input.id, input.openingCreditMicros);
    return { id: input.id, plan: input.plan, balanceMicros: input.openingCreditMicros, createdAtMs: input.createdAtMs };
  }

  async getAccount(accountId: string): Promise<AccountRecord | undefined> {
    const { rows } = await withinServerWait<AccountRow>(this.pool, 'SELECT id, plan, balance_micros, created_at_ms FROM accounts WHERE id = $1', [accountId]);
    const row = rows[0];
    if (row === undefined) return undefined;
    if (!isPlanName(row.plan)) throw new RangeError(`account ${row.id} has an unknown plan ${JSON.stringify(row.plan)}`);
    return { id: row.id, plan: row.plan, balanceMicros: row.balance_micros, createdAtMs: row.created_at_ms };
  }

  findKey(digest: Uint8Array, nowMs: number): Promise<KeyPrincipal | undefined> {
    return lookupKey(this.keyCache, digest, nowMs, async (presented) => {
      const { rows } = await withinServerWait<{ digest: Buffer; account_id: string; kind: string; plan: string; expires_at_ms: number | null }>(
        this.pool,
        'SELECT k.digest, k.account_id, k.kind, a.plan, k.expires_at_ms FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.digest = $1',
        [presented],
      );
      const row = rows[0];
      if (row === undefined || !isPlanName(row.plan)) return undefined;
      return { principal: { accountId: row.account_id, plan: row.plan, keyKind: row.kind as KeyKind }, digest: row.digest, expiresAtMs: row.expires_at_ms };
    });
  }

  async rotateKeys(accountId: string, keys: readonly NewKeyDigest[], options: { readonly nowMs: number; readonly graceMs: number }): Promise<void> {
    await this.transaction(async (c) => {
      const found = await c.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      if (found.rowCount === 0) throw new RangeError(`no account ${JSON.stringify(accountId)}`);
      const expiresAt = replacedKeysExpireAtMs(options.nowMs, options.graceMs);
      for (const kind of new Set(keys.map((k) => k.kind))) {
        // only ever brings an expiry forward: a key already on a shorter grace keeps it
        await c.query('UPDATE api_keys SET expires_at_ms = $1 WHERE account_id = $2 AND kind = $3 AND (expires_at_ms IS NULL OR expires_at_ms > $1)', [
          expiresAt,
          accountId,
          kind,
        ]);
      }
      for (const key of keys) {
        await c.query('INSERT INTO api_keys (digest, account_id, kind, created_at_ms) VALUES ($1, $2, $3, $4)', [
          Buffer.from(key.digest),
          accountId,
          key.kind,
          options.nowMs,
        ]);
      }
    });
    this.keyCache.clear();
  }

  async consumeRate(accountId: string, windows: readonly RateWindow[], nowMs: number, clock?: () => number): Promise<RateDecision> {
    const names = windows.map((w) => w.name);
    return this.transaction(async (c) => {
      // rows first (a no-op when present), then locked: one request of the account at a time decides
      await c.query(
        `INSERT INTO rate_counters (account_id, window_name, window_start_ms, count)
         SELECT $1, name, 0, 0 FROM unnest($2::text[]) AS name ON CONFLICT DO NOTHING`,
        [accountId, names],
      );
      const { rows } = await c.query<{ window_name: string; window_start_ms: number; count: number }>(
        'SELECT window_name, window_start_ms, count FROM rate_counters WHERE account_id = $1 AND window_name = ANY($2::text[]) ORDER BY window_name FOR UPDATE',
        [accountId, names],
      );
      const stored = new Map(rows.map((r) => [r.window_name, { windowStart: r.window_start_ms, count: r.count }]));
      // the clock read again now that the rows are locked: a request that waited for them (or in
      // a pooler's queue through an outage) counts in the window of now, not of its arrival,
      // which may have ended long ago (audit 64b 1: a 429 with Retry-After 5-13 s on a 1 s window)
      const { decision, next } = decideRate(
        windows,
        names.map((n) => stored.get(n)),
        clock === undefined ? nowMs : Math.max(nowMs, clock()),
        this.clockLead,
      );
      if (decision.admitted) {
        await c.query(
          `UPDATE rate_counters AS r SET window_start_ms = u.start, count = u.count
           FROM unnest($2::text[], $3::bigint[], $4::int[]) AS u(name, start, count)
           WHERE r.account_id = $1 AND r.window_name = u.name`,
          [accountId, names, next.map((n) => n.windowStart), next.map((n) => n.count)],
        );
      }
      return decision;
    }, false);
  }

  async balanceMicros(accountId: string): Promise<number | undefined> {
    const { rows } = await withinServerWait<{ balance_micros: number }>(this.pool, 'SELECT balance_micros FROM accounts WHERE id = $1', [accountId]);
    const balance = rows[0]?.balance_micros;
    if (balance !== undefined) this.mirror.set(accountId, balance);
    return balance;
  }

  precheckBalance(accountId: string, costMicros: number): Promise<BalancePrecheck> {
    return this.mirror.precheck(accountId, costMicros, (id) => this.balanceMicros(id));
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (!Number.isSafeInteger(request.costMicros) || request.costMicros <= 0) {
      throw new RangeError(`costMicros must be a positive integer; got ${request.costMicros}`);
    }
    let result: ChargeResult;
    const client = await this.pool.connect();
    // the statement's text begins with this request's tag: if the connection breaks, the
    // statement may still run on the server (waiting for the account's row lock) and commit, so
    // its outcome is read once no server process runs it (settleBrokenCharge)
    const tag = chargeTag(request.requestId);
    let rows: { balance_after_micros: number }[];
    try {
      rows = (
        await client.query<{ balance_after_micros: number }>(
          // The deadline ($6) is compared with the database's clock after the account's row is
          // locked: the inner sub-select locks the row (waiting for another transaction's lock,
          // or run late out of a pooler's queue), the outer one reads the clock from the row it
          // returns (a clock read in the locking select itself is taken before the wait). A
          // statement run too late debits nothing. The two clocks must agree within seconds
          // (docs/deploy.md). The statement's own transaction commits with
          // synchronous_commit = on (set_config(..., true) is SET LOCAL): a debit is made only
          // once every condition held, this one included, so no charge commits without it,
          // whatever the connection's or the database's setting (audit 64b 4: through a pooler).
          `${tag} WITH debit AS (
             UPDATE accounts SET balance_micros = balance_micros - $2
             WHERE id = $1 AND balance_micros >= $2
               AND (SELECT set_config('synchronous_commit', 'on', true)) = 'on'
               AND ($6::float8 IS NULL OR (SELECT clock_timestamp() FROM (SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE) AS locked) <= to_timestamp($6::float8 / 1000))
             RETURNING balance_micros
           )
           INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms)
           SELECT $1, $3, $4, -$2::bigint, balance_micros, $5 FROM debit
           RETURNING balance_after_micros`,
          [request.accountId, request.costMicros, request.requestId, request.kind, request.nowMs, request.deadlineMs ?? null],
        )
      ).rows;
      client.release();
    } catch (err) {
      const duplicate = (err as { code?: string }).code === UNIQUE_VIOLATION;
      // a broken connection is dropped from the pool, never reused
      client.release(duplicate ? undefined : err instanceof Error ? err : true);
      // the UNIQUE request id refused a second charge; the statement (debit included) rolled back
      if (duplicate) result = { charged: false, reason: 'duplicate_request', balanceMicros: (await this.balanceMicros(request.accountId)) ?? 0 };
      // the connection broke (a network cut, a failover): whether the charge committed is learnt from the ledger
      else result = await this.settleBrokenCharge(request, tag, err);
      this.mirror.afterCharge(request.accountId, result);
      return result;
    }
    const row = rows[0];
    if (row !== undefined) {
      result = { charged: true, balanceMicros: row.balance_after_micros };
    } else {
      const balance = await this.balanceMicros(request.accountId);
      result =
        balance === undefined
          ? { charged: false, reason: 'unknown_account', balanceMicros: 0 }
          : request.deadlineMs !== undefined && Date.now() > request.deadlineMs && balance >= request.costMicros
            ? { charged: false, reason: 'too_late', balanceMicros: balance }
            : { charged: false, reason: 'insufficient_balance', balanceMicros: balance };
    }
    this.mirror.afterCharge(request.accountId, result);
    return result;
  }

  /**
   * The outcome of a charge whose connection broke: once no server process runs the charge
   * statement (found by its text's `tag`, so through a connection pooler too, whose process
   * ids are its own: until 2026-11-30 the ledger was then read at once, while the statement
   * still waited for the account's row lock and committed later, and the client was told "not
   * charged": audit 64b 0), its ledger row says whether it committed. Nothing is terminated.
   * Throws ChargeOutcomeUnknownError when the database cannot be asked within
   * BROKEN_CHARGE_WAIT_MS (it is asked again while it is out of reach), or the statement still
   * runs then.
   */
  private async settleBrokenCharge(request: ChargeRequest, tag: string, cause: unknown): Promise<ChargeResult> {
    const deadline = Date.now() + BROKEN_CHARGE_WAIT_MS;
    // the service's role sees its own sessions' statements (pg_stat_activity)
    const running = "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND starts_with(query, $1)";
    // Invariant: the outcome is "unknown" only once the deadline has passed (or the database
    // gave an answer other than "out of reach"). A database or pooler that cannot be reached
    // just now (restarting) is asked again every BROKEN_CHARGE_RETRY_MS until then: until 2026-11-30 the
    // first failed query gave up, and a PgBouncer restart of under a second left charged
    // requests answered 500 "did not confirm" after 25 ms (audit 66c F1).
    for (;;) {
      try {
        while ((await beforeDeadline(this.pool.query(running, [tag]), deadline)).rowCount !== 0) {
          if (Date.now() > deadline) throw new Error(`the charge statement still runs on the server after ${BROKEN_CHARGE_WAIT_MS} ms`);
          await sleep(10);
        }
        const { rows } = await beforeDeadline(
          this.pool.query<{ balance_after_micros: number }>('SELECT balance_after_micros FROM ledger WHERE request_id = $1', [request.requestId]),
          deadline,
        );
        const row = rows[0];
        if (row !== undefined) return { charged: true, balanceMicros: row.balance_after_micros };
        break;
      } catch (err) {
        if (Date.now() + BROKEN_CHARGE_RETRY_MS > deadline || !isAccountsUnavailable(err)) throw new ChargeOutcomeUnknownError(request.requestId, err);
        await sleep(BROKEN_CHARGE_RETRY_MS);
      }
    }
    // not committed: the statement's own error stands (the request fails, uncharged)
    throw cause;
  }

  /**
   * One statement finds the charge, credits its cost back and writes the refund's row; a second
   * refund of the same charge (at once, from another process) is refused by the row's UNIQUE id
   * and rolls back whole.
   */
  refund(request: RefundRequest): Promise<RefundResult> {
    return this.refunding.track(this.refundOnce(request));
  }

  private async refundOnce(request: RefundRequest): Promise<RefundResult> {
    const rowId = refundRowId(request.requestId);
    let rows: { amount_micros: number; balance_after_micros: number }[];
    try {
      rows = await this.transaction(
        async (c) =>
          (
            await c.query<{ amount_micros: number; balance_after_micros: number }>(
              `WITH charge AS (
                 SELECT -amount_micros AS cost FROM ledger WHERE request_id = $2 AND account_id = $1 AND amount_micros < 0
               ), credit AS (
                 UPDATE accounts SET balance_micros = balance_micros + (SELECT cost FROM charge)
                 WHERE id = $1 AND EXISTS (SELECT 1 FROM charge) AND NOT EXISTS (SELECT 1 FROM ledger WHERE request_id = $3)
                 RETURNING balance_micros
               )
               INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms)
               SELECT $1, $3, 'refund', (SELECT cost FROM charge), balance_micros, $4 FROM credit
               RETURNING amount_micros, balance_after_micros`,
              [request.accountId, request.requestId, rowId, request.nowMs],
            )
          ).rows,
      );
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) return { refunded: false, reason: 'already_refunded' };
      throw err;
    }
    const row = rows[0];
    if (row !== undefined) {
      this.mirror.set(request.accountId, row.balance_after_micros);
      return { refunded: true, amountMicros: row.amount_micros, balanceMicros: row.balance_after_micros };
    }
    const { rowCount } = await this.pool.query('SELECT 1 FROM ledger WHERE request_id = $1', [rowId]);
    return { refunded: false, reason: rowCount !== 0 ? 'already_refunded' : 'not_charged' };
  }

  async ping(): Promise<void> {
    await withinServerWait(this.pool, 'SELECT 1');
  }

  async topUp(accountId: string, amountMicros: number, nowMs: number): Promise<number> {
    if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0) {
      throw new RangeError(`amountMicros must be a positive integer; got ${amountMicros}`);
    }
    const balance = await this.transaction(async (c) => {
      const { rows } = await c.query<{ balance_micros: number }>('UPDATE accounts SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING balance_micros', [
        amountMicros,
        accountId,
      ]);
      const row = rows[0];
      if (row === undefined) throw new RangeError(`no account ${JSON.stringify(accountId)}`);
      // thrown inside the transaction: the credit rolls back
      if (row.balance_micros > MAX_BALANCE_MICROS) throw balanceLimitError(accountId, amountMicros);
      await c.query(
        `INSERT INTO ledger (account_id, request_id, kind, amount_micros, balance_after_micros, at_ms) VALUES ($1, $2, 'topup', $3, $4, $5)`,
        [accountId, `topup:${randomUUID()}`, amountMicros, row.balance_micros, nowMs],
      );
      return row.balance_micros;
    });
    this.mirror.set(accountId, balance);
    return balance;
  }

  async usage(accountId: string, range?: TimeRange): Promise<Usage> {
    const { rows } = await this.pool.query<{ kind: string; requests: number; cost: number }>(
      `SELECT kind, COUNT(*)::bigint AS requests, (-SUM(amount_micros))::bigint AS cost FROM ledger c
       WHERE account_id = $1 AND amount_micros < 0 ${range === undefined ? '' : 'AND at_ms >= $2 AND at_ms < $3'} AND ${NOT_REFUNDED} GROUP BY kind`,
      range === undefined ? [accountId] : [accountId, range.fromMs, range.toMs],
    );
    const usage = Object.fromEntries(BILLABLE_KINDS.map((k) => [k, { requests: 0, costMicros: 0 }])) as Record<BillableKind, UsageEntry>;
    for (const row of rows) {
      if ((BILLABLE_KINDS as readonly string[]).includes(row.kind)) usage[row.kind as BillableKind] = { requests: row.requests, costMicros: row.cost };
    }
    return usage;
  }

  async allowedOrigins(accountId: string): Promise<readonly string[]> {
    const { rows } = await this.pool.query<{ origin: string }>('SELECT origin FROM public_key_origins WHERE account_id = $1 ORDER BY origin', [accountId]);
    return rows.map((r) => r.origin);
  }

  async setAllowedOrigins(accountId: string, origins: readonly string[]): Promise<void> {
    await this.transaction(async (c) => {
      const found = await c.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      if (found.rowCount === 0) throw new RangeError(`no account ${JSON.stringify(accountId)}`);
      await c.query('DELETE FROM public_key_origins WHERE account_id = $1', [accountId]);
      for (const origin of origins) {
        await c.query('INSERT INTO public_key_origins (account_id, origin) VALUES ($1, $2) ON CONFLICT DO NOTHING', [accountId, origin]);
      }
    });
  }

  async close(): Promise<void> {
    await this.refunding.settled();
    await this.pool.end();
  }
}
