import { closeSync, lstatSync, openSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createEngine, Engine } from '../engine.js';
import { isFileError, writeProblem } from '../data/file-problem.js';
import { partFileProblem } from '../data/replaced-file.js';
import { checkCallOptions } from '../call-options.js';
import { NAME_TOKENS_VERSION } from '../find/normalize-name.js';
import { ZONE_RULES_VERSION } from '../hours/zone-corrections.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { CompactRecordsBuilder } from '../store/compact-records-builder.js';
import { CompactRecordSource } from '../store/compact-records.js';
import type { VenueStore } from '../store/venue-store.js';
import {
  FORMAT_VERSION,
  IS_LITTLE_ENDIAN,
  MAGIC,
  PREFIX_BYTES,
  SECTION_NAMES,
  DERIVED_SECTION_NAMES,
  align8,
  type SectionEntry,
  type SectionName,
  type SectionType,
  type SnapshotHeader,
} from './snapshot-format.js';
import { snapshotTarget } from './snapshot-target.js';
import { encodeStrings } from './string-list.js';
import { sealHeader } from './header-digest.js';

export interface SnapshotProgress {
  /** Venues whose records have been written so far, of `total`. */
  readonly done: number;
  readonly total: number;
}

export interface WriteSnapshotOptions {
  /** Called after each block of records (64 MB) and at the end. */
  readonly onProgress?: ((p: SnapshotProgress) => void) | undefined;
  /** Recorded in the header (informative). Default "venue-search". */
  readonly writtenBy?: string | undefined;
}

/** The keys of {@link WriteSnapshotOptions} (a misspelt one is refused, naming it). */
const WRITE_SNAPSHOT_OPTIONS: readonly string[] = ['onProgress', 'writtenBy'] satisfies ReadonlyArray<keyof WriteSnapshotOptions>;

/** Bytes per write call (a single call takes at most 2 GiB). */
const MAX_WRITE = 1 << 30;

/**
 * Writes `engine` to a snapshot file (format in snapshot-format.ts) that `readSnapshot`
 * loads without parsing records or building indexes. Builds what is not built yet (the
 * opening-hours tables, find's name index and density grid, the learnt places), then writes
 * each section straight from the engine's typed arrays and record blocks. Atomic: the file
 * is written under a temporary name and renamed into place, so a crash never leaves a half
 * file at `path`. The temporary file is `<path>.<pid>.part`; one left by a writer whose
 * process is gone (killed mid-write) is removed once this write is in place. Synchronous
 * I/O (a tool's job, not the engine's hot path). A symbolic link at `path` is followed (its
 * target is replaced, the link kept), a replaced file's permission bits are kept, and a path
 * that is not a regular file (a device, a pipe, a folder) is refused before any work
 * (snapshot-target.ts).
 *
 * Errors (`invalid_data`): a path that cannot be written; an id or name holding an unpaired
 * UTF-16 surrogate (named with its venue), which the snapshot's readers expect to be UTF-8.
 */
export function writeSnapshot(engine: Engine, path: string, options: WriteSnapshotOptions = {}): void {
  checkCallOptions(options, WRITE_SNAPSHOT_OPTIONS);
  if (!(engine instanceof Engine)) throw new VenueSearchError('invalid_request', `engine must be an engine (createEngine, readSnapshot); got ${describeValue(engine)}`, { param: 'engine', value: engine });
  if (typeof path !== 'string' || path === '') throw new VenueSearchError('invalid_request', `path must be the snapshot file to write; got ${describeValue(path)}`, { param: 'path', value: path });
  const target = snapshotTarget(path);
  const parts = layOut(engine, options);
  const tmp = `${target.file}.${process.pid}.part`;
  let fd: number;
  try {
    fd = openSync(tmp, 'w', target.mode);
  } catch (e) {
    throw new VenueSearchError('invalid_data', `cannot write snapshot ${path}: ${partFileProblem(e, target.file)}`, { file: path, param: 'path', value: path });
  }
  try {
    parts.write((bytes, at) => writeAll(fd, bytes, at));
    closeSync(fd);
    renameSync(tmp, target.file);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    if (isFileError(e)) throw new VenueSearchError('invalid_data', `cannot write snapshot ${path}: ${writeProblem(e)}`, { file: path, param: 'path', value: path });
    throw e;
  }
  removeAbandonedParts(target.file);
}

/** Removes `<path>.<pid>.part` files whose writer's process no longer runs (best effort: a file that cannot be removed stays). */
function removeAbandonedParts(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.part')) continue;
    const pid = name.slice(prefix.length, -'.part'.length);
    if (!/^[1-9]\d*$/.test(pid) || processRuns(Number(pid))) continue;
    const part = join(dir, name);
    try {
      // a regular file only: a folder of that name is someone's, not an abandoned write
      if (lstatSync(part).isFile()) unlinkSync(part);
    } catch {
      // best effort (not ours to remove, gone meanwhile): the snapshot itself is written
    }
  }
}

/** Whether a process with this id runs on this machine (signal 0 checks without sending anything). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface SnapshotImageOptions extends WriteSnapshotOptions {
  /** The image in a SharedArrayBuffer (default: an ArrayBuffer of its own). */
  readonly shared?: boolean;
}

/**
 * The bytes of the snapshot file {@link writeSnapshot} would write, in one buffer of its own
 * (for a compaction worker that writes the file and hands the same bytes over: no read-back).
 * Throws RangeError for a snapshot over 2 GiB (write those with writeSnapshot).
 */
export function snapshotImage(engine: Engine, options: SnapshotImageOptions = {}): Uint8Array {
  const parts = layOut(engine, options);
  if (parts.length > 2 ** 31) throw new RangeError(`a snapshot of ${parts.length} bytes is over 2 GiB: write it with writeSnapshot`);
  const image = new Uint8Array(options.shared === true ? new SharedArrayBuffer(parts.length) : new ArrayBuffer(parts.length));
  parts.write((bytes, at) => image.set(bytes, at));
  return image;
}

/** A snapshot laid out: its length in bytes, and `write(put)` puts every byte range at its file position (each once). */
interface LaidOut {
  readonly length: number;
  write(put: (bytes: Uint8Array, at: number) => void): void;
}

/** Builds what is not built yet and lays the sections out (nothing is copied: the ranges are the engine's arrays). */
function layOut(engine: Engine, options: WriteSnapshotOptions): LaidOut {
  const learnt = engine.hasDefaultPlaces ? engine.learntPlaces().toJSON() : null;
  // Live changes pending (docs/updates.md): write the current records, indexed afresh.
  const current = engine.pendingChanges > 0 ? createEngine([...engine.heldRecords()], { validate: false, places: null }) : engine;
  const { store, spatial } = current;
  const n = store.size;
  const records = compactRecords(store);
  const malformed = records.firstMalformedIdOrName();
  if (malformed !== null) unpairedSurrogate(store, malformed.index, malformed.field);
  const tables = current.openingTables();
  const find = current.findStructures();
  const names = find.names.parts();
  const density = find.density.cells();
  const compact = records.parts();
  const writer = new SectionWriter();
  const sections = {} as Record<SectionName, SectionEntry>;
  const put = (name: SectionName, array: ArrayBufferView, type: SectionType) => {
    sections[name] = writer.section([array], type);
  };
  put('lat', store.lat, 'Float64Array');
  put('lon', store.lon, 'Float64Array');
  put('chain', store.chain, 'Uint8Array');
  put('caters', store.caters, 'Uint16Array');
  put('primaryGenre', store.primaryGenre, 'Uint16Array');
  put('termStart', store.termStart, 'Uint32Array');
  put('termCodes', store.termCodes, 'Uint16Array');
  put('vibeStart', store.vibeStart, 'Uint32Array');
  put('vibeCodes', store.vibeCodes, 'Uint16Array');
  put('idOrder', store.idsInOrder(), 'Uint32Array');
  put('tree', new Uint8Array(spatial.treeData), 'Uint8Array');
  put('scheduleOf', tables.hours.scheduleOf, 'Uint32Array');
  put('scheduleOffsets', tables.hours.offsets, 'Uint32Array');
  put('intervals', tables.hours.intervals, 'Uint16Array');
  put('zoneCodes', tables.zones.codes, 'Uint16Array');
  put('recordStarts', compact.starts, 'Float64Array');
  sections.records = writer.section(compact.blocks, 'Uint8Array', (k) => {
    if (n > 0) options.onProgress?.({ done: records.recordsBeforeBlock(k + 1), total: n });
  });
  put('namePostStart', names.postStart, 'Uint32Array');
  put('namePostVenue', names.postVenue, 'Uint32Array');
  put('namePostInfo', names.postInfo, 'Uint8Array');
  put('nameVenueStart', names.venueStart, 'Uint32Array');
  put('nameVenueTok', names.venueTok, 'Uint32Array');
  const tokens = encodeStrings(names.tokens);
  put('nameTokenEnds', tokens.ends, 'Uint32Array');
  put('nameTokenText', tokens.text, 'Uint8Array');
  put('densityCells', density.cells, 'Float64Array');
  put('densityCounts', density.counts, 'Uint32Array');
  // derived (snapshot-format.ts): what the reader's engine would otherwise derive at its warm()
  const search = current.searcher().prepared();
  put('termBits', search.termBits, 'Uint32Array');
  put('vibeBits', search.vibeBits, 'Uint32Array');
  put('occupiedCells', search.occupiedCells, 'Uint8Array');
  put('namePostCells', find.cells!, 'Uint32Array');

  for (const name of [...SECTION_NAMES, ...DERIVED_SECTION_NAMES]) if (sections[name] === undefined) throw new Error(`snapshot section ${name} not written`);
  const header: SnapshotHeader = {
    format: FORMAT_VERSION,
    littleEndian: IS_LITTLE_ENDIAN,
    size: n,
    writtenBy: options.writtenBy ?? 'venue-search',
    termWords: store.terms.words,
    vibeWords: store.vibes.words,
    genreSpellings: store.genreSpellings,
    ...(store.genreCounts !== null ? { genreCounts: [...store.genreCounts] } : {}),
    zoneNames: tables.zones.names,
    learntPlaces: learnt,
    recordBlocks: compact.blocks.map((b) => b.byteLength),
    recordWords: compact.words,
    recordShapes: compact.shapes,
    recordShared: compact.shared,
    recordsWritten: compact.recordsWritten ?? n,
    leavesSortedByLat: spatial.leavesSortedByLat,
    positionsAreVenues: spatial.positionsAreVenues,
    nameRules: NAME_TOKENS_VERSION,
    zoneRules: ZONE_RULES_VERSION,
    sections,
  };
  const text = Buffer.from(sealHeader(JSON.stringify(header)), 'utf8');
  const headerEntry = writer.section([text], 'Uint8Array');
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeDoubleLE(headerEntry.offset, 8);
  prefix.writeDoubleLE(headerEntry.byteLength, 16);
  writer.put(prefix, 0);
  return {
    length: writer.length,
    write: (sink) => {
      writer.flush(sink);
      if (n === 0) options.onProgress?.({ done: 0, total: 0 });
    },
  };
}

/** The store's records in compact form: its own, or (a store over other records) encoded here. */
function compactRecords(store: VenueStore): CompactRecordSource {
  if (store.source instanceof CompactRecordSource) return store.source;
  const builder = new CompactRecordsBuilder(store.size);
  for (let i = 0; i < store.size; i++) builder.add(store.record(i), store.lat[i]!, store.lon[i]!);
  return builder.finish(store.lat, store.lon);
}

/** Throws the error for an id or name that UTF-8 cannot hold, naming the venue and the field. */
function unpairedSurrogate(store: VenueStore, i: number, field: 'id' | 'name'): never {
  const recordId = store.id(i);
  const text = field === 'id' ? recordId : store.name(i);
  throw new VenueSearchError('invalid_data', `venue ${JSON.stringify(recordId)}: its ${field} ${JSON.stringify(text)} holds an unpaired UTF-16 surrogate, which a snapshot (UTF-8) cannot keep; fix the ${field} in the data`, {
    param: field,
    value: text,
    recordId,
  });
}

function writeAll(fd: number, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, Math.min(MAX_WRITE, bytes.length - done), at + done);
}

const ZEROS = new Uint8Array(8);

/**
 * Lays sections out one after the other, each starting at a multiple of 8 bytes, then puts
 * every byte range at its position in one pass (`flush`), calling each section part's
 * `onPart` after it is put.
 */
class SectionWriter {
  private position = PREFIX_BYTES;
  private readonly ranges: Array<{ bytes: Uint8Array; at: number; done?: () => void }> = [];

  get length(): number {
    return this.position;
  }

  /** One section: `parts` one after the other; `onPart(k)` once part k is put. */
  section(parts: readonly ArrayBufferView[], type: SectionType, onPart?: (k: number) => void): SectionEntry {
    const padded = align8(this.position);
    if (padded > this.position) this.ranges.push({ bytes: ZEROS.subarray(0, padded - this.position), at: this.position });
    this.position = padded;
    const offset = this.position;
    for (let k = 0; k < parts.length; k++) {
      const a = parts[k]!;
      this.ranges.push({ bytes: new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at: this.position, ...(onPart !== undefined ? { done: () => onPart(k) } : {}) });
      this.position += a.byteLength;
    }
    return { offset, byteLength: this.position - offset, type };
  }

  /** A range of its own at `at` (the prefix, inside the space reserved before the sections). */
  put(bytes: Uint8Array, at: number): void {
    this.ranges.push({ bytes, at });
  }

  flush(sink: (bytes: Uint8Array, at: number) => void): void {
    for (const r of this.ranges) {
      sink(r.bytes, r.at);
      r.done?.();
    }
  }
}
