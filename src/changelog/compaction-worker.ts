/**
 * The compaction worker of a live service (compactor.ts starts it, live-venues.ts uses it):
 * one thread for the life of the service, holding its own engine over the base and the
 * change log's batches, so that a compaction neither parses nor rebuilds anything but the fold.
 * - At start it loads the base (`workerData.basePath`, a snapshot or a venues file), learns
 *   its places venue by venue (LivePlaces: every record read once, here, beside queries) and
 *   applies the log's entries after `workerData.baseSeq` (those the base holds) up to
 *   `workerData.loggedSeq`, then posts `{type: 'ready'}`.
 * - Told of each batch the main thread logged (`{type: 'logged', seq}`), it reads the log's new
 *   entries and applies them to its engine as runs (log-follower.ts; the records are
 *   validated again, as at a replay), off the query path and at the lowest priority.
 * - Per job: applies whatever entries up to `upToSeq` it has not yet (none, usually), folds
 *   its runs into a new base (Engine.compact: the new base built from the old one's columns
 *   and the runs', unchanged records copied byte for byte, src/live/fold-sides.ts),
 *   lays it out as a snapshot in memory, writes that to `outPath` and fsyncs it, and posts the
 *   same bytes with copies of the kd-tree and the search's derived columns, so the main thread
 *   restores the new base in a millisecond or so. The compacted engine is the base of the next
 *   job. Told that the log was replaced (`{type: 'log replaced'}`, after the main thread cut
 *   it), it reads the new file from its start.
 * - What it hands over lives in SharedArrayBuffers (shared, not copied, on posting). V8 does
 *   not count shared memory as an isolate's external memory (BackingStore::
 *   PerIsolateAccountingLength is 0 for it), so the main thread taking in a new base of some
 *   hundreds of MB does not force collections of its heap ("external memory pressure")
 *   between two queries; the old base's memory is freed at the main thread's next full
 *   collection instead (docs/updates.md).
 * If a job fails, the engine keeps its base and the entries it applied (a fold changes the
 * engine only once built); the log still holds every entry after the main thread's base, and
 * the next job goes on from there. A batch that does not apply here (it did on the main
 * thread, so only a damaged log) fails every job, and the service keeps its base and log.
 */
import { closeSync, fsyncSync, openSync, readFileSync, readlinkSync, rmSync, writeSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { isSnapshotFile } from '../cli/load-engine.js';
import { readVenues } from '../data/read-venues.js';
import { createEngine, type Engine } from '../engine.js';
import type { VenueRecord } from '../schema/venue.js';
import type { PreparedSearchColumns } from '../search/search-service.js';
import { readSnapshot } from '../snapshot/read-snapshot.js';
import { snapshotImage } from '../snapshot/write-snapshot.js';
import type { LogEntry } from './change-log.js';
import { applyLogged } from './fold-changes.js';
import { LogFollower } from './log-follower.js';

export interface CompactionJob {
  readonly upToSeq: number;
  readonly outPath: string;
  /** The permission bits of the base it replaces (kept); absent: the default. */
  readonly mode?: number;
}

/** What the worker is started with. */
export interface CompactionWorkerData {
  /** The base file: a snapshot or a venues file. */
  readonly basePath: string;
  /** The change log over that base. */
  readonly logPath: string;
  /** The seq of the last batch logged and acknowledged (0: none): applied before `ready`. */
  readonly loggedSeq: number;
  /** The seq of the last batch the base holds (a compacted base: data-origin.json's lastSeq; 0: --data, or not recorded). */
  readonly baseSeq: number;
}

/** What the main thread posts to the worker. */
export type WorkerRequest =
  | { readonly type: 'logged'; readonly seq: number }
  | { readonly type: 'log replaced' }
  | ({ readonly type: 'compact' } & CompactionJob);

/**
 * Worker phases of a job, ms: apply the entries up to the job's seq not applied yet (usually
 * none: see `logged`), fold the runs into the new base, lay the snapshot out in memory
 * (imageMs), write and fsync it, copy the handed-over tree and columns; and the CPU time the
 * thread took for the job (Linux; NaN elsewhere), which on a busy machine is what the job
 * costs, the wall time being stretched by the thread's low priority.
 */
export interface CompactionPhases {
  readonly cpuMs: number;
  readonly catchUpMs: number;
  readonly foldMs: number;
  readonly imageMs: number;
  readonly writeAndSyncMs: number;
  readonly handOverMs: number;
}

/** A built base handed to the main thread: the snapshot's bytes, the kd-tree's buffer, the search's derived columns (all in SharedArrayBuffers that only the main thread uses from then on). */
export interface BuiltBase {
  readonly bytes: SharedArrayBuffer;
  readonly tree: SharedArrayBuffer;
  readonly search: PreparedSearchColumns;
}

export type WorkerMessage =
  /** `loadMs`: the base loaded and its places learnt; `logMs`: then the log's `entries` read and applied. */
  | { type: 'ready'; venues: number; loadMs: number; logMs: number; entries: number }
  | { type: 'done'; ok: true; venues: number; ms: number; phases: CompactionPhases; built: BuiltBase }
  | { type: 'done'; ok: false; error: string }
  | { type: 'failed'; error: string };

/** The base file's engine, with its places learnt venue by venue (kept current through its changes and compactions). */
async function loadBase(path: string): Promise<Engine> {
  const engine = isSnapshotFile(path) ? readSnapshot(path) : createEngine((await readVenues(path)).venues as VenueRecord[], { validate: false });
  engine.findStructures();
  engine.remove([]); // takes changes from now on (nothing removed)
  engine.learntPlaces();
  return engine;
}

/** CPU time of this thread so far, ms (utime + stime of /proc/thread-self/stat, 100 ticks a second); NaN where unknown. */
function threadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Applies log entries to the engine, as a replay does. */
function applier(engine: Engine): (entry: LogEntry) => void {
  return (entry) => applyLogged(engine, entry.change);
}

function compact(engine: Engine, log: LogFollower, job: CompactionJob): WorkerMessage & { ok: true } {
  const t0 = performance.now();
  const cpu0 = threadCpuMs();
  let last = t0;
  const mark = () => {
    const now = performance.now();
    const ms = now - last;
    last = now;
    return ms;
  };
  log.catchUp(job.upToSeq, applier(engine));
  const catchUpMs = mark();
  engine.compact();
  engine.learntPlaces();
  const foldMs = mark();
  // The file's bytes in one buffer of their own: written, synced, then handed over as they are.
  const image = snapshotImage(engine, { shared: true });
  const imageMs = mark();
  const fd = openSync(job.outPath, 'w', job.mode);
  try {
    for (let done = 0; done < image.length; ) done += writeSync(fd, image, done, Math.min(1 << 30, image.length - done), done);
    fsyncSync(fd);
  } catch (err) {
    // a partial file would only hold the disk's space (and a full disk is the usual cause)
    closeSync(fd);
    rmSync(job.outPath, { force: true });
    throw err;
  }
  closeSync(fd);
  const writeAndSyncMs = mark();
  const bytes = image.buffer as unknown as SharedArrayBuffer;
  // The tree and the search columns stay this engine's: copies are handed over.
  const prepared = engine.searcher().prepared();
  const search: PreparedSearchColumns = { ...prepared, termBits: sharedCopy(prepared.termBits), vibeBits: sharedCopy(prepared.vibeBits), occupiedCells: sharedCopy(prepared.occupiedCells) };
  const tree = sharedCopy(new Uint8Array(engine.spatial.treeData)).buffer as unknown as SharedArrayBuffer;
  const handOverMs = mark();
  return { type: 'done', ok: true, venues: engine.size, ms: performance.now() - t0, phases: { cpuMs: threadCpuMs() - cpu0, catchUpMs, foldMs, imageMs, writeAndSyncMs, handOverMs }, built: { bytes, tree, search } };
}

/** A copy of `a` in a SharedArrayBuffer of its own. */
function sharedCopy<T extends Uint8Array | Uint32Array>(a: T): T {
  const C = a.constructor as new (b: SharedArrayBuffer) => T;
  const copy = new C(new SharedArrayBuffer(a.byteLength));
  copy.set(a);
  return copy;
}

/**
 * Lowers this thread's scheduling priority to the lowest (nice 19), so that on a busy machine
 * the main thread's queries get the cores first and the compaction takes what is left. Linux
 * only (a thread's id is its /proc/thread-self task number, and setpriority on it applies to
 * that thread alone); elsewhere the thread keeps its priority.
 */
function yieldToQueries(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
  } catch {
    // not Linux, or not permitted: run at the normal priority
  }
}

async function main(): Promise<void> {
  const port = parentPort!;
  yieldToQueries();
  const { basePath, logPath, loggedSeq, baseSeq } = workerData as CompactionWorkerData;
  const log = new LogFollower(logPath, baseSeq);
  let base: Engine;
  let loadMs: number;
  let logMs: number;
  let entries: number;
  try {
    const t0 = performance.now();
    base = await loadBase(basePath);
    const t1 = performance.now();
    loadMs = t1 - t0;
    entries = log.catchUp(loggedSeq, applier(base));
    logMs = performance.now() - t1;
  } catch (e) {
    port.postMessage({ type: 'failed', error: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    return;
  }
  port.postMessage({ type: 'ready', venues: base.size, loadMs, logMs, entries } satisfies WorkerMessage);
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'logged') {
      try {
        log.catchUp(request.seq, applier(base));
      } catch {
        // left for the next job, which reads the log again and fails with this error if it stays
      }
    } else if (request.type === 'log replaced') {
      log.replaced();
    } else {
      try {
        port.postMessage(compact(base, log, request));
      } catch (e) {
        port.postMessage({ type: 'done', ok: false, error: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
      }
    }
  });
}

void main();
