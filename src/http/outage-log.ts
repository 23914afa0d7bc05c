import type { FastifyBaseLogger } from 'fastify';

/**
 * The request log's lines while the accounts database is out of reach: one warning when it
 * starts failing, then at most one per INTERVAL_MS counting the requests refused meanwhile,
 * instead of an error with a stack trace per request (audit 61c: 238 MB of the same
 * ECONNREFUSED in 40 s). `now`: ms, monotonic enough for spacing lines.
 */
export class OutageLog {
  static readonly INTERVAL_MS = 10_000;
  private lastAt = Number.NEGATIVE_INFINITY;
  private refused = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** One request refused because the accounts database is out of reach (`err`: why). */
  refusedOne(log: FastifyBaseLogger, err: unknown): void {
    this.refused++;
    const at = this.now();
    if (at - this.lastAt < OutageLog.INTERVAL_MS) return;
    const cause = err instanceof Error ? err.message : String(err);
    log.warn({ refused: this.refused, cause }, `accounts database out of reach: ${this.refused} request${this.refused === 1 ? '' : 's'} refused with 503 since the last such line (${cause})`);
    this.lastAt = at;
    this.refused = 0;
  }
}
