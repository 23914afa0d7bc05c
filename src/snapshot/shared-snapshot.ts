/**
 * A snapshot held once in shared memory, restored by engines on several worker threads.
 * `shareSnapshot` copies the snapshot's bytes into one SharedArrayBuffer and its kd-tree
 * section into another (kdbush needs the tree at the start of its own buffer), validating
 * the whole snapshot once on the way (a restore). Both cross `postMessage` without a copy, and
 * `restoreShared` in each thread takes typed-array views of the shared bytes (restoreSnapshot),
 * so the venue columns, the text blobs and the tree exist once per process, however many
 * threads restore them. The search's derived columns (PreparedSearchColumns: a bit word per
 * venue for its terms and for its vibes, the occupied one-degree cells) are computed once
 * during that validating restore and copied into shared memory too: they are read-only, so
 * every thread's search uses them as they are. What each engine still builds for itself is
 * its isolate, the header's word lists (JS strings cannot be shared), the record cache, and
 * per-venue scratch (stamp arrays of the corridor walk and the name index, find's id ranks).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Engine, EngineOptions } from '../engine.js';
import { fileProblem, isFileError } from '../data/file-problem.js';
import { VenueSearchError } from '../errors.js';
import type { PreparedSearchColumns } from '../search/search-service.js';
import { restoreSnapshot, type SharedTree } from './read-snapshot.js';
import { snapshotImage } from './write-snapshot.js';

/** Bytes per read call (a single call takes at most 2 GiB). */
const MAX_READ = 1 << 30;

export interface SharedSnapshot {
  /** The whole snapshot, a view of a SharedArrayBuffer. */
  readonly bytes: Uint8Array;
  /** The kd-tree section in its own SharedArrayBuffer. */
  readonly tree: SharedArrayBuffer;
  /** The search's derived columns, each in its own SharedArrayBuffer (read-only). */
  readonly search: PreparedSearchColumns;
  /** Used in error messages (the file's path). */
  readonly name: string;
}

/** Copies `bytes` (a snapshot) into shared memory; throws as restoreSnapshot does for a bad snapshot. */
export function shareSnapshot(bytes: Uint8Array, name: string): SharedSnapshot {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return sharedOver(shared, name);
}

/**
 * The snapshot of `engine` laid out straight into shared memory (no file on the way, so
 * nothing to tidy up if the process is stopped); `name` is used in error messages. Throws
 * RangeError for a snapshot over 2 GiB, as {@link snapshotImage} does.
 */
export function shareEngine(engine: Engine, name: string): SharedSnapshot {
  return sharedOver(snapshotImage(engine, { shared: true }), name);
}

/** Reads the snapshot file at `path` straight into shared memory (no private copy on the way). */
export function readSharedSnapshot(path: string): SharedSnapshot {
  let shared: Uint8Array;
  try {
    const fd = openSync(path, 'r');
    try {
      shared = new Uint8Array(new SharedArrayBuffer(fstatSync(fd).size));
      for (let at = 0; at < shared.length; ) {
        const n = readSync(fd, shared, at, Math.min(MAX_READ, shared.length - at), at);
        if (n === 0) throw new Error(`the file ended at byte ${at} of ${shared.length} while being read`);
        at += n;
      }
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    const why = isFileError(e) ? fileProblem(e) : (e as Error).message;
    throw new VenueSearchError('invalid_data', `cannot read snapshot ${path}: ${why}`, { file: path, param: 'path', value: path });
  }
  return sharedOver(shared, path);
}

function sharedOver(shared: Uint8Array, name: string): SharedSnapshot {
  const box: SharedTree = {};
  const prepared = restoreSnapshot(shared, name, {}, {}, box).searcher().prepared();
  const search: PreparedSearchColumns = {
    termBits: sharedCopy(prepared.termBits, Uint32Array),
    vibeBits: sharedCopy(prepared.vibeBits, Uint32Array),
    occupiedCells: sharedCopy(prepared.occupiedCells, Uint8Array),
  };
  return { bytes: shared, tree: box.tree!, search, name };
}

function sharedCopy<T extends Uint32Array | Uint8Array>(from: T, C: new (buffer: SharedArrayBuffer) => T): T {
  const to = new C(new SharedArrayBuffer(from.byteLength));
  to.set(from);
  return to;
}

/** An engine over the shared snapshot (in any thread that received it): views, no copy. */
export function restoreShared(snapshot: SharedSnapshot, options: EngineOptions = {}): Engine {
  return restoreSnapshot(snapshot.bytes, snapshot.name, options, { search: snapshot.search }, { tree: snapshot.tree });
}
