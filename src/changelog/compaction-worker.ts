/**
 * The compaction worker of a live service (compactor.ts starts it, live-venues.ts uses it):
 * one thread for the life of the service, holding its own engine over the base, so that a
 * compaction neither parses nor rebuilds the base.
 * - At start it loads the base (`workerData.basePath`, a snapshot or a venues file) and learns
 *   its places venue by venue (LivePlaces: every record read once, here, beside queries), then
 *   posts `{type: 'ready'}`.
 * - Per job: folds the change log's entries up to `upToSeq` straight into its engine's base
 *   (Engine.foldIn: the last state of each venue named; the records are not validated again,
 *   the main thread did when it accepted them; the new base folded from the old one's columns
 *   and one engine over the upserted records, unchanged records copied byte for byte,
 *   src/live/fold-sides.ts),
 *   lays it out as a snapshot in memory, writes that to `outPath` and fsyncs it, and posts the
 *   same bytes with copies of the kd-tree and the search's derived columns, so the main thread
 *   restores the new base in a millisecond or so. The compacted engine is the base of the next
 *   job.
 * - What it hands over lives in SharedArrayBuffers (shared, not copied, on posting). V8 does
 *   not count shared memory as an isolate's external memory (BackingStore::
 *   PerIsolateAccountingLength is 0 for it), so the main thread taking in a new base of some
 *   hundreds of MB does not force collections of its heap ("external memory pressure")
 *   between two queries; the old base's memory is freed at the main thread's next full
 *   collection instead (docs/updates.md).
 * If a job fails, the engine keeps its base (a fold changes it only once built; with changes
 * pending it applies them first, see Engine.foldIn); the log still holds every entry after the
 * main thread's base, and applying an entry again changes nothing (each entry sets the state
 * of the venues it names), so the next job is correct too.
 */
import { closeSync, fsyncSync, openSync, readFileSync, readlinkSync, writeSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { isSnapshotFile } from '../cli/load-engine.js';
import { readVenues } from '../data/read-venues.js';
import { createEngine, type Engine } from '../engine.js';
import type { VenueRecord } from '../schema/venue.js';
import type { PreparedSearchColumns } from '../search/search-service.js';
import { readSnapshot } from '../snapshot/read-snapshot.js';
import { snapshotImage } from '../snapshot/write-snapshot.js';
import { readLog } from './change-log.js';
import { foldLogged } from './fold-changes.js';

export interface CompactionJob {
  readonly logPath: string;
  readonly upToSeq: number;
  readonly outPath: string;
}

/**
 * Worker phases, ms: read the log, pick the job's entries (applyMs), fold them in, lay the
 * snapshot out in memory (imageMs), write and fsync it, copy the handed-over tree and
 * columns; and the CPU time the
 * thread took for the job (Linux; NaN elsewhere), which on a busy machine is what the job
 * costs, the wall time being stretched by the thread's low priority.
 */
export interface CompactionPhases {
  readonly cpuMs: number;
  readonly readLogMs: number;
  readonly applyMs: number;
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
  | { type: 'ready'; venues: number; loadMs: number }
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

function compact(engine: Engine, job: CompactionJob): WorkerMessage & { ok: true } {
  const t0 = performance.now();
  const cpu0 = threadCpuMs();
  let last = t0;
  const mark = () => {
    const now = performance.now();
    const ms = now - last;
    last = now;
    return ms;
  };
  const entries = readLog(job.logPath).entries;
  const readLogMs = mark();
  const changes = entries.filter((e) => e.seq <= job.upToSeq).map((e) => e.change);
  const applyMs = mark();
  // The log's records straight into the new base (validated when they were accepted; no runs).
  foldLogged(engine, ...changes);
  engine.learntPlaces();
  const foldMs = mark();
  // The file's bytes in one buffer of their own: written, synced, then handed over as they are.
  const image = snapshotImage(engine, { shared: true });
  const imageMs = mark();
  const fd = openSync(job.outPath, 'w');
  try {
    for (let done = 0; done < image.length; ) done += writeSync(fd, image, done, Math.min(1 << 30, image.length - done), done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const writeAndSyncMs = mark();
  const bytes = image.buffer as unknown as SharedArrayBuffer;
  // The tree and the search columns stay this engine's: copies are handed over.
  const prepared = engine.searcher().prepared();
  const search: PreparedSearchColumns = { ...prepared, termBits: sharedCopy(prepared.termBits), vibeBits: sharedCopy(prepared.vibeBits), occupiedCells: sharedCopy(prepared.occupiedCells) };
  const tree = sharedCopy(new Uint8Array(engine.spatial.treeData)).buffer as unknown as SharedArrayBuffer;
  const handOverMs = mark();
  return { type: 'done', ok: true, venues: engine.size, ms: performance.now() - t0, phases: { cpuMs: threadCpuMs() - cpu0, readLogMs, applyMs, foldMs, imageMs, writeAndSyncMs, handOverMs }, built: { bytes, tree, search } };
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
  const t0 = performance.now();
  let base: Engine;
  try {
    base = await loadBase((workerData as { basePath: string }).basePath);
  } catch (e) {
    port.postMessage({ type: 'failed', error: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    return;
  }
  port.postMessage({ type: 'ready', venues: base.size, loadMs: performance.now() - t0 } satisfies WorkerMessage);
  port.on('message', (job: CompactionJob) => {
    try {
      port.postMessage(compact(base, job));
    } catch (e) {
      port.postMessage({ type: 'done', ok: false, error: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    }
  });
}

void main();
