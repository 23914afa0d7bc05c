/**
 * Writes a store has started outside its batches (refunds), so that close() waits for them:
 * a refund started as its client's connection closed must not be cut off by a shutdown that
 * follows (the ledger worker or the pool closed under it). One class for every store.
 */
export class PendingWrites {
  private readonly pending = new Set<Promise<void>>();

  /** Returns `write` itself; until it settles (either way), `settled()` waits for it. */
  track<T>(write: Promise<T>): Promise<T> {
    const settled = write.then(
      () => {},
      () => {},
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return write;
  }

  /** Resolves once every write tracked so far has settled. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }
}
