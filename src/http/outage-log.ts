import type { FastifyBaseLogger } from 'fastify';

/**
 * The request log's lines while the accounts database is out of reach: one warning when it
 * starts failing, then at most one per INTERVAL_MS counting the requests refused meanwhile,
 * instead of an error with a stack trace per request (audit 61c: 238 MB of the same
 * ECONNREFUSED in 40 s), and one when it answers again, counting the refusals after the last
 * line. Invariant: the `refused` counts of an outage's lines sum to its 503s (until
 * 2026-11-30 the refusals after the last line went unlogged, or into the next outage's first
 * line: audit 64b 2). `now`: ms, monotonic enough for spacing lines.
 */
export class OutageLog {
  static readonly INTERVAL_MS = 10_000;
  private lastAt = Number.NEGATIVE_INFINITY;
  private refused = 0;
  /** Whether a refusal was logged or counted since the database last answered. */
  private down = false;
  private cause = '';

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** One request refused because the accounts database is out of reach (`err`: why). */
  refusedOne(log: FastifyBaseLogger, err: unknown): void {
    this.refused++;
    this.down = true;
    this.cause = err instanceof Error ? err.message : String(err);
    const at = this.now();
    if (at - this.lastAt < OutageLog.INTERVAL_MS) return;
    log.warn({ refused: this.refused, cause: this.cause }, `accounts database out of reach: ${this.refusedText()} since the last such line (${this.cause})`);
    this.lastAt = at;
    this.refused = 0;
  }

  /** A request the accounts database answered: ends an outage with its last count. Cheap when there is none. */
  answered(log: FastifyBaseLogger): void {
    if (!this.down) return;
    log.warn({ refused: this.refused, cause: this.cause }, `accounts database reachable again: ${this.refusedText()} since the last such line (the last cause: ${this.cause})`);
    this.down = false;
    this.refused = 0;
    this.lastAt = Number.NEGATIVE_INFINITY; // the next outage's first refusal is logged at once
  }

  private refusedText(): string {
    return `${this.refused} request${this.refused === 1 ? '' : 's'} refused with 503`;
  }
}
