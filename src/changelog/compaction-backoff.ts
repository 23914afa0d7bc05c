/**
 * When the threshold (`--compact-after`) may start a compaction again after one failed
 * (docs/updates.md, "Compaction"; audit 65d F4). A failed compaction (a full disk, most often)
 * is expensive to repeat: the fold and the base's write, about 2 s of worker CPU and 160 MB
 * at 1M venues. Before, every accepted batch while `pendingChanges` stayed at or above the
 * threshold started one again. Now, after a failure, the threshold starts none until a wait
 * has passed: 30 s after the first failure in a row, doubled after each further one, at most
 * 10 min; then at the first change after it. A compaction that succeeds ends the series.
 * `POST /admin/compact` is not held back (it tries at once); its failure counts in the series.
 * Times are the injected clock's (ms since the epoch).
 */

/** The wait after the first failed compaction of a series (ms). */
export const FIRST_RETRY_WAIT_MS = 30_000;
/** The longest wait between two automatic tries (ms). */
export const LONGEST_RETRY_WAIT_MS = 600_000;

/** When the threshold may start the next compaction, said after a failure. */
export interface NextAutomaticCompaction {
  /** Not before this time (ms since the epoch, the injected clock's). */
  readonly at: number;
  /** How long from the failure (ms). */
  readonly waitMs: number;
  /** One clause for the operator's log: when, and that a request is not held back. */
  readonly note: string;
}

export class CompactionBackoff {
  /** The wait the next failure sets (ms). */
  private nextWaitMs = FIRST_RETRY_WAIT_MS;
  /** No automatic compaction before this time (ms since the epoch; 0: none held back). */
  private notBefore = 0;

  /** Whether the threshold may start a compaction at `now`. */
  allows(now: number): boolean {
    return now >= this.notBefore;
  }

  /** A compaction failed at `now`: the next automatic one waits, twice as long as the last wait (at most {@link LONGEST_RETRY_WAIT_MS}). */
  failed(now: number): NextAutomaticCompaction {
    const waitMs = this.nextWaitMs;
    this.notBefore = now + waitMs;
    this.nextWaitMs = Math.min(waitMs * 2, LONGEST_RETRY_WAIT_MS);
    const note = `the next automatic compaction is not before ${new Date(this.notBefore).toISOString()} (in ${waitMs / 1000} s), at the first change after that; POST /admin/compact tries at once`;
    return { at: this.notBefore, waitMs, note };
  }

  /** A compaction succeeded: the next failure waits {@link FIRST_RETRY_WAIT_MS} again. */
  succeeded(): void {
    this.nextWaitMs = FIRST_RETRY_WAIT_MS;
    this.notBefore = 0;
  }
}
