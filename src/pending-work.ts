/**
 * Work started outside the reach of a close, that the close must wait for: a store's refunds
 * started outside its batches (the ledger worker or the pool must not close under them), and
 * the HTTP service's request handlers, which go on after their client has gone (a charge
 * committing, then its refund) while the server, no longer holding that connection, has
 * closed (the accounts store must not close under them: audit 72a F2).
 */
export class PendingWork {
  private readonly pending = new Set<Promise<void>>();

  /** Returns `work` itself; until it settles (either way), `settled()` waits for it. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => {},
      () => {},
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return work;
  }

  /**
   * Resolves once no tracked work is left: work tracked while it waits (a handler whose guard
   * settled moments before; a refund its charge started) is waited for too. Each round ends
   * with one turn of the event loop, for work that starts at the next I/O event or immediate.
   */
  async settled(): Promise<void> {
    for (;;) {
      await Promise.all(this.pending);
      await new Promise(setImmediate);
      if (this.pending.size === 0) return;
    }
  }
}
