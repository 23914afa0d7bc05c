/**
 * The main thread's handle on the compaction worker (compaction-worker.ts): started with the
 * base file and the change log, it loads the base into an engine of its own in the background
 * and applies the log's batches to it as they are logged ({@link Compactor.logged});
 * {@link Compactor.run} then folds them into the new base. One job at a time (LiveVenues runs
 * one compaction at a time). A worker that fails or exits is replaced by a fresh one at the
 * next job (which reads the base and the log again).
 */
import type { Worker } from 'node:worker_threads';
import type { BuiltBase, CompactionJob, CompactionPhases, CompactionWorkerData, WorkerMessage, WorkerRequest } from './compaction-worker.js';
import { siblingModule, startWorker } from '../threads/start-worker.js';

export interface CompactionResult {
  readonly venues: number;
  /** Worker time of the job, ms (the base was loaded and the batches applied before, see {@link Compactor.ready}). */
  readonly ms: number;
  readonly phases: CompactionPhases;
  readonly built: BuiltBase;
}

/** How the worker started: ms to load the base and learn its places, then to read and apply the log's `entries` logged by then. */
export interface CompactorStart {
  readonly loadMs: number;
  readonly logMs: number;
  readonly entries: number;
}

/**
 * How far a compaction's file steps got on the main thread (docs/updates.md, "Compaction",
 * steps 2 and 3): each flag is set once its step took effect on disk. The steps run in this
 * order, so a flag set implies the ones before it.
 */
export interface CompactionProgress {
  /** The seq of the last batch the new base holds. */
  readonly upToSeq: number;
  /** The file the new base was renamed onto (base.snapshot, or its link's target). */
  readonly baseFile: string;
  /** The live directory's data-origin.json. */
  readonly originFile: string;
  /** The change log. */
  readonly logFile: string;
  /** Step 2: the new base renamed onto {@link baseFile}. */
  baseReplaced: boolean;
  /** Step 2: {@link upToSeq} recorded in {@link originFile} as the last seq folded. */
  seqRecorded: boolean;
  /** Step 3: the log replaced by its batches after {@link upToSeq}. */
  logCut: boolean;
}

/**
 * What a failed compaction changed on disk, in words. Before the rename nothing did (the
 * worker removes a partial new base, LiveVenues.swapIn one whose rename failed). After it
 * the base holds the batches up to upToSeq while the log may still hold them too: nothing
 * is lost, since replaying a batch the base holds changes nothing (each batch sets the state
 * of the venues it names), at a start or by the next compaction, which cuts them (audit 66a
 * F1: this said "as they were" at every step).
 */
function whatChanged(p: CompactionProgress | undefined): string {
  if (p === undefined || !p.baseReplaced) return 'the base and the change log are as they were';
  const done = [`the new base, holding the batches up to ${p.upToSeq}, replaced ${p.baseFile}`];
  if (p.seqRecorded) done.push(`${p.originFile} records seq ${p.upToSeq}`);
  if (p.logCut) done.push(`${p.logFile} was cut to the batches after ${p.upToSeq}`);
  const replay = `nothing is lost: ${p.logFile} still holds the batches the new base holds, and replaying them over it (at a start) changes nothing; the next compaction cuts them`;
  if (!p.seqRecorded) return `done: ${done.join('; ')}; not done: recording seq ${p.upToSeq} in ${p.originFile}, cutting ${p.logFile}; ${replay}`;
  if (!p.logCut) return `done: ${done.join('; ')}; not done: cutting ${p.logFile}; ${replay}`;
  return `done: ${done.join('; ')}; not done: swapping the new base in, so the service answers from the venues it held (the same ones) until the next compaction; nothing is lost: a start loads the new base and the batches after ${p.upToSeq}`;
}

/**
 * A compaction that did not finish: the worker failed (a full disk while writing the new
 * base, a worker that stopped), or one of the main thread's steps did; the message says which
 * steps took effect (`progress`, absent when the failure came before the rename) and that
 * nothing is lost. No partial file is left behind.
 */
export class CompactionFailedError extends Error {
  override readonly name = 'CompactionFailedError';
  constructor(cause: unknown, progress?: CompactionProgress) {
    const why = cause instanceof Error ? cause.message.replace(/^compaction failed: /, '') : String(cause);
    super(`compaction failed: ${why}; ${whatChanged(progress)}`, { cause });
  }
}

export class Compactor {
  private worker: Worker | null = null;
  private basePath: string;
  /** The seq of the last batch {@link basePath} holds (the worker reads the log after it). */
  private baseSeq: number;
  private readonly logPath: string;
  /** The seq of the last batch logged (the worker applies the log up to it). */
  private loggedSeq: number;
  /** Resolves once the worker has loaded the base and applied the log, with the times it took. */
  ready: Promise<CompactorStart> = Promise.resolve({ loadMs: 0, logMs: 0, entries: 0 });
  private pending: { resolve: (r: CompactionResult) => void; reject: (e: Error) => void } | null = null;

  /**
   * `basePath`: the base file the main thread's engine was loaded from, holding the batches up
   * to `baseSeq` (data-origin.json's lastSeq for a compacted base, 0 for --data); `logPath`: its
   * change log, holding entries up to `loggedSeq` (none when a compaction emptied it: then
   * `loggedSeq` is `baseSeq`).
   */
  constructor(basePath: string, baseSeq: number, logPath: string, loggedSeq: number) {
    this.basePath = basePath;
    this.baseSeq = baseSeq;
    this.logPath = logPath;
    this.loggedSeq = loggedSeq;
    this.start();
  }

  /** Tells the worker that batch `seq` is logged and acknowledged: it applies it in the background. */
  logged(seq: number): void {
    this.loggedSeq = seq;
    this.post({ type: 'logged', seq });
  }

  /** Tells the worker that the log was replaced by a new file (ChangeLog.keepFrom). */
  logReplaced(): void {
    this.post({ type: 'log replaced' });
  }

  /** Builds the base of the log's entries up to `job.upToSeq` over the worker's records. */
  async run(job: CompactionJob): Promise<CompactionResult> {
    if (this.worker === null) this.start();
    await this.ready;
    return new Promise<CompactionResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.post({ type: 'compact', ...job });
    });
  }

  /** The base file to read if the worker has to start again (after a compaction swapped a new one in), holding the batches up to `baseSeq`. */
  rebase(basePath: string, baseSeq: number): void {
    this.basePath = basePath;
    this.baseSeq = baseSeq;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private post(request: WorkerRequest): void {
    this.worker?.postMessage(request);
  }

  private start(): void {
    const data: CompactionWorkerData = { basePath: this.basePath, logPath: this.logPath, loggedSeq: this.loggedSeq, baseSeq: this.baseSeq };
    const worker = startWorker(siblingModule(import.meta.url, 'compaction-worker'), { ...data });
    // The worker never keeps the process alive on its own (a service stops when its server does).
    worker.unref();
    this.worker = worker;
    let started: ((s: CompactorStart) => void) | null = null;
    let startFailed: ((e: Error) => void) | null = null;
    this.ready = new Promise<CompactorStart>((resolve, reject) => {
      started = resolve;
      startFailed = reject;
    });
    this.ready.catch(() => {});
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = null;
      startFailed?.(e);
      this.pending?.reject(e);
      this.pending = null;
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') started?.({ loadMs: m.loadMs, logMs: m.logMs, entries: m.entries });
      else if (m.type === 'failed') {
        fail(new Error(`compaction worker cannot load the base ${this.basePath} and its change log ${this.logPath}: ${m.error}`));
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
