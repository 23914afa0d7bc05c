/**
 * The accounts store: accounts, hashed keys, rate counters and the money ledger behind one
 * interface, so the embedded SQLite store can be swapped for a server database. Every method
 * is async so a networked implementation fits; correctness never relies on two calls running
 * back to back: each method that changes state is one atomic transaction in the store.
 *
 * Ledger invariant: an account's balance always equals the sum of its ledger amounts
 * (credits positive, charges negative), and never goes below zero.
 */
import type { KeyKind } from './keys.js';
import type { BillableKind, PlanName, RateWindow } from './plans.js';
import type { RateDecision } from './rate-limit.js';

export interface AccountRecord {
  readonly id: string;
  readonly plan: PlanName;
  readonly balanceMicros: number;
  readonly createdAtMs: number;
}

/** Who a presented key belongs to. */
export interface KeyPrincipal {
  readonly accountId: string;
  readonly plan: PlanName;
  readonly keyKind: KeyKind;
}

/** A key to store: its SHA-256 digest only, never the key itself. */
export interface NewKeyDigest {
  readonly kind: KeyKind;
  readonly digest: Uint8Array;
}

export interface ChargeRequest {
  readonly accountId: string;
  /** Unique per HTTP request; the ledger refuses a second charge under the same id. */
  readonly requestId: string;
  readonly kind: BillableKind;
  readonly costMicros: number;
  readonly nowMs: number;
  /**
   * The last instant (ms since the epoch, the service's clock) the charge may be made: after
   * it the answer can no longer be delivered (the connection is closed), so the charge is
   * not made (`too_late`) however long the database took to get to it. Absent: no deadline.
   */
  readonly deadlineMs?: number;
}

export type ChargeResult =
  | { readonly charged: true; readonly balanceMicros: number }
  | { readonly charged: false; readonly reason: 'insufficient_balance' | 'duplicate_request' | 'unknown_account' | 'too_late'; readonly balanceMicros: number }
  /** Not attempted: the client left while the charge waited for the database (ChargeOptions.deliverable); the balance was not read. */
  | { readonly charged: false; readonly reason: 'client_gone'; readonly balanceMicros?: undefined };

/**
 * Gives back the charge of a request whose answer could not be written at all: its client's
 * connection was found closed once the charge had committed, before any byte of the answer
 * was written (src/http/billing.ts). `requestId` is the charged request's.
 */
export interface RefundRequest {
  readonly accountId: string;
  readonly requestId: string;
  readonly nowMs: number;
}

export type RefundResult =
  /** One ledger row `refund:<requestId>` (kind `refund`) credits the charge's cost back. */
  | { readonly refunded: true; readonly amountMicros: number; readonly balanceMicros: number }
  /** Nothing written: the account has no charge under `requestId`, or it has been refunded already. */
  | { readonly refunded: false; readonly reason: 'not_charged' | 'already_refunded' };

/** How a refund's ledger row id begins: the refunded request's id follows. */
export const REFUND_ROW_PREFIX = 'refund:';

/** The ledger row id of the refund of request `requestId`'s charge (UNIQUE like every request id: at most one refund per charge). */
export function refundRowId(requestId: string): string {
  return `${REFUND_ROW_PREFIX}${requestId}`;
}

/**
 * The SQL condition, in both stores' dialect, that the ledger's charge row `c` has no refund
 * row (refundRowId; an index probe on the UNIQUE request_id): how usage leaves refunds out.
 */
export const NOT_REFUNDED = `NOT EXISTS (SELECT 1 FROM ledger r WHERE r.request_id = '${REFUND_ROW_PREFIX}' || c.request_id)`;

export interface ChargeOptions {
  /**
   * Whether the answer can still reach the client. A store that waits for the database (the
   * SQLite file's write lock held elsewhere) asks it between waits and does not charge a
   * request whose client has gone (`client_gone`); a store may also never ask it.
   */
  readonly deliverable?: () => boolean;
}

export interface BalancePrecheck {
  readonly covers: boolean;
  readonly balanceMicros: number;
}

export interface UsageEntry {
  readonly requests: number;
  readonly costMicros: number;
}
export type Usage = Readonly<Record<BillableKind, UsageEntry>>;

/** A half-open time range `[fromMs, toMs)`, ms since the epoch. */
export interface TimeRange {
  readonly fromMs: number;
  readonly toMs: number;
}

export interface AccountsStore {
  /** Creates the account with its opening credit (a ledger row) and its first keys. */
  insertAccount(input: {
    readonly id: string;
    readonly plan: PlanName;
    readonly createdAtMs: number;
    readonly openingCreditMicros: number;
    readonly keys: readonly NewKeyDigest[];
  }): Promise<AccountRecord>;
  getAccount(accountId: string): Promise<AccountRecord | undefined>;
  /** The principal for a key digest that is current, or still inside its rotation grace period. */
  findKey(digest: Uint8Array, nowMs: number): Promise<KeyPrincipal | undefined>;
  /**
   * Adds new keys; the account's existing unexpired keys of the same kinds stop working at
   * replacedKeysExpireAtMs(nowMs, graceMs) (a grace of 0 ends them now, on every clock).
   */
  rotateKeys(accountId: string, keys: readonly NewKeyDigest[], options: { readonly nowMs: number; readonly graceMs: number }): Promise<void>;
  /**
   * Counts one request against the windows, atomically (see rate-limit.ts for the rules), at
   * `nowMs`; a store whose decision can wait for the database (PostgreSQL: a row lock, a
   * pooler's queue; SQLite: the rates file's write lock) reads `clock` again once the counters
   * are locked and decides at the later of the two instants (RateDecision.atMs).
   */
  consumeRate(accountId: string, windows: readonly RateWindow[], nowMs: number, clock?: () => number): Promise<RateDecision>;
  /** Current balance, or undefined for an unknown account. */
  balanceMicros(accountId: string): Promise<number | undefined>;
  /**
   * The advisory check before a billable request is served: may the balance cover
   * `costMicros`? It may answer `covers: true` from an out-of-date (higher) view, since
   * `charge` is the single point of decision and refuses what the balance cannot pay; it
   * answers `covers: false` only when the current balance really cannot cover the cost
   * (`balanceMicros` is then that balance, 0 for an unknown account).
   */
  precheckBalance(accountId: string, costMicros: number): Promise<BalancePrecheck>;
  /** Debits `costMicros` and writes one ledger row, atomically, only if the balance covers it. */
  charge(request: ChargeRequest, options?: ChargeOptions): Promise<ChargeResult>;
  /**
   * Credits back the charge of `request.requestId` and writes one ledger row for it
   * (refundRowId), atomically, at most once; see RefundRequest. A refunded request no longer
   * counts in `usage`.
   */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Asks the database something trivial; resolves once it answers (a readiness probe: GET /v1/health). */
  ping(): Promise<void>;
  /** Credits the account (operator top-up); returns the new balance. */
  topUp(accountId: string, amountMicros: number, nowMs: number): Promise<number>;
  /** Charged requests and their cost by kind (refunded ones left out), over `range` or since the account opened. */
  usage(accountId: string, range?: TimeRange): Promise<Usage>;
  /**
   * Origins (`scheme://host[:port]`, normalised by origins.ts) allowed to use the account's
   * public key from a browser; empty means any origin. See docs/widget.md.
   */
  allowedOrigins(accountId: string): Promise<readonly string[]>;
  /** Replaces the allowed origins (an empty list allows any); RangeError for an unknown account. */
  setAllowedOrigins(accountId: string, origins: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * A charge whose outcome the database could not confirm: the connection broke after the
 * statement was sent, and the ledger could not be read afterwards. The request may have been
 * charged (its ledger row then holds `requestId`); the answer is not sent. Its message names
 * the request; why the database could not confirm is its `cause`.
 */
export class ChargeOutcomeUnknownError extends Error {
  override readonly name = 'ChargeOutcomeUnknownError';
  constructor(
    readonly requestId: string,
    cause: unknown,
  ) {
    // the cause is attached, not copied into the message: the log's error serializer (pino's)
    // appends ": <cause's message>" itself, and said it twice (audit 67a F7)
    super(`the charge of request ${requestId} may have committed`, { cause });
  }
}

/** The accounts database cannot be opened, or not for writing (message names it and the cause). */
export class AccountsDatabaseError extends Error {
  override readonly name = 'AccountsDatabaseError';
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot open the accounts database ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
