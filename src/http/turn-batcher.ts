/**
 * Group work by event-loop turn: every `submit` made during one turn of the event loop is
 * queued, and at the turn's end (`setImmediate`) the whole queue is handed to `runBatch` in
 * submission order, ONE synchronous call (the store runs it as one SQLite transaction, so one
 * commit, and for the ledger one fsync, serves every request of the turn).
 *
 * Invariants: each submitted promise settles exactly once, after `runBatch` has returned (so
 * after the batch's commit); `runBatch` returns one output per input, in order; if it throws,
 * every promise of that batch rejects with the error and nothing of the batch was committed
 * (the store's transaction rolled back).
 */
interface Pending<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (err: unknown) => void;
}

export class TurnBatcher<I, O> {
  private pending: Pending<I, O>[] = [];
  private scheduled = false;

  constructor(private readonly runBatch: (inputs: readonly I[]) => readonly O[]) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Runs whatever is queued now (also called on close, so no submitted work is dropped). */
  flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 0) return;
    let outputs: readonly O[];
    try {
      outputs = this.runBatch(batch.map((p) => p.input));
      if (outputs.length !== batch.length) throw new Error(`batch returned ${outputs.length} results for ${batch.length} inputs`);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => p.resolve(outputs[i]!));
  }
}
