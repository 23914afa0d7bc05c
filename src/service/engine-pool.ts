/**
 * Engine threads for the service (`serve --engine-threads N`): the venue data is held once,
 * as a snapshot in shared memory, and N worker threads each restore an engine over it
 * (views, no copy), so an extra thread costs its own heap, not another copy of the data. The
 * main thread keeps HTTP, billing and serialisation, and sends each engine call to the
 * thread with the fewest calls in flight; the answer comes back by structured clone.
 *
 * A thread that dies fails its calls in flight (the requests answer 500 and are not charged)
 * and is replaced. `vocabulary()` and `venueExtent()` are asked once at start and kept (they never change).
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../threads/start-worker.js';
import { VenueSearchError, type VenueSearchErrorCode } from '../errors.js';
import { UnknownPlaceError } from '../places/unknown-place-error.js';
import type { SharedSnapshot } from '../snapshot/shared-snapshot.js';
import type { AtInstant, EngineLike, FindParams } from './engine-like.js';

/**
 * The heap limits of an engine thread, chosen for memory (measured at 300k venues, the
 * shared-snapshot bench: whole-process VmRSS, 1 vs 2 threads).
 * - Young generation 4 MiB: by default it grows to two 16 MiB semi-spaces that stay
 *   resident, about 12 MiB of each thread. The price is more scavenges: the thread's own CPU
 *   per query (POINT search of two locations plus a find) rises by about 5-10 % (alternated
 *   rounds, /proc/thread-self/stat: medians 655 vs 595 ms per 5,000).
 * - Old generation at most 1 GiB: a heap limit under 2 GiB makes V8 grow the heap by a
 *   factor of at most 2 over what is live (4 above), so the garbage each query promotes is
 *   collected at about 22 MiB instead of piling up past 45 MiB (a thread's live heap is about
 *   12 MiB at 300k and at 1M venues: code, and the snapshot header's word lists). After
 *   10,000 searches and finds per thread a second thread adds +21-23 % of the process with
 *   this limit, +30-31 % without (300 each: +16 %). A thread that ever needed more than 1 GiB would stop with
 *   ERR_WORKER_OUT_OF_MEMORY: its calls in flight fail (500, not charged) and it is replaced.
 */
export const ENGINE_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 1024 };

/**
 * Decoded records each engine thread keeps (EngineOptions.recordCacheSize; 4,096 in a single
 * engine). Each thread holds its own cache, so it counts in every extra thread's memory: at
 * 300k venues, after 5,000 searches and 5,000 finds per thread, a second thread added
 * +20.6 % to +24.3 % of the one-thread process with 4,096 (median of 5 runs +21.9 %) and
 * +14.9 % to +18.5 % with 1,024 (median +15.5 %), bench/children/engine-threads-child.ts.
 * Random queries over 300k venues hit the cache for 11 % of record reads at 4,096 and 3 % at
 * 1,024: about 0.4 more decodes (1-3 µs each) per search and find, under 1 % of their time.
 */
export const ENGINE_THREAD_RECORD_CACHE = 1024;

type Method = 'search' | 'find' | 'basic' | 'advanced' | 'menus' | 'vocabulary' | 'venueExtent';

/** One call, main thread to engine thread. */
export interface EngineCall {
  readonly id: number;
  readonly method: Method;
  readonly args: readonly unknown[];
}

/** Its answer: the value, or the error (an engine error's code and parameter, when it was one). */
export type EngineReply =
  | { readonly id: number; readonly value: unknown }
  | {
      readonly id: number;
      /** `value` and `suggestions`: an UnknownPlaceError's location and suggestions. */
      readonly error: { readonly code?: VenueSearchErrorCode; readonly message: string; readonly param?: string | undefined; readonly value?: string; readonly suggestions?: readonly string[] };
    };

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

class EngineThread {
  readonly pending = new Map<number, Pending>();
  constructor(readonly worker: Worker) {}
}

function threadError(reply: Extract<EngineReply, { error: unknown }>): Error {
  const { code, message, param, value, suggestions } = reply.error;
  if (code === 'unknown_place' && suggestions !== undefined) return UnknownPlaceError.fromReport(value ?? '', message, suggestions);
  return code === undefined ? new Error(`engine thread: ${message}`) : new VenueSearchError(code, message, param === undefined ? {} : { param });
}

export class EnginePool implements EngineLike {
  private readonly threads: EngineThread[] = [];
  private nextId = 1;
  private closed = false;
  private vocabularyAnswer: unknown;
  private venueExtentAnswer: unknown;
  private venueCount = 0;

  private constructor(private readonly snapshot: SharedSnapshot) {}

  /** Venues in the engines (each thread's engine holds the same snapshot), known once started. */
  get venues(): number {
    return this.venueCount;
  }

  /** Starts `threads` engine threads over `snapshot`; resolves once every one has restored its engine. */
  static async start(snapshot: SharedSnapshot, threads: number): Promise<EnginePool> {
    if (!(Number.isInteger(threads) && threads >= 1)) throw new RangeError(`threads must be an integer >= 1; got ${threads}`);
    const pool = new EnginePool(snapshot);
    await Promise.all(Array.from({ length: threads }, (_, k) => pool.startThread(k)));
    pool.vocabularyAnswer = await pool.call('vocabulary', []);
    pool.venueExtentAnswer = await pool.call('venueExtent', []);
    return pool;
  }

  private startThread(k: number): Promise<void> {
    const thread = new EngineThread(startWorker(siblingModule(import.meta.url, 'engine-thread'), { snapshot: this.snapshot }, ENGINE_THREAD_LIMITS));
    this.threads[k] = thread;
    return new Promise((resolve, reject) => {
      thread.worker.once('message', (ready: { ready: number }) => {
        this.venueCount = ready.ready;
        thread.worker.on('message', (reply: EngineReply) => {
          const pending = thread.pending.get(reply.id);
          if (pending === undefined) return;
          thread.pending.delete(reply.id);
          if ('error' in reply) pending.reject(threadError(reply));
          else pending.resolve(reply.value);
        });
        resolve();
      });
      thread.worker.once('error', reject);
      thread.worker.once('exit', (code) => {
        for (const p of thread.pending.values()) p.reject(new Error(`engine thread ${k} exited (code ${code}) during the call`));
        thread.pending.clear();
        if (!this.closed && this.threads[k] === thread) void this.startThread(k).catch(() => {});
      });
    });
  }

  private call(method: Method, args: readonly unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the engine pool is closed'));
    let thread = this.threads[0]!;
    for (const t of this.threads) if (t.pending.size < thread.pending.size) thread = t;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      const call: EngineCall = { id, method, args };
      thread.worker.postMessage(call);
    });
  }

  search(body: unknown, options: { limit?: number; offset?: number; now?: number }): Promise<unknown> {
    return this.call('search', [body, options]);
  }

  find(params: FindParams, options: AtInstant = {}): Promise<unknown> {
    return this.call('find', [params, options]);
  }

  basic(id: string, options: AtInstant = {}): Promise<unknown> {
    return this.call('basic', [id, options]);
  }

  advanced(id: string, options: AtInstant = {}): Promise<unknown> {
    return this.call('advanced', [id, options]);
  }

  menus(id: string): Promise<unknown> {
    return this.call('menus', [id]);
  }

  vocabulary(): unknown {
    return this.vocabularyAnswer;
  }

  /** Asked once at start, like the vocabulary (the threads share one snapshot). */
  venueExtent(): unknown {
    return this.venueExtentAnswer;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
