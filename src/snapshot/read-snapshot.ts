import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import KDBush from 'kdbush';
import { checkEngineOptions, Engine, RestoredEngineParts, type EngineOptions } from '../engine.js';
import { IS_A_FOLDER, fileProblem } from '../data/file-problem.js';
import { checkCallOptions } from '../call-options.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { isPlainObject } from '../plain-data.js';
import { DensityGrid } from '../find/density-grid.js';
import { NameIndex } from '../find/name-index.js';
import { NAME_TOKENS_VERSION } from '../find/normalize-name.js';
import { ZONE_RULES_VERSION } from '../hours/zone-corrections.js';
import { zonesUnderCurrentRules } from '../hours/zones-under-current-rules.js';
import { HoursTable, ZoneTable } from '../hours/index.js';
import { LearntPlaces } from '../places/learnt-places.js';
import { checkRecordCacheSize, CompactRecordSource, type CompactRecordParts } from '../store/compact-records.js';
import type { PreparedSearchColumns } from '../search/search-service.js';
import { OccupiedCells } from '../search/swapped-hint.js';
import { VenueStore } from '../store/venue-store.js';
import { DERIVED_SECTION_NAMES, FORMAT_VERSION, isSnapshot, IS_LITTLE_ENDIAN, MAGIC, PREFIX_BYTES, SECTION_NAMES, type SectionEntry, type SectionName, type SectionType, type SnapshotHeader } from './snapshot-format.js';
import { firstNotBelow, rowStartsProblem } from './check-starts.js';
import { checkHeaderSeal } from './header-digest.js';
import { StringListDecoder } from './string-list.js';

type ArrayOf<T extends SectionType> = T extends 'Float64Array'
  ? Float64Array
  : T extends 'Uint32Array'
    ? Uint32Array
    : T extends 'Uint16Array'
      ? Uint16Array
      : Uint8Array;

const CONSTRUCTORS = { Float64Array, Uint32Array, Uint16Array, Uint8Array } as const;

/** Bytes per read call (a single call takes at most 2 GiB). */
const MAX_READ = 1 << 30;
const readAsync = promisify(read);
/** Largest part readSnapshotAsync reads ahead into one buffer (a typed array holds at most 4 GiB). */
const MAX_READ_AHEAD = 2 ** 31;

/** The words of the error for a snapshot of another format (the live service tells that case apart). */
export const SNAPSHOT_FORMAT_MISMATCH = 'this version reads format';

/**
 * Where a snapshot's bytes come from: `read(offset, length)` gives those bytes as a
 * Uint8Array, either filling an ArrayBuffer of its own (then it can be handed on as a
 * standalone buffer: {@link ownsBuffer}) or a view into a larger buffer.
 */
interface SnapshotBytes {
  readonly length: number;
  read(offset: number, length: number): Uint8Array;
}

/** Whether `bytes` fill their ArrayBuffer exactly (a section read into a buffer of its own). */
function ownsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/** A file read section by section, each into its own ArrayBuffer (no one buffer holds the file). */
function fileBytes(fd: number): SnapshotBytes {
  return {
    length: fstatSync(fd).size,
    read(offset, length) {
      const out = new Uint8Array(new ArrayBuffer(length));
      let done = 0;
      while (done < length) {
        const got = readSync(fd, out, done, Math.min(MAX_READ, length - done), offset + done);
        if (got === 0) throw new Error(`unexpected end of file at byte ${offset + done}`);
        done += got;
      }
      return out;
    },
  };
}

/** Bytes already in memory (views, not copies). */
function memoryBytes(bytes: Uint8Array): SnapshotBytes {
  return { length: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

/** readSnapshot's options: createEngine's but `validate` (a snapshot's records were validated when it was written). */
export type SnapshotReadOptions = Omit<EngineOptions, 'validate'>;

/** readSnapshot's and readSnapshotAsync's options: createEngine's but `validate`. */
const SNAPSHOT_READ_OPTIONS: readonly (keyof SnapshotReadOptions)[] = ['places', 'recordCacheSize'];

/**
 * Loads an engine from a snapshot written by `writeSnapshot`: each section is read into its
 * own buffer and used as it is (typed arrays, the kd-tree, the name index, the compact
 * records); nothing is parsed per venue and no index is built. The file may be larger than
 * one Buffer can hold (4 GiB). `options` as for createEngine (`validate` does not apply: the
 * records were validated when the snapshot's engine was built).
 *
 * Errors (`invalid_data`, naming the file): not a snapshot, another format version, another
 * byte order, a truncated file or a section that does not fit the venue count.
 */
export function readSnapshot(path: string, options: SnapshotReadOptions = {}): Engine {
  const fd = openSnapshotFile(path, options, 'readSnapshot');
  try {
    return toEnd(restore(fileBytes(fd), path, options));
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readSnapshot}, with the file read by libuv's thread pool while this thread goes on:
 * the event loop is free during the read; the restore then runs on this thread, as
 * readSnapshot's does (the same engine, the same errors). `serve` starts it before it loads
 * the HTTP packages, so that reading the file and compiling their modules overlap.
 *
 * The file is read in three parts, each into a buffer of its own: the bytes before the
 * kd-tree's section, the section (kdbush restores from a buffer that holds only its data),
 * and the bytes after it. Not one read per section: on two cores, 30 reads at once kept the
 * pool's four threads busy and took the main thread's core as well (1M venues, 180 MB: a
 * main thread busy for 250 ms was delayed 50 to 65 ms; with three reads, 0 to 5 ms).
 */
export async function readSnapshotAsync(path: string, options: SnapshotReadOptions = {}): Promise<Engine> {
  const fd = openSnapshotFile(path, options, 'readSnapshotAsync');
  try {
    const file = fileBytes(fd);
    // The prefix and header (a few KB), read and checked as the restore does: a damaged file is refused before its bulk is read.
    const tree = open(file, path).header.sections!.tree!;
    const treeEnd = tree.offset + tree.byteLength;
    const lengths = [tree.offset, tree.byteLength, file.length - treeEnd];
    // a part too large for one typed array (a file of several GiB): read section by section, as readSnapshot does
    if (lengths.some((length) => length > MAX_READ_AHEAD)) return toEnd(restore(file, path, options));
    // settled, all three, before the file is closed below (a failed read must not close it under the others)
    const reads = await Promise.allSettled([readAt(fd, 0, lengths[0]!), readAt(fd, tree.offset, lengths[1]!), readAt(fd, treeEnd, lengths[2]!)]);
    const parts = reads.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    });
    return toEnd(restore(readAheadBytes(file, parts), path, options));
  } finally {
    closeSync(fd);
  }
}

/**
 * The file at `path` opened for a snapshot read, after the checks of the call's arguments
 * (`fn`: the function whose options they are, named in a refusal).
 */
function openSnapshotFile(path: string, options: SnapshotReadOptions, fn: 'readSnapshot' | 'readSnapshotAsync'): number {
  // as writeSnapshot: a path given as anything but a non-empty string is the caller's mistake,
  // not a damaged file (audit 72c F6: a number was `invalid_data` with Node's words, the number in `file`)
  if (typeof path !== 'string' || path === '') throw new VenueSearchError('invalid_request', `path must be the snapshot file to read; got ${describeValue(path)}`, { param: 'path', value: path });
  // the records were validated when the snapshot was written; taking `validate` and ignoring it misled (audit 61d)
  if (isPlainObject(options) && (options as EngineOptions).validate !== undefined) {
    throw new VenueSearchError('invalid_request', `options.validate is not an option of ${fn} (its options: ${SNAPSHOT_READ_OPTIONS.join(', ')}): a snapshot's records were validated when it was written, and are not again; got ${describeValue((options as EngineOptions).validate)}`, {
      param: 'options.validate',
      value: (options as EngineOptions).validate,
    });
  }
  // its own options named in a refusal (audit 72c F6: the list named `validate`, refused above)
  checkCallOptions(options, SNAPSHOT_READ_OPTIONS);
  checkEngineOptions(options);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new VenueSearchError('invalid_data', `cannot read snapshot ${path}: ${fileProblem(e)}`, { file: path, param: 'path', value: path });
  }
  // Linux opens a folder for reading; its first read would fail with the system's EISDIR.
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new VenueSearchError('invalid_data', `cannot read snapshot ${path}: ${IS_A_FOLDER}`, { file: path, param: 'path', value: path });
  }
  return fd;
}

/** `length` bytes of the file at `offset`, into a buffer of their own, read by the thread pool. */
async function readAt(fd: number, offset: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(new ArrayBuffer(length));
  let done = 0;
  while (done < length) {
    const { bytesRead } = await readAsync(fd, out, done, Math.min(MAX_READ, length - done), offset + done);
    if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${offset + done}`);
    done += bytesRead;
  }
  return out;
}

/**
 * The file's bytes from `parts`, read ahead back to back from offset 0 (readSnapshotAsync): a
 * range inside one part is a view of it; one across two (only a damaged header names such a
 * section) is read from the file again.
 */
function readAheadBytes(file: SnapshotBytes, parts: readonly Uint8Array[]): SnapshotBytes {
  return {
    length: file.length,
    read(offset, length) {
      let start = 0;
      for (const part of parts) {
        if (offset >= start && offset + length <= start + part.length) return part.subarray(offset - start, offset - start + length);
        start += part.length;
      }
      return file.read(offset, length);
    },
  };
}

/**
 * The kd-tree section in its own SharedArrayBuffer, for engines of several threads restored
 * from one snapshot held in shared memory (shared-snapshot.ts): the first restore fills
 * `tree`, every later one uses it instead of a copy of its own.
 */
export interface SharedTree {
  tree?: SharedArrayBuffer;
}

/**
 * Parts of a snapshot's engine that its writer still holds in memory (a compaction worker),
 * handed over so that restoring does not copy or derive them again.
 */
export interface PrebuiltParts {
  /** The kd-tree's own buffer (`spatial.treeData` of the engine the snapshot was written from). */
  readonly tree?: ArrayBuffer | SharedArrayBuffer;
  /** The search's derived columns (MultiLocationSearch.prepared of that engine). */
  readonly search?: PreparedSearchColumns;
  /** An older version of find's name dictionary (sorted), whose equal words are reused rather than made again (StringListDecoder). */
  readonly nameTokens?: readonly string[];
}

/** {@link readSnapshot} over bytes already in memory (views of them are kept); `name` is used in error messages. */
export function restoreSnapshot(bytes: Uint8Array, name: string, options: EngineOptions = {}, prebuilt: PrebuiltParts = {}, sharedTree?: SharedTree): Engine {
  if (!(bytes instanceof Uint8Array)) throw new VenueSearchError('invalid_request', `bytes must be a snapshot's bytes (a Uint8Array or a Buffer); got ${describeValue(bytes)}`, { param: 'bytes', value: bytes });
  // a caller who gave no name (JavaScript): the messages name "the bytes given"
  return toEnd(restore(memoryBytes(bytes), typeof name === 'string' && name !== '' ? name : 'the bytes given', options, prebuilt, sharedTree));
}

/** The header's fields that are lists (of words, block lengths, key lists, shared values). */
const HEADER_LISTS = ['termWords', 'vibeWords', 'genreSpellings', 'zoneNames', 'recordBlocks', 'recordWords', 'recordShapes', 'recordShared'] as const;

/** The keys every record holds (its required fields). */
const REQUIRED_KEYS = ['id', 'name', 'location'] as const;

/** A snapshot whose prefix and header were read and checked: its sections, each read or viewed on demand. */
interface OpenedSnapshot {
  readonly header: SnapshotHeader;
  readonly bad: (why: string) => never;
  /** Whether the file holds section `s` (a derived section may be absent: snapshot-format.ts). */
  has(s: SectionName): boolean;
  bytesOf(s: SectionName): Uint8Array;
  view<T extends SectionType>(s: SectionName, type: T, length: number | null): ArrayOf<T>;
}

function open(file: SnapshotBytes, name: string): OpenedSnapshot {
  const bad = (why: string): never => {
    throw new VenueSearchError('invalid_data', `${name} is not a usable venue-search snapshot: ${why}`, { file: name, param: 'path', value: name });
  };
  const prefix = Buffer.from(file.read(0, Math.min(PREFIX_BYTES, file.length)));
  // cut inside the magic itself: truncated, not another kind of file
  if (prefix.length < MAGIC.length && prefix.length > 0 && MAGIC.startsWith(prefix.toString('latin1'))) bad(`it is truncated (file ${file.length} bytes)`);
  if (!isSnapshot(prefix)) bad(`it does not start with ${JSON.stringify(MAGIC)}`);
  if (prefix.length < PREFIX_BYTES) bad('it is truncated');
  const headerStart = prefix.readDoubleLE(8);
  const headerLength = prefix.readDoubleLE(16);
  // whole numbers: a flipped low bit made a fraction, which the reads below threw on as a RangeError (audit 70f F1)
  if (!(Number.isInteger(headerStart) && Number.isInteger(headerLength))) bad(`its header's place (offset ${headerStart}, length ${headerLength} bytes) is not in whole bytes`);
  if (!(headerStart >= PREFIX_BYTES && headerLength > 0 && headerStart + headerLength <= file.length)) {
    bad(`it is truncated (header at ${headerStart} + ${headerLength} bytes, file ${file.length} bytes)`);
  }
  const headerBytes = file.read(headerStart, headerLength);
  // before the parse: a damaged header that still parses (a shared value's key, a zone name) would answer wrongly
  const seal = checkHeaderSeal(headerBytes);
  if (seal.kind === 'damaged') bad(seal.why);
  let header: SnapshotHeader;
  try {
    header = JSON.parse(Buffer.from(headerBytes.buffer, headerBytes.byteOffset, headerBytes.byteLength).toString('utf8')) as SnapshotHeader;
  } catch {
    return bad('its header is not valid JSON');
  }
  if (header.format !== FORMAT_VERSION) bad(`format ${String(header.format)}, ${SNAPSHOT_FORMAT_MISMATCH} ${FORMAT_VERSION}; write it again from the NDJSON`);
  if (header.littleEndian !== IS_LITTLE_ENDIAN) bad('it was written on a machine of the other byte order');
  const n = header.size;
  if (!Number.isInteger(n) || n < 0) bad(`venue count ${String(n)}`);
  // a header key damaged (a flipped bit in its name) left the field absent, and the restore threw a TypeError (audit 69c F1's randomised pass)
  for (const key of HEADER_LISTS) if (!Array.isArray(header[key])) bad(`its header's ${key} is not a list`);
  // every record holds id, name and location (validated when written): a key list without one (but the builder's empty
  // list 0) is a key's name damaged, which made details throw a TypeError
  const badShape = header.recordShapes.findIndex((keys) => !(Array.isArray(keys) && keys.every((k) => typeof k === 'string') && (keys.length === 0 || REQUIRED_KEYS.every((k) => keys.includes(k)))));
  if (badShape >= 0) bad(`its header's recordShapes[${badShape}] is ${JSON.stringify(header.recordShapes[badShape])}, not a list of keys holding ${REQUIRED_KEYS.join(', ')} (nor empty)`);
  const sections = (header.sections ?? {}) as Readonly<Partial<Record<SectionName, SectionEntry>>>;
  const inFile = (e: SectionEntry) => e.offset >= PREFIX_BYTES && e.byteLength >= 0 && e.offset + e.byteLength <= headerStart;
  for (const s of SECTION_NAMES) {
    const e = sections[s];
    if (e === undefined || !inFile(e)) bad(`section ${s} is missing or outside the file`);
  }
  for (const s of DERIVED_SECTION_NAMES) {
    const e = sections[s];
    if (e !== undefined && !inFile(e)) bad(`section ${s} is outside the file`);
  }

  const entry = (s: SectionName): SectionEntry => sections[s] ?? bad(`section ${s} is missing`);
  const bytesOf = (s: SectionName): Uint8Array => {
    const e = entry(s);
    return file.read(e.offset, e.byteLength);
  };
  const view = <T extends SectionType>(s: SectionName, type: T, length: number | null): ArrayOf<T> => {
    const e = entry(s);
    if (e.type !== type) bad(`section ${s} holds ${e.type}, expected ${type}`);
    const C = CONSTRUCTORS[type];
    const count = e.byteLength / C.BYTES_PER_ELEMENT;
    if (!Number.isInteger(count) || (length !== null && count !== length)) bad(`section ${s} holds ${count} values, expected ${String(length)}`);
    const b = bytesOf(s);
    // A view needs its start aligned to the element size; otherwise copy the section.
    if (b.byteOffset % C.BYTES_PER_ELEMENT === 0) return new C(b.buffer as ArrayBuffer, b.byteOffset, count) as ArrayOf<T>;
    return new C(new Uint8Array(b).buffer, 0, count) as ArrayOf<T>;
  };
  return { header, bad, has: (s) => sections[s] !== undefined, bytesOf, view };
}

/** Find's name dictionary of a snapshot (sections nameTokenEnds and nameTokenText), to decode in steps. */
function nameTokenDecoder(snapshot: OpenedSnapshot, previous: readonly string[] | undefined): StringListDecoder {
  try {
    return new StringListDecoder({ ends: snapshot.view('nameTokenEnds', 'Uint32Array', null), text: snapshot.view('nameTokenText', 'Uint8Array', null) }, previous);
  } catch (e) {
    if (e instanceof VenueSearchError) throw e;
    return snapshot.bad(`its name dictionary (sections nameTokenEnds, nameTokenText) is damaged (${(e as Error).message})`);
  }
}

/**
 * Time a step of {@link restoreSnapshotInSteps} spends on the parts done in chunks before it
 * yields, ms. Fixed counts per step (15,000 name words, 100,000 record starts) took 0.5 to
 * 1.6 ms a step at 1M venues, but 2.4 to 5 ms for the first step of each, whose code had not
 * run since the previous swap (bench/live.ts, a compaction's swap on 2 busy cores).
 */
const STEP_BUDGET_MS = 1;
/** Chunks of a step, each well under the budget: strings of find's name dictionary, record starts checked, cells of find's density grid (a Map entry each). */
const TOKENS_PER_CHUNK = 2_000;
const STARTS_PER_CHUNK = 20_000;
const DENSITY_CELLS_PER_CHUNK = 4_000;
/** Entries of a row-starts column checked per chunk (rowStartsProblem). */
const ROW_STARTS_PER_CHUNK = 100_000;
/** Entries of a column of venue indices checked per chunk (firstNotBelow: idOrder, the kd-tree's ids). */
const VENUE_INDICES_PER_CHUNK = 100_000;

/**
 * Runs `part(from, to)` over `[0, total)` in chunks of `chunk`, yielding once a step has
 * taken {@link STEP_BUDGET_MS} (so a step takes at most the budget and one chunk).
 */
function* inChunks(total: number, chunk: number, part: (from: number, to: number) => void): Generator<void, void, void> {
  let stepStart = performance.now();
  for (let from = 0; from < total; from += chunk) {
    part(from, Math.min(total, from + chunk));
    if (performance.now() - stepStart >= STEP_BUDGET_MS) {
      yield;
      stepStart = performance.now();
    }
  }
}

/**
 * {@link restoreSnapshot} in steps, for a thread that serves queries meanwhile (a live
 * service's compaction swap): each `next()` does a part of the work (reading the header,
 * making find's name dictionary, checking the record starts, the store and kd-tree, the
 * opening-hours tables, the name index, the density grid, the engine; the dictionary, the
 * starts and the grid about a millisecond of work at a time: STEP_BUDGET_MS) and the last
 * returns the engine. Throws as restoreSnapshot does.
 */
export function restoreSnapshotInSteps(bytes: Uint8Array, name: string, options: EngineOptions = {}, prebuilt: PrebuiltParts = {}): Generator<void, Engine, void> {
  return restore(memoryBytes(bytes), name, options, prebuilt);
}

/** Runs a restore's steps to its end. */
function toEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

function* restore(file: SnapshotBytes, name: string, options: EngineOptions, prebuilt: PrebuiltParts = {}, sharedTree?: SharedTree): Generator<void, Engine, void> {
  const { recordCacheSize } = options;
  checkRecordCacheSize(recordCacheSize); // restoreShared's options are checked here only
  const snapshot = open(file, name);
  yield;
  const { header, bad, bytesOf, view } = snapshot;
  const n = header.size;

  const lat = view('lat', 'Float64Array', n);
  const lon = view('lon', 'Float64Array', n);
  const tokenDecoder = nameTokenDecoder(snapshot, prebuilt.nameTokens); // checks the dictionary's text is ASCII, else decodes it whole: a step of its own
  yield;
  yield* inChunks(tokenDecoder.count, TOKENS_PER_CHUNK, (from, to) => {
    try {
      tokenDecoder.next(to - from);
    } catch (e) {
      bad(`its name dictionary (sections nameTokenEnds, nameTokenText) is damaged (${(e as Error).message})`);
    }
  });
  yield;
  const tokens = tokenDecoder.result();
  const recordParts = recordPartsOf(header, view('recordStarts', 'Float64Array', n), view('records', 'Uint8Array', null), bad);
  yield* inChunks(n, STARTS_PER_CHUNK, (from, to) => {
    try {
      CompactRecordSource.checkStarts(recordParts, from, to);
    } catch (e) {
      bad(`its records are damaged (${(e as Error).message})`);
    }
  });
  yield;
  let records: CompactRecordSource;
  try {
    records = CompactRecordSource.fromParts(recordParts, lat, lon, true, recordCacheSize);
  } catch (e) {
    return bad(`its records are damaged (${(e as Error).message})`);
  }
  const termStart = view('termStart', 'Uint32Array', n + 1);
  const termCodes = view('termCodes', 'Uint16Array', null);
  yield* checkRowStarts('termStart', termStart, 'termCodes', termCodes.length, bad);
  const vibeStart = view('vibeStart', 'Uint32Array', n + 1);
  const vibeCodes = view('vibeCodes', 'Uint16Array', null);
  yield* checkRowStarts('vibeStart', vibeStart, 'vibeCodes', vibeCodes.length, bad);
  const idOrder = view('idOrder', 'Uint32Array', n);
  yield* checkVenueIndices('idOrder', idOrder, n, bad);
  const store = new VenueStore(
    {
      lat,
      lon,
      chain: view('chain', 'Uint8Array', n),
      caters: view('caters', 'Uint16Array', n),
      primaryGenre: view('primaryGenre', 'Uint16Array', n),
      termWords: header.termWords,
      termStart,
      termCodes,
      vibeWords: header.vibeWords,
      vibeStart,
      vibeCodes,
      genreSpellings: header.genreSpellings,
      ...genreCountsOf(header, bad),
      idOrder,
    },
    records,
  );
  // kdbush restores from a standalone buffer holding only its data: the tree its writer
  // handed over, the section when it was read into a buffer of its own, else a copy of it
  // (into shared memory when asked) unless a shared copy exists already (Buffer.slice would
  // not copy).
  const treeBytes = bytesOf('tree');
  if (sharedTree?.tree !== undefined && sharedTree.tree.byteLength !== treeBytes.byteLength) bad(`the shared kd-tree is ${sharedTree.tree.byteLength} bytes, its section ${treeBytes.byteLength}`);
  if (sharedTree !== undefined && sharedTree.tree === undefined) {
    sharedTree.tree = new SharedArrayBuffer(treeBytes.byteLength);
    new Uint8Array(sharedTree.tree).set(treeBytes);
  }
  const treeBuffer = prebuilt.tree ?? sharedTree?.tree ?? ((ownsBuffer(treeBytes) ? treeBytes.buffer : new Uint8Array(treeBytes).buffer) as ArrayBuffer);
  let tree: KDBush;
  try {
    tree = KDBush.from(treeBuffer);
  } catch (e) {
    return bad(`its kd-tree section is damaged (${(e as Error).message})`);
  }
  if (tree.numItems !== n) bad(`its kd-tree holds ${tree.numItems} points for ${n} venues`);
  yield* checkVenueIndices('tree', tree.ids, n, bad);
  yield;
  const scheduleOffsets = view('scheduleOffsets', 'Uint32Array', null);
  const intervals = view('intervals', 'Uint16Array', null);
  yield* checkRowStarts('scheduleOffsets', scheduleOffsets, 'intervals', intervals.length, bad);
  const hours = new HoursTable(view('scheduleOf', 'Uint32Array', n), scheduleOffsets, intervals);
  const storedZones = new ZoneTable(view('zoneCodes', 'Uint16Array', n), header.zoneNames);
  // Zones derived under older corrections are brought up to date (a snapshot keeps each venue's zone).
  const zones = header.zoneRules === ZONE_RULES_VERSION ? storedZones : zonesUnderCurrentRules(storedZones, store.lat, store.lon, (i) => store.record(i).timeZone).zones;
  let learnt: LearntPlaces | null;
  try {
    learnt = header.learntPlaces === null ? null : LearntPlaces.fromJSON(header.learntPlaces);
  } catch (e) {
    return bad(`its header's learntPlaces is damaged (${(e as Error).message})`);
  }
  yield;
  const postStart = view('namePostStart', 'Uint32Array', tokens.length + 1);
  const postVenue = view('namePostVenue', 'Uint32Array', null);
  yield* checkRowStarts('namePostStart', postStart, 'namePostVenue', postVenue.length, bad);
  const venueStart = view('nameVenueStart', 'Uint32Array', n + 1);
  const venueTok = view('nameVenueTok', 'Uint32Array', null);
  yield* checkRowStarts('nameVenueStart', venueStart, 'nameVenueTok', venueTok.length, bad);
  let names: NameIndex;
  try {
    names = new NameIndex({ tokens, postStart, postVenue, postInfo: view('namePostInfo', 'Uint8Array', postVenue.length), venueStart, venueTok });
  } catch (e) {
    return bad(`its name index is damaged (${(e as Error).message})`);
  }
  yield;
  const densityCells = view('densityCells', 'Float64Array', null);
  const densityCounts = view('densityCounts', 'Uint32Array', densityCells.length);
  const density = DensityGrid.empty();
  yield* inChunks(densityCells.length, DENSITY_CELLS_PER_CHUNK, (from, to) => density.addCells(densityCells, densityCounts, from, to));
  yield;
  const leavesSorted = header.leavesSortedByLat === true ? true : undefined;
  const positionsAreVenues = header.positionsAreVenues === true ? true : undefined;
  // A name index cut into words by other rules than this version's is built again at the first find.
  const cells = snapshot.has('namePostCells') ? view('namePostCells', 'Uint32Array', postVenue.length) : undefined;
  const find = header.nameRules === NAME_TOKENS_VERSION ? { names, density, cells } : null;
  return new Engine(new RestoredEngineParts(store, tree, hours, zones, learnt, find, prebuilt.search ?? derivedSearchColumns(snapshot, n), leavesSorted, positionsAreVenues), options);
}

/** The search's derived columns the file holds (snapshot-format.ts), or none: then derived at warm() or the first search. */
function derivedSearchColumns({ has, view }: OpenedSnapshot, n: number): PreparedSearchColumns | undefined {
  if (!(has('termBits') && has('vibeBits') && has('occupiedCells'))) return undefined;
  return {
    termBits: view('termBits', 'Uint32Array', n),
    vibeBits: view('vibeBits', 'Uint32Array', n),
    occupiedCells: view('occupiedCells', 'Uint8Array', OccupiedCells.cellCount),
  };
}

/**
 * Refuses the file unless `starts` (section `startsName`) are the row starts of section
 * `dataName` of `dataLength` entries (check-starts.ts), checked in chunks of a step.
 */
function* checkRowStarts(startsName: SectionName, starts: Uint32Array, dataName: SectionName, dataLength: number, bad: (why: string) => never): Generator<void, void, void> {
  // an empty column has no chunk to check, and no row either
  if (starts.length === 0) bad(`section ${startsName} does not index section ${dataName}: ${rowStartsProblem(starts, dataLength)}`);
  yield* inChunks(starts.length, ROW_STARTS_PER_CHUNK, (from, to) => {
    const problem = rowStartsProblem(starts, dataLength, from, to);
    if (problem !== null) bad(`section ${startsName} does not index section ${dataName}: ${problem}`);
  });
}

/**
 * Refuses the file unless every value of `column` (section `name`) is a venue index (below
 * `n`), checked in chunks of a step.
 */
function* checkVenueIndices(name: SectionName, column: ArrayLike<number>, n: number, bad: (why: string) => never): Generator<void, void, void> {
  yield* inChunks(column.length, VENUE_INDICES_PER_CHUNK, (from, to) => {
    const k = firstNotBelow(column, n, from, to);
    if (k >= 0) bad(`section ${name} holds venue ${column[k]} at ${k}, past its ${n} venues`);
  });
}

/** The store's genreCounts from the header (none when the file predates them), checked. */
function genreCountsOf(header: SnapshotHeader, bad: (why: string) => never): { genreCounts?: ReadonlyMap<string, number> } {
  const pairs = header.genreCounts;
  if (pairs === undefined) return {};
  const counts = new Map<string, number>();
  if (!Array.isArray(pairs)) bad('its genreCounts is not a list');
  for (const pair of pairs) {
    if (!(Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && Number.isInteger(pair[1]) && pair[1] > 0 && pair[1] <= header.size && !counts.has(pair[0]))) {
      bad(`its genreCounts holds ${JSON.stringify(pair)}, not a genre word (once) and a count of 1 to ${header.size} venues`);
    }
    counts.set(pair[0], pair[1]);
  }
  return { genreCounts: counts };
}

/** The compact records' parts: the `records` section cut into the header's blocks (the starts not checked yet). */
function recordPartsOf(header: SnapshotHeader, starts: Float64Array, bytes: Uint8Array, bad: (why: string) => never): CompactRecordParts {
  const blocks: Uint8Array[] = [];
  let at = 0;
  for (const length of header.recordBlocks) {
    if (!(Number.isInteger(length) && length >= 0 && at + length <= bytes.length)) bad('its record blocks do not fit section records');
    blocks.push(bytes.subarray(at, at + length));
    at += length;
  }
  if (at !== bytes.length) bad('its record blocks do not span section records');
  const written = header.recordsWritten;
  if (written !== undefined && !(Number.isInteger(written) && written >= starts.length)) bad(`its recordsWritten ${JSON.stringify(written)} is not a count of at least its ${starts.length} venues`);
  return { blocks, starts, words: header.recordWords, shapes: header.recordShapes, shared: header.recordShared, recordsWritten: written ?? starts.length };
}
