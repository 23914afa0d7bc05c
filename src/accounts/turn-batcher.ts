/**
 * Group work by event-loop turn: every `submit` made during one turn of the event loop is
 * queued, and at the turn's end (`setImmediate`) the whole queue is handed to `runBatch` in
 * submission order, as ONE call (the store runs it as one SQLite transaction, so one commit,
 * and for the ledger one fsync, serves every request of the turn).
 *
 * `runBatch` may be synchronous or return a promise (the batch runs in the ledger worker). At
 * most one batch is in flight: what is submitted meanwhile waits and goes as the next batch
 * as soon as the current one settles, so batches grow with the load instead of queueing commits.
 *
 * Invariants: each submitted promise settles exactly once, after its batch's `runBatch` has
 * returned or resolved (so after the batch's commit); `runBatch` gives one output per input,
 * in order; if it throws or rejects, every promise of that batch rejects with the error (the
 * store's transaction rolled back whole).
 */
interface Pending<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (err: unknown) => void;
}

export class TurnBatcher<I, O> {
  private pending: Pending<I, O>[] = [];
  private scheduled = false;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly runBatch: (inputs: readonly I[]) => readonly O[] | Promise<readonly O[]>) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      this.schedule();
    });
  }

  /** Settles everything submitted so far (the store's close), running what is still queued. */
  async drain(): Promise<void> {
    for (;;) {
      if (this.inFlight !== undefined) await this.inFlight;
      else if (this.pending.length > 0) this.start();
      else return;
    }
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight !== undefined) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    if (this.inFlight !== undefined || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    let outputs: readonly O[] | Promise<readonly O[]>;
    try {
      outputs = this.runBatch(batch.map((p) => p.input));
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    if (!(outputs instanceof Promise)) {
      settle(batch, outputs);
      return;
    }
    this.inFlight = outputs.then(
      (done) => settle(batch, done),
      (err: unknown) => {
        for (const p of batch) p.reject(err);
      },
    );
    void this.inFlight.finally(() => {
      this.inFlight = undefined;
      this.start(); // what arrived meanwhile goes now
    });
  }
}

function settle<I, O>(batch: readonly Pending<I, O>[], outputs: readonly O[]): void {
  if (outputs.length !== batch.length) {
    const err = new Error(`batch returned ${outputs.length} results for ${batch.length} inputs`);
    for (const p of batch) p.reject(err);
    return;
  }
  batch.forEach((p, i) => p.resolve(outputs[i]!));
}
