/**
 * The main thread's handle on the compaction worker (compaction-worker.ts): started with the
 * base file, it loads the base into an engine of its own in the background; {@link Compactor.run}
 * then folds the change log into it and builds the new base. One job at a time (LiveVenues runs one
 * compaction at a time). A worker that fails or exits is replaced by a fresh one at the next
 * job (which reads the base again).
 */
import type { Worker } from 'node:worker_threads';
import type { BuiltBase, CompactionJob, CompactionPhases, WorkerMessage } from './compaction-worker.js';
import { siblingModule, startWorker } from '../threads/start-worker.js';

export interface CompactionResult {
  readonly venues: number;
  /** Worker time of the job, ms (the base was loaded before, see {@link Compactor.ready}). */
  readonly ms: number;
  readonly phases: CompactionPhases;
  readonly built: BuiltBase;
}

export class Compactor {
  private worker: Worker | null = null;
  private basePath: string;
  /** Resolves with the time the worker took to load the base and learn its places, ms. */
  ready: Promise<number> = Promise.resolve(0);
  private pending: { resolve: (r: CompactionResult) => void; reject: (e: Error) => void } | null = null;

  /** `basePath`: the base file the main thread's engine was loaded from. */
  constructor(basePath: string) {
    this.basePath = basePath;
    this.start();
  }

  /** Builds the base of the log's entries up to `job.upToSeq` over the worker's records. */
  async run(job: CompactionJob): Promise<CompactionResult> {
    if (this.worker === null) this.start();
    await this.ready;
    return new Promise<CompactionResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker!.postMessage(job);
    });
  }

  /** The base file to read if the worker has to start again (after a compaction swapped a new one in). */
  rebase(basePath: string): void {
    this.basePath = basePath;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): void {
    const worker = startWorker(siblingModule(import.meta.url, 'compaction-worker'), { basePath: this.basePath });
    // The worker never keeps the process alive on its own (a service stops when its server does).
    worker.unref();
    this.worker = worker;
    let loaded: ((ms: number) => void) | null = null;
    let loadFailed: ((e: Error) => void) | null = null;
    this.ready = new Promise<number>((resolve, reject) => {
      loaded = resolve;
      loadFailed = reject;
    });
    this.ready.catch(() => {});
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = null;
      loadFailed?.(e);
      this.pending?.reject(e);
      this.pending = null;
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') loaded?.(m.loadMs);
      else if (m.type === 'failed') {
        fail(new Error(`compaction worker cannot read the base ${this.basePath}: ${m.error}`));
        void worker.terminate();
      } else {
        const pending = this.pending;
        this.pending = null;
        if (m.ok) pending?.resolve({ venues: m.venues, ms: m.ms, phases: m.phases, built: m.built });
        else pending?.reject(new Error(`compaction failed: ${m.error}`));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`compaction worker exited with ${code}`)));
  }
}
