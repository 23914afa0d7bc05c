/**
 * The compaction worker of a live service (compactor.ts starts it, live-venues.ts uses it):
 * one thread for the life of the service, so that a compaction does not parse the base again.
 * - At start it reads the base (`workerData.basePath`, a snapshot or a venues file) and keeps
 *   its records parsed (posts `{type: 'ready'}`): a million records take seconds to parse, and
 *   that happens here once, beside queries, instead of in every compaction.
 * - Per job: folds the change log up to `upToSeq` over those records, builds the new base
 *   (createEngine), writes it as a snapshot at `outPath` and fsyncs it, reads the file back and
 *   posts its bytes with the kd-tree's buffer and the search's derived columns, all transferred
 *   (moved, not copied), so the main thread restores the new base in about a millisecond.
 *   The new base's records are then kept for the next job.
 * If a job fails, the records stay those of the previous base (the log still holds every entry
 * after the main thread's base, and replaying an entry the records already hold changes
 * nothing: each entry sets the state of the venues it names), so the next job is correct too.
 */
import { closeSync, fsyncSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { isSnapshotFile } from '../cli/load-engine.js';
import { readVenues } from '../data/read-venues.js';
import { createEngine } from '../engine.js';
import type { VenueRecord } from '../schema/venue.js';
import type { PreparedSearchColumns } from '../search/search-service.js';
import { readSnapshot } from '../snapshot/read-snapshot.js';
import { writeSnapshot } from '../snapshot/write-snapshot.js';
import { readLog } from './change-log.js';
import { foldChanges } from './fold-changes.js';

export interface CompactionJob {
  readonly logPath: string;
  readonly upToSeq: number;
  readonly outPath: string;
}

/** Worker phases, ms: read the log, fold it over the kept records, createEngine, writeSnapshot, fsync, read back and derive the handed-over parts. */
export interface CompactionPhases {
  readonly readLogMs: number;
  readonly recordsMs: number;
  readonly createEngineMs: number;
  readonly writeSnapshotMs: number;
  readonly fsyncMs: number;
  readonly handOverMs: number;
}

/** A built base handed to the main thread: the snapshot's bytes, the kd-tree's buffer, the search's derived columns (all transferred). */
export interface BuiltBase {
  readonly bytes: ArrayBuffer;
  readonly tree: ArrayBuffer;
  readonly search: PreparedSearchColumns;
}

export type WorkerMessage =
  | { type: 'ready'; venues: number; loadMs: number }
  | { type: 'done'; ok: true; venues: number; ms: number; phases: CompactionPhases; built: BuiltBase }
  | { type: 'done'; ok: false; error: string }
  | { type: 'failed'; error: string };

/** The records of a base file, parsed (a snapshot's records are JSON until asked for). */
async function loadRecords(path: string): Promise<VenueRecord[]> {
  if (!isSnapshotFile(path)) return (await readVenues(path)).venues as VenueRecord[];
  const store = readSnapshot(path, { places: null }).store;
  const records = new Array<VenueRecord>(store.size);
  for (let i = 0; i < store.size; i++) records[i] = store.record(i);
  return records;
}

function compact(base: readonly VenueRecord[], job: CompactionJob): { message: WorkerMessage & { ok: true }; records: VenueRecord[]; transfer: ArrayBuffer[] } {
  const t0 = performance.now();
  let last = t0;
  const mark = () => {
    const now = performance.now();
    const ms = now - last;
    last = now;
    return ms;
  };
  // The current records: the kept ones and the folded log (validated when accepted).
  const entries = readLog(job.logPath).entries;
  const readLogMs = mark();
  const changed = foldChanges(entries.filter((e) => e.seq <= job.upToSeq).map((e) => e.change));
  const records: VenueRecord[] = [];
  for (const r of base) if (!changed.has(r.id)) records.push(r);
  for (const r of changed.values()) if (r !== null) records.push(r);
  const recordsMs = mark();
  const built = createEngine(records, { validate: false });
  const createEngineMs = mark();
  writeSnapshot(built, job.outPath);
  const writeSnapshotMs = mark();
  const fd = openSync(job.outPath, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const fsyncMs = mark();
  const file = readFileSync(job.outPath);
  // A transfer moves a whole ArrayBuffer: copy only if the file's bytes share one (small files).
  const bytes = file.byteOffset === 0 && file.buffer.byteLength === file.length ? (file.buffer as ArrayBuffer) : new Uint8Array(file).buffer;
  const search = built.searcher().prepared();
  const tree = built.spatial.treeData;
  const handOverMs = mark();
  const transfer = [bytes, tree, search.termBits.buffer as ArrayBuffer, search.vibeBits.buffer as ArrayBuffer, search.occupiedCells.buffer as ArrayBuffer];
  return {
    message: { type: 'done', ok: true, venues: built.size, ms: performance.now() - t0, phases: { readLogMs, recordsMs, createEngineMs, writeSnapshotMs, fsyncMs, handOverMs }, built: { bytes, tree, search } },
    records,
    transfer,
  };
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
  let base: VenueRecord[];
  try {
    base = await loadRecords((workerData as { basePath: string }).basePath);
  } catch (e) {
    port.postMessage({ type: 'failed', error: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    return;
  }
  port.postMessage({ type: 'ready', venues: base.length, loadMs: performance.now() - t0 } satisfies WorkerMessage);
  port.on('message', (job: CompactionJob) => {
    try {
      const { message, records, transfer } = compact(base, job);
      base = records;
      port.postMessage(message, transfer);
    } catch (e) {
      port.postMessage({ type: 'done', ok: false, error: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
    }
  });
}

void main();
