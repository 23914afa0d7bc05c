import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createEngine, type Engine } from '../engine.js';
import { VenueSearchError } from '../errors.js';
import {
  FORMAT_VERSION,
  IS_LITTLE_ENDIAN,
  MAGIC,
  PREFIX_BYTES,
  SECTION_NAMES,
  align8,
  type SectionEntry,
  type SectionName,
  type SectionType,
  type SnapshotHeader,
} from './snapshot-format.js';

export interface SnapshotProgress {
  /** Venues whose records have been written so far, of `total`. */
  readonly done: number;
  readonly total: number;
}

export interface WriteSnapshotOptions {
  /** Called every 50,000 venues and at the end. */
  readonly onProgress?: (p: SnapshotProgress) => void;
  /** Recorded in the header (informative). Default "venue-search". */
  readonly writtenBy?: string;
}

const FLUSH_BYTES = 8 << 20;
const PROGRESS_EVERY = 50_000;

/**
 * Writes `engine` to a snapshot file (format in snapshot-format.ts) that `readSnapshot`
 * loads without parsing records or building indexes. Builds the engine's opening-hours
 * tables and learnt places first if they are not built yet. Atomic: the file is written
 * under a temporary name and renamed into place, so a crash never leaves a half file at
 * `path`. Synchronous I/O (a tool's job, not the engine's hot path).
 */
export function writeSnapshot(engine: Engine, path: string, options: WriteSnapshotOptions = {}): void {
  const learnt = engine.hasDefaultPlaces ? engine.learntPlaces().toJSON() : null;
  // Live changes pending (docs/updates.md): write the current records, indexed afresh.
  const current = engine.pendingChanges > 0 ? createEngine([...engine.currentRecords()], { validate: false, places: null }) : engine;
  const { store, spatial } = current;
  const n = store.size;
  const tables = current.openingTables();
  const tmp = `${path}.${process.pid}.part`;
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (e) {
    throw new VenueSearchError('invalid_data', `cannot write snapshot ${path}: ${(e as Error).message}`, { param: 'path', value: path });
  }
  try {
    const writer = new SectionWriter(fd);
    const sections = {} as Record<SectionName, SectionEntry>;
    const put = (name: SectionName, array: ArrayBufferView, type: SectionType) => {
      sections[name] = writer.array(array, type);
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

    const blob = (name: SectionName, offsetsName: SectionName, text: (i: number) => string, progress: boolean) => {
      const offsets = new Float64Array(n + 1);
      const start = writer.beginBlob();
      for (let i = 0; i < n; i++) {
        writer.text(text(i));
        offsets[i + 1] = writer.position - start;
        if (progress && ((i + 1) % PROGRESS_EVERY === 0 || i + 1 === n)) options.onProgress?.({ done: i + 1, total: n });
      }
      sections[name] = writer.endBlob(start);
      put(offsetsName, offsets, 'Float64Array');
    };
    blob('records', 'recordOffsets', (i) => JSON.stringify(store.record(i)), true);
    blob('ids', 'idOffsets', (i) => wellFormed(store.id(i), 'id', store.id(i)), false);
    blob('names', 'nameOffsets', (i) => wellFormed(store.name(i), 'name', store.id(i)), false);
    if (n === 0) options.onProgress?.({ done: 0, total: 0 });

    for (const name of SECTION_NAMES) if (sections[name] === undefined) throw new Error(`snapshot section ${name} not written`);
    const header: SnapshotHeader = {
      format: FORMAT_VERSION,
      littleEndian: IS_LITTLE_ENDIAN,
      size: n,
      writtenBy: options.writtenBy ?? 'venue-search',
      termWords: store.terms.words,
      vibeWords: store.vibes.words,
      genreSpellings: store.genreSpellings,
      zoneNames: tables.zones.names,
      learntPlaces: learnt,
      sections,
    };
    const headerStart = writer.beginBlob();
    writer.text(JSON.stringify(header));
    const headerEnd = writer.position;
    writer.flush();
    const prefix = Buffer.alloc(PREFIX_BYTES);
    prefix.write(MAGIC, 0, 'latin1');
    prefix.writeDoubleLE(headerStart, 8);
    prefix.writeDoubleLE(headerEnd - headerStart, 16);
    writeSync(fd, prefix, 0, PREFIX_BYTES, 0);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw e;
  }
}

// An unpaired UTF-16 surrogate: UTF-8 cannot hold it, so the id or name would not come back.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `text` if it survives UTF-8; otherwise an error naming the venue and the field. */
function wellFormed(text: string, field: 'id' | 'name', recordId: string): string {
  if (!LONE_SURROGATE.test(text)) return text;
  throw new VenueSearchError('invalid_data', `venue ${JSON.stringify(recordId)}: its ${field} ${JSON.stringify(text)} holds an unpaired UTF-16 surrogate, which a snapshot (UTF-8) cannot keep; fix the ${field} in the data`, {
    param: field,
    value: text,
    recordId,
  });
}

/** Appends sections to the file, each starting at a multiple of 8 bytes. */
class SectionWriter {
  position = PREFIX_BYTES;
  private readonly fd: number;
  private chunks: Buffer[] = [];
  private pending = 0;
  private filePosition = PREFIX_BYTES;

  constructor(fd: number) {
    this.fd = fd;
  }

  array(a: ArrayBufferView, type: SectionType): SectionEntry {
    this.pad();
    const offset = this.position;
    this.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    return { offset, byteLength: a.byteLength, type };
  }

  beginBlob(): number {
    this.pad();
    return this.position;
  }

  text(s: string): void {
    this.push(Buffer.from(s, 'utf8'));
  }

  endBlob(start: number): SectionEntry {
    return { offset: start, byteLength: this.position - start, type: 'Uint8Array' };
  }

  flush(): void {
    if (this.pending === 0) return;
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.pending);
    let done = 0;
    while (done < all.length) done += writeSync(this.fd, all, done, all.length - done, this.filePosition + done);
    this.filePosition += all.length;
    this.chunks = [];
    this.pending = 0;
  }

  private pad(): void {
    const padded = align8(this.position);
    if (padded > this.position) this.push(Buffer.alloc(padded - this.position));
  }

  private push(b: Buffer): void {
    if (b.length === 0) return;
    if (b.length >= FLUSH_BYTES) {
      this.flush();
      let done = 0;
      while (done < b.length) done += writeSync(this.fd, b, done, b.length - done, this.filePosition + done);
      this.filePosition += b.length;
    } else {
      this.chunks.push(b);
      this.pending += b.length;
      if (this.pending >= FLUSH_BYTES) this.flush();
    }
    this.position += b.length;
  }
}
