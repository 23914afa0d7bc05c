import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../threads/start-worker.js';

/** A block of NDJSON lines sent to a worker: `bytes` (whole lines), the first one numbered `firstLine`. */
export interface ValidateJob {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly firstLine: number;
  /** Whether the verdict hands the bytes back (else they stay with the worker). */
  readonly handBack: boolean;
}

/** A worker's answer: the lines of the job that fail validation, and the job's bytes if asked back (transferred). */
export interface ValidateVerdict {
  readonly id: number;
  readonly bad: readonly number[];
  readonly bytes: Uint8Array | null;
}

/** What {@link ValidatePool.validate} resolves to: the failing lines, and (if asked back) the job's lines: a copy of the bytes given. */
export interface LineVerdict {
  readonly bad: ReadonlySet<number>;
  readonly bytes: Buffer | null;
}

/**
 * Worker threads that validate NDJSON lines (validate-worker.ts) while the reader parses the
 * same lines itself: the reader keeps its own objects and asks a worker only which lines
 * validateVenue would reject (it then builds those errors itself, so they are the same).
 * Jobs go to the worker with the fewest outstanding bytes.
 */
export class ValidatePool {
  private readonly workers: Worker[] = [];
  private readonly pendingBytes: number[] = [];
  private readonly waiting = new Map<number, { resolve: (verdict: LineVerdict) => void; reject: (err: Error) => void; worker: number; bytes: number }>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(size: number) {
    for (let w = 0; w < size; w++) {
      const worker = startWorker(siblingModule(import.meta.url, 'validate-worker'), {});
      worker.unref();
      worker.on('message', (verdict: ValidateVerdict) => {
        const job = this.waiting.get(verdict.id);
        if (job === undefined) return;
        this.waiting.delete(verdict.id);
        this.pendingBytes[job.worker]! -= job.bytes;
        const { bytes } = verdict;
        job.resolve({ bad: new Set(verdict.bad), bytes: bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
      });
      worker.on('error', (err: Error) => this.fail(err));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`validation worker exited with code ${code}`));
      });
      this.workers.push(worker);
      this.pendingBytes.push(0);
    }
  }

  /** Jobs sent and not answered yet. */
  get outstanding(): number {
    return this.waiting.size;
  }

  /**
   * The lines of `bytes` (a copy is sent) that fail validation; with `handBack`, the copy comes
   * back with the verdict. Only when the caller needs it: each block handed back is memory the
   * caller's isolate must collect (readVenues, holding a million records, then ran ~0.6 s of
   * extra full collections at 1M).
   */
  validate(bytes: Buffer, firstLine: number, handBack = false): Promise<LineVerdict> {
    if (this.failure !== null) return Promise.reject(this.failure);
    let w = 0;
    for (let k = 1; k < this.workers.length; k++) if (this.pendingBytes[k]! < this.pendingBytes[w]!) w = k;
    const id = this.nextId++;
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const job: ValidateJob = { id, bytes: copy, firstLine, handBack };
    const verdict = new Promise<LineVerdict>((resolve, reject) => {
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
