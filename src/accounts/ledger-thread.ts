/**
 * Main-thread side of the ledger worker (ledger-worker.ts): sends a batch of charges (or one
 * refund), resolves with their results once the worker's transaction has COMMITTED (is on
 * disk), rejects if it rolled back or the worker died.
 *
 * Waiting for the write lock: another connection (another process, a sqlite3 shell, a backup)
 * may hold the file's write lock. The worker waits for it LOCK_WAIT_MS at a time; each time it
 * could not get it, this thread leaves out of the batch the charges whose client has gone
 * (`deliverable` false: `client_gone`, not charged) and sends the rest again, until `busyTimeoutMs` has passed since the first attempt: then the
 * batch fails with SQLite's own SQLITE_BUSY error, as one wait of `busyTimeoutMs` would
 * (a 503 with Retry-After). The charges are also asked once when their batch starts: a batch
 * queued (TurnBatcher) behind one that waits for the lock starts when that one commits. So a
 * client that leaves while its charge waits for the lock, its own batch's or the one ahead's,
 * is charged only if it leaves in the last LOCK_WAIT_MS before its batch has the lock, or
 * during the commit. An uncontended batch takes the lock at once: one message each way, as
 * before. The worker starts on the first batch (operator commands that never charge never
 * start it) and does not keep the process alive while idle.
 *
 * Loading: src/threads/start-worker.ts (the compiled `ledger-worker.js` beside this file, or
 * the TypeScript source under tsx).
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../threads/start-worker.js';
import type { ChargeRequest, ChargeResult, RefundRequest, RefundResult } from './accounts-store.js';
import type { LedgerReply, LedgerRequest, LedgerWorkerData } from './ledger-worker.js';

/** How long one attempt waits for another connection's write lock, ms. */
export const LOCK_WAIT_MS = 75;

/** One charge of a batch: `deliverable` says whether its answer can still reach its client. */
export interface LedgerCharge {
  readonly request: ChargeRequest;
  readonly deliverable?: () => boolean;
}

/** An attempt's outcome: the batch's results (a refund's: one), or the lock was held elsewhere (SQLite's error, to throw if the wait ends). */
type Attempt = { readonly results: unknown[] } | { readonly busy: Error };

interface Waiting {
  readonly resolve: (attempt: Attempt) => void;
  readonly reject: (err: unknown) => void;
}

export class LedgerThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
  ) {}

  /**
   * Runs one charge batch in the worker; settles after its transaction committed or rolled
   * back, or (see above) once every charge still wanted is settled after waits for the lock.
   */
  async charge(charges: readonly LedgerCharge[]): Promise<ChargeResult[]> {
    const started = performance.now();
    const results: (ChargeResult | undefined)[] = new Array<ChargeResult | undefined>(charges.length);
    // a charge whose client has gone leaves the batch uncharged (one past its deadline is
    // refused by the worker once it has the lock). Asked before the first attempt too: a batch
    // queued behind one that waited for the lock (TurnBatcher) starts only once that one has
    // committed, and its clients may have left meanwhile (audit 64a F1)
    const stillWanted = (open: readonly number[]) =>
      open.filter((i) => {
        const { deliverable } = charges[i]!;
        if (deliverable === undefined || deliverable()) return true;
        results[i] = { charged: false, reason: 'client_gone' };
        return false;
      });
    let open = stillWanted(charges.map((_, i) => i));
    while (open.length > 0) {
      const attempt = await this.attempt({ requests: JSON.stringify(open.map((i) => charges[i]!.request)) });
      if ('results' in attempt) {
        (attempt.results as ChargeResult[]).forEach((result, k) => (results[open[k]!] = result));
        break;
      }
      if (performance.now() - started >= this.busyTimeoutMs) throw attempt.busy;
      // the lock is held elsewhere: asked again after each wait
      open = stillWanted(open);
    }
    return results as ChargeResult[];
  }

  /**
   * Runs one refund in the worker (ledger-ops.ts prepareRefund), after the batches sent before
   * it; waits for the write lock as a batch does, for `busyTimeoutMs` in all.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    const started = performance.now();
    for (;;) {
      const attempt = await this.attempt({ refund: JSON.stringify(request) });
      if ('results' in attempt) return attempt.results[0] as RefundResult;
      if (performance.now() - started >= this.busyTimeoutMs) throw attempt.busy;
    }
  }

  /** One attempt at a batch or a refund in the worker (the lock waited for LOCK_WAIT_MS at most). */
  private attempt(work: { readonly requests: string } | { readonly refund: string }): Promise<Attempt> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Attempt>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref(); // a batch in flight keeps the process alive until it is settled
      worker.postMessage({ id, ...work } satisfies LedgerRequest);
    });
  }

  private start(): Worker {
    const data: LedgerWorkerData = { path: this.path, lockWaitMs: Math.min(LOCK_WAIT_MS, this.busyTimeoutMs) };
    const worker = startWorker(siblingModule(import.meta.url, 'ledger-worker'), { ...data });
    worker.on('message', (reply: LedgerReply) => {
      const waiting = this.waiting.get(reply.id);
      if (waiting === undefined) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      const failure = 'error' in reply ? Object.assign(new Error(`accounts database write failed: ${reply.error}`), reply.code === undefined ? {} : { code: reply.code }) : undefined;
      if ('results' in reply) waiting.resolve({ results: JSON.parse(reply.results) as unknown[] });
      else if ('busy' in reply) waiting.resolve({ busy: failure! });
      else waiting.reject(failure);
    });
    const fail = (err: unknown) => {
      if (this.worker === worker) this.worker = undefined; // the next batch starts a new worker
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the ledger worker stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Closes the worker's connections after every batch sent so far; the caller drains first. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ close: true } satisfies LedgerRequest);
    await exited;
  }
}
