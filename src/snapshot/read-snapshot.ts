import { readFileSync } from 'node:fs';
import KDBush from 'kdbush';
import { Engine, RestoredEngineParts, type EngineOptions } from '../engine.js';
import { VenueSearchError } from '../errors.js';
import { HoursTable, ZoneTable } from '../hours/index.js';
import { LearntPlaces } from '../places/learnt-places.js';
import type { PreparedSearchColumns } from '../search/search-service.js';
import { VenueStore } from '../store/venue-store.js';
import { FORMAT_VERSION, IS_LITTLE_ENDIAN, MAGIC, PREFIX_BYTES, SECTION_NAMES, type SectionName, type SnapshotHeader } from './snapshot-format.js';
import { SnapshotRecordSource, type TextBlob } from './snapshot-records.js';

type ArrayOf<T extends string> = T extends 'Float64Array'
  ? Float64Array
  : T extends 'Uint32Array'
    ? Uint32Array
    : T extends 'Uint16Array'
      ? Uint16Array
      : Uint8Array;

const CONSTRUCTORS = { Float64Array, Uint32Array, Uint16Array, Uint8Array } as const;

/** Whether `bytes` (a file's first bytes) start like a snapshot. */
export function isSnapshot(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && Buffer.from(bytes.subarray(0, MAGIC.length)).toString('latin1') === MAGIC;
}

/**
 * Loads an engine from a snapshot written by `writeSnapshot`: one read of the file, then
 * typed-array views of its sections (copied only where a section is misaligned in memory)
 * and the kd-tree restored from its own bytes. Records stay JSON until asked for (see
 * SnapshotRecordSource). `options` as for createEngine (`validate` does not apply: the
 * records were validated when the snapshot's engine was built).
 *
 * Errors (`invalid_data`, naming the file): not a snapshot, another format version, another
 * byte order, a truncated file or a section that does not fit the venue count.
 */
export function readSnapshot(path: string, options: EngineOptions = {}): Engine {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (e) {
    throw new VenueSearchError('invalid_data', `cannot read snapshot ${path}: ${(e as Error).message}`, { param: 'path', value: path });
  }
  return restoreSnapshot(file, path, options);
}

/**
 * Parts of a snapshot's engine that its writer still holds in memory (a compaction worker),
 * handed over so that restoring does not copy or derive them again.
 */
export interface PrebuiltParts {
  /** The kd-tree's own buffer (`spatial.treeData` of the engine the snapshot was written from). */
  readonly tree?: ArrayBuffer;
  /** The search's derived columns (MultiLocationSearch.prepared of that engine). */
  readonly search?: PreparedSearchColumns;
}

/** {@link readSnapshot} over bytes already in memory; `name` is used in error messages. */
export function restoreSnapshot(bytes: Uint8Array, name: string, options: EngineOptions = {}, prebuilt: PrebuiltParts = {}): Engine {
  // Buffer's readers (readDoubleLE, toString) over the caller's bytes, without a copy; the
  // public type is Uint8Array so that consumers need no Node typings.
  const file = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bad = (why: string): never => {
    throw new VenueSearchError('invalid_data', `${name} is not a usable venue-search snapshot: ${why}`, { param: 'path', value: name });
  };
  if (!isSnapshot(file)) bad(`it does not start with ${JSON.stringify(MAGIC)}`);
  if (file.length < PREFIX_BYTES) bad('it is truncated');
  const headerStart = file.readDoubleLE(8);
  const headerLength = file.readDoubleLE(16);
  if (!(headerStart >= PREFIX_BYTES && headerLength > 0 && headerStart + headerLength <= file.length)) {
    bad(`it is truncated (header at ${headerStart} + ${headerLength} bytes, file ${file.length} bytes)`);
  }
  let header: SnapshotHeader;
  try {
    header = JSON.parse(file.toString('utf8', headerStart, headerStart + headerLength)) as SnapshotHeader;
  } catch {
    return bad('its header is not valid JSON');
  }
  if (header.format !== FORMAT_VERSION) bad(`format ${String(header.format)}, this version reads format ${FORMAT_VERSION}; write it again from the NDJSON`);
  if (header.littleEndian !== IS_LITTLE_ENDIAN) bad('it was written on a machine of the other byte order');
  const n = header.size;
  if (!Number.isInteger(n) || n < 0) bad(`venue count ${String(n)}`);
  for (const s of SECTION_NAMES) {
    const e = header.sections?.[s];
    if (e === undefined || !(e.offset >= PREFIX_BYTES && e.byteLength >= 0 && e.offset + e.byteLength <= headerStart)) bad(`section ${s} is missing or outside the file`);
  }

  const view = <T extends 'Float64Array' | 'Uint32Array' | 'Uint16Array' | 'Uint8Array'>(s: SectionName, type: T, length: number | null): ArrayOf<T> => {
    const e = header.sections[s];
    if (e.type !== type) bad(`section ${s} holds ${e.type}, expected ${type}`);
    const C = CONSTRUCTORS[type];
    const count = e.byteLength / C.BYTES_PER_ELEMENT;
    if (!Number.isInteger(count) || (length !== null && count !== length)) bad(`section ${s} holds ${count} values, expected ${String(length)}`);
    const at = file.byteOffset + e.offset;
    const buffer = file.buffer as ArrayBuffer;
    // A view needs its start aligned to the element size; otherwise copy the section.
    if (at % C.BYTES_PER_ELEMENT === 0) return new C(buffer, at, count) as ArrayOf<T>;
    return new C(buffer.slice(at, at + e.byteLength)) as ArrayOf<T>;
  };
  const blob = (s: SectionName, offsets: SectionName): TextBlob => {
    const o = view(offsets, 'Float64Array', n + 1);
    const e = header.sections[s];
    if (o[0] !== 0 || o[n] !== e.byteLength) bad(`the offsets of section ${s} do not span it`);
    return { bytes: file.subarray(e.offset, e.offset + e.byteLength), offsets: o };
  };

  const termStart = view('termStart', 'Uint32Array', n + 1);
  const vibeStart = view('vibeStart', 'Uint32Array', n + 1);
  const source = new SnapshotRecordSource(blob('records', 'recordOffsets'), blob('ids', 'idOffsets'), blob('names', 'nameOffsets'));
  const store = new VenueStore(
    {
      lat: view('lat', 'Float64Array', n),
      lon: view('lon', 'Float64Array', n),
      chain: view('chain', 'Uint8Array', n),
      caters: view('caters', 'Uint16Array', n),
      primaryGenre: view('primaryGenre', 'Uint16Array', n),
      termWords: header.termWords,
      termStart,
      termCodes: view('termCodes', 'Uint16Array', termStart[n] ?? 0),
      vibeWords: header.vibeWords,
      vibeStart,
      vibeCodes: view('vibeCodes', 'Uint16Array', vibeStart[n] ?? 0),
      genreSpellings: header.genreSpellings,
      idOrder: view('idOrder', 'Uint32Array', n),
    },
    source,
  );
  // kdbush restores from a standalone ArrayBuffer holding only its data: copy the section.
  const treeEntry = header.sections.tree;
  const treeStart = file.byteOffset + treeEntry.offset;
  let tree: KDBush;
  try {
    tree = KDBush.from(prebuilt.tree ?? (file.buffer as ArrayBuffer).slice(treeStart, treeStart + treeEntry.byteLength));
  } catch (e) {
    return bad(`its kd-tree section is damaged (${(e as Error).message})`);
  }
  if (tree.numItems !== n) bad(`its kd-tree holds ${tree.numItems} points for ${n} venues`);
  const hours = new HoursTable(view('scheduleOf', 'Uint32Array', n), view('scheduleOffsets', 'Uint32Array', null), view('intervals', 'Uint16Array', null));
  const zones = new ZoneTable(view('zoneCodes', 'Uint16Array', n), header.zoneNames);
  const learnt = header.learntPlaces === null ? null : LearntPlaces.fromJSON(header.learntPlaces);
  return new Engine(new RestoredEngineParts(store, tree, hours, zones, learnt, prebuilt.search), options);
}
