import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../threads/start-worker.js';
import type { EncodedLines } from './encode-lines.js';

/**
 * A block of NDJSON lines sent to a worker: `bytes` (whole lines), the first one numbered
 * `firstLine`; `encode`: encode the valid records too (encode-lines.ts), else only validate.
 */
export interface ValidateJob {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly firstLine: number;
  readonly encode: boolean;
}

/** A worker's answer to a job: the lines that fail validation; or, for a job to encode, its encoded lines. */
export type ValidateVerdict = { readonly id: number; readonly bad: readonly number[] } | { readonly id: number; readonly encoded: EncodedLines };

/** What a worker posts: once, when it is ready for jobs (its modules loaded, its checker compiled); then a verdict per job. */
export type ValidateWorkerMessage = ValidateVerdict | { readonly ready: true };

/** What {@link ValidatePool.validate} resolves to: the failing lines. */
export interface LineVerdict {
  readonly bad: ReadonlySet<number>;
}

/**
 * Worker threads that validate NDJSON lines (validate-worker.ts) while the reader parses the
 * same lines itself: the reader keeps its own objects and asks a worker only which lines
 * validateVenue would reject (it then builds those errors itself, so they are the same). Or
 * that encode them (createEngineFromFile, which keeps no objects): the reader then takes the
 * encoded records in without parsing them. Jobs go to the ready worker with the fewest
 * outstanding bytes; until one is ready (tens of milliseconds to start a thread and load its
 * modules), the reader does the work itself ({@link ready}; a job sent before waits).
 */
export class ValidatePool {
  private readonly workers: Worker[] = [];
  private readonly pendingBytes: number[] = [];
  private readonly readyWorkers: boolean[] = [];
  private readyCount = 0;
  private readonly waiting = new Map<number, { resolve: (verdict: ValidateVerdict) => void; reject: (err: Error) => void; worker: number; bytes: number }>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(size: number) {
    for (let w = 0; w < size; w++) {
      const worker = startWorker(siblingModule(import.meta.url, 'validate-worker'), {});
      worker.unref();
      worker.on('message', (message: ValidateWorkerMessage) => {
        if ('ready' in message) {
          this.readyWorkers[w] = true;
          this.readyCount++;
          return;
        }
        const verdict = message;
        const job = this.waiting.get(verdict.id);
        if (job === undefined) return;
        this.waiting.delete(verdict.id);
        this.pendingBytes[job.worker]! -= job.bytes;
        job.resolve(verdict);
      });
      worker.on('error', (err: Error) => this.fail(err));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`validation worker exited with code ${code}`));
      });
      this.workers.push(worker);
      this.pendingBytes.push(0);
      this.readyWorkers.push(false);
    }
  }

  /** Whether a worker is ready for jobs (a job sent before would wait for its start). */
  get ready(): boolean {
    return this.readyCount > 0;
  }

  /** Throws the error a worker failed with, if one did (a reader that does the work itself while no worker is ready would not see it otherwise). */
  throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }

  /** Jobs sent and not answered yet. */
  get outstanding(): number {
    return this.waiting.size;
  }

  /**
   * The lines of `bytes` (a copy is sent) that fail validation. The bytes stay with the
   * worker: each block handed back would be memory the caller's isolate must collect
   * (readVenues, holding a million records, then ran ~0.6 s of extra full collections at 1M).
   */
  async validate(bytes: Buffer, firstLine: number): Promise<LineVerdict> {
    const verdict = await this.send(bytes, firstLine, false);
    if (!('bad' in verdict)) throw new Error('validation worker: a verdict expected');
    return { bad: new Set(verdict.bad) };
  }

  /**
   * The lines of `bytes` (a copy is sent) parsed, validated and encoded (encode-lines.ts) by a
   * worker; the bytes come back only when a line is bad.
   */
  async encode(bytes: Buffer, firstLine: number): Promise<EncodedLines> {
    const verdict = await this.send(bytes, firstLine, true);
    if (!('encoded' in verdict)) throw new Error('validation worker: encoded lines expected');
    return verdict.encoded;
  }

  private send(bytes: Buffer, firstLine: number, encode: boolean): Promise<ValidateVerdict> {
    if (this.failure !== null) return Promise.reject(this.failure);
    // The ready worker with the fewest outstanding bytes; with none ready, any (the job waits for its start).
    const ready = this.readyCount > 0;
    let w = -1;
    for (let k = 0; k < this.workers.length; k++) if ((!ready || this.readyWorkers[k]) && (w < 0 || this.pendingBytes[k]! < this.pendingBytes[w]!)) w = k;
    const id = this.nextId++;
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const job: ValidateJob = { id, bytes: copy, firstLine, encode };
    const verdict = new Promise<ValidateVerdict>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, worker: w, bytes: copy.byteLength });
      this.pendingBytes[w]! += copy.byteLength;
      this.workers[w]!.postMessage(job, [copy.buffer]);
    });
    verdict.catch(() => undefined); // a reader that stopped early does not wait for it
    return verdict;
  }

  /** Stops the workers; jobs still waiting are rejected. */
  async close(): Promise<void> {
    this.fail(new Error('validation pool closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const job of this.waiting.values()) job.reject(err);
    this.waiting.clear();
  }
}
