/**
 * Main-thread side of the ledger worker (ledger-worker.ts): sends a batch of charges, resolves
 * with their results once the worker's transaction has COMMITTED (is on disk), rejects if it
 * rolled back or the worker died. The worker starts on the first batch (operator commands
 * that never charge never start it) and does not keep the process alive while idle.
 *
 * Loading: src/threads/start-worker.ts (the compiled `ledger-worker.js` beside this file, or
 * the TypeScript source under tsx).
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../threads/start-worker.js';
import type { ChargeRequest, ChargeResult } from './accounts-store.js';
import type { LedgerReply, LedgerRequest, LedgerWorkerData } from './ledger-worker.js';

interface Waiting {
  readonly resolve: (results: ChargeResult[]) => void;
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

  /** Runs one charge batch in the worker; settles after its transaction committed or rolled back. */
  charge(requests: readonly ChargeRequest[]): Promise<ChargeResult[]> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<ChargeResult[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref(); // a batch in flight keeps the process alive until it is settled
      worker.postMessage({ id, requests: JSON.stringify(requests) } satisfies LedgerRequest);
    });
  }

  private start(): Worker {
    const data: LedgerWorkerData = { path: this.path, busyTimeoutMs: this.busyTimeoutMs };
    const worker = startWorker(siblingModule(import.meta.url, 'ledger-worker'), { ...data });
    worker.on('message', (reply: LedgerReply) => {
      const waiting = this.waiting.get(reply.id);
      if (waiting === undefined) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiting.reject(Object.assign(new Error(`accounts database write failed: ${reply.error}`), reply.code === undefined ? {} : { code: reply.code }));
      else waiting.resolve(JSON.parse(reply.results) as ChargeResult[]);
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
