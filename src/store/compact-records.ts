import { describeValue, VenueSearchError } from '../errors.js';
import type { VenueRecord } from '../schema/venue.js';
import { FieldSlot, fieldSlots, isListSlot, setField, type EstablishmentFields } from './establishment-fields.js';
import { BLOCK_STRIDE, deepFreeze, Tag, thawedCopy } from './compact-format.js';
import type { RecordWriter } from './compact-record-writer.js';
import type { PickedFields } from './picked-fields.js';
import type { RecordSource } from './record-source.js';

/**
 * UTF-8 text of `buf[start, end)`. Buffer's own `utf8Slice` (what `toString('utf8', ...)`
 * calls after checking its arguments; on Buffer.prototype since Node 0.x, though not in its
 * typings) saves about half the cost of a short text: a response record reads two to four.
 */
type SliceableBuffer = Buffer & { utf8Slice?: (start: number, end: number) => string };
const HAS_UTF8_SLICE = typeof (Buffer.prototype as SliceableBuffer).utf8Slice === 'function';
function utf8Slice(buf: Buffer, start: number, end: number): string {
  return HAS_UTF8_SLICE ? (buf as SliceableBuffer).utf8Slice!(start, end) : buf.toString('utf8', start, end);
}

/**
 * Decoded records kept by default, direct-mapped by index (a power of two): records that
 * details, find and opening states read (search pages are read from the bytes, `fields`).
 * serve's engine threads keep fewer (ENGINE_THREAD_RECORD_CACHE in src/service/engine-pool.ts).
 */
export const DEFAULT_RECORD_CACHE_SIZE = 4096;

/** Bytes of a CPU cache line (x86-64 and most ARM cores), the unit of {@link CompactRecordSource.touch}'s reads. */
const CACHE_LINE_BYTES = 64;

/** Largest record cache, entries (a cache this size of full records would be hundreds of MB). */
const MAX_RECORD_CACHE_SIZE = 1 << 16;

/** Whether `n` is a record cache size: a power of two from 1 to MAX_RECORD_CACHE_SIZE. */
export function isRecordCacheSize(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_RECORD_CACHE_SIZE && (n & (n - 1)) === 0;
}

/** The `recordCacheSize` option checked (every engine that takes it: createEngine, createEngineFromFile, readSnapshot, restoreShared). */
export function checkRecordCacheSize(n: unknown): void {
  if (n !== undefined && !(typeof n === 'number' && isRecordCacheSize(n))) {
    throw new VenueSearchError('invalid_request', `recordCacheSize must be a power of two from 1 to ${MAX_RECORD_CACHE_SIZE}; got ${describeValue(n)}`, { param: 'recordCacheSize', value: n });
  }
}

/**
 * A {@link CompactRecordSource}'s contents, as a snapshot saves them (src/snapshot): the
 * blocks, each record's global start, and the dictionaries (JSON-safe values).
 */
export interface CompactRecordParts {
  readonly blocks: readonly Uint8Array[];
  readonly starts: Float64Array;
  readonly words: readonly string[];
  readonly shapes: readonly (readonly string[])[];
  readonly shared: readonly unknown[];
  /**
   * Records the blocks hold, those of no venue any more included (a compaction that keeps
   * its base's blocks: CompactRecordsBuilder.extending); the venues' count when absent.
   */
  readonly recordsWritten?: number;
}

/**
 * A source's codes renumbered into another builder's dictionaries (see {@link
 * CompactRecordSource.transcodeTo}). `shape` is asked first, once a record; `word` and
 * `plain` are then told the position of the value in that shape's key list (`plain`: a value
 * holding no code, with its tag).
 */
export interface RecordCodeMap {
  word(code: number, position: number): number;
  shape(code: number): number;
  shared(code: number): number;
  plain?(position: number, tag: Tag): void;
}

/** Reads the compact records (see the module comment). */
export class CompactRecordSource implements RecordSource {
  readonly length: number;
  private pos = 0;
  private block: Buffer;
  /** Record cache: slot `i & cacheMask` holds record `cacheIndex[slot]` (-1: empty). */
  private readonly cacheMask: number;
  private readonly cacheIndex: Int32Array;
  private readonly cacheRecord: (VenueRecord | undefined)[];
  /** Per shape code: the establishment slot of each of its keys (built when first read). */
  private readonly slotsOfShape: (Uint8Array | undefined)[];

  constructor(
    private readonly blocks: readonly Buffer[],
    private readonly starts: Float64Array,
    private readonly words: readonly string[],
    private readonly shapes: readonly (readonly string[])[],
    private readonly shared: readonly unknown[],
    private readonly lat: Float64Array,
    private readonly lon: Float64Array,
    /** Decoded records kept: a power of two (isRecordCacheSize). */
    recordCacheSize = DEFAULT_RECORD_CACHE_SIZE,
    /** See CompactRecordParts.recordsWritten (at least the venues' count). */
    readonly recordsWritten: number = starts.length,
  ) {
    if (!(Number.isInteger(recordsWritten) && recordsWritten >= starts.length)) throw new RangeError(`compact records: ${recordsWritten} records written, fewer than the ${starts.length} venues`);
    if (!isRecordCacheSize(recordCacheSize)) throw new RangeError(`compact records: record cache size must be a power of two from 1 to ${MAX_RECORD_CACHE_SIZE}; got ${recordCacheSize}`);
    this.cacheMask = recordCacheSize - 1;
    this.cacheIndex = new Int32Array(recordCacheSize).fill(-1);
    this.cacheRecord = new Array<VenueRecord | undefined>(recordCacheSize);
    this.length = starts.length;
    this.block = blocks[0] ?? Buffer.alloc(0);
    this.slotsOfShape = new Array<Uint8Array | undefined>(shapes.length).fill(undefined);
  }

  /**
   * Restores records saved from {@link parts} (a snapshot); `lat`/`lon` are the store's
   * columns. Shared values are deep-frozen here, as the builder freezes them.
   */
  static fromParts(
    parts: CompactRecordParts,
    lat: Float64Array,
    lon: Float64Array,
    startsChecked = false,
    recordCacheSize = DEFAULT_RECORD_CACHE_SIZE,
  ): CompactRecordSource {
    const { starts } = parts;
    if (lat.length !== starts.length) throw new RangeError(`compact records: ${starts.length} starts for ${lat.length} venues`);
    if (!startsChecked) CompactRecordSource.checkStarts(parts, 0, starts.length);
    const blocks = parts.blocks.map((b) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    return new CompactRecordSource(blocks, parts.starts, parts.words, parts.shapes, parts.shared.map((v) => deepFreeze(v)), lat, lon, recordCacheSize, parts.recordsWritten ?? starts.length);
  }

  /**
   * Throws RangeError unless records `from` to `to` (exclusive) start inside their blocks; a
   * caller may check the starts in parts (a restore in steps), then pass `startsChecked`.
   */
  static checkStarts(parts: Pick<CompactRecordParts, 'starts' | 'blocks'>, from: number, to: number): void {
    const { starts, blocks } = parts;
    for (let i = from; i < to; i++) {
      const s = starts[i]!;
      const b = Math.floor(s / BLOCK_STRIDE);
      if (!(s >= 0 && b < blocks.length && s - b * BLOCK_STRIDE < blocks[b]!.byteLength)) throw new RangeError(`compact records: record ${i} starts outside its block`);
    }
  }

  /**
   * Number of records held in blocks `0 .. k - 1`. Records fill the blocks in the order the
   * builder was given them (the caller's order, not the index order), so this counts: O(n),
   * called once per block by a snapshot writer's progress.
   */
  recordsBeforeBlock(k: number): number {
    const limit = k * BLOCK_STRIDE;
    let count = 0;
    for (let i = 0; i < this.length; i++) if (this.starts[i]! < limit) count++;
    return count;
  }

  /** What {@link fromParts} restores from (the arrays themselves, not copies: do not change them). */
  parts(): CompactRecordParts {
    return { blocks: this.blocks, starts: this.starts, words: this.words, shapes: this.shapes, shared: this.shared, recordsWritten: this.recordsWritten };
  }

  /**
   * The first venue whose id (`field` 'id') or name ('name') holds an unpaired UTF-16
   * surrogate (stored escaped: see RecordWriter.text), or null. Reads two text headers a
   * venue, decoding no text.
   */
  firstMalformedIdOrName(): { readonly index: number; readonly field: 'id' | 'name' } | null {
    for (let i = 0; i < this.length; i++) {
      this.seek(i);
      const idHeader = this.readVarint();
      if (idHeader % 2 === 1) return { index: i, field: 'id' };
      this.pos += Math.floor(idHeader / 2);
      if (this.readVarint() % 2 === 1) return { index: i, field: 'name' };
    }
    return null;
  }

  /** Bytes held: the blocks and the start offsets (the dictionaries are small). */
  get byteSize(): number {
    let n = this.starts.byteLength;
    for (const b of this.blocks) n += b.length;
    return n;
  }

  get(i: number): VenueRecord {
    const slot = i & this.cacheMask;
    if (this.cacheIndex[slot] === i) return this.cacheRecord[slot]!;
    const r = this.decode(i);
    this.cacheIndex[slot] = i;
    this.cacheRecord[slot] = r;
    return r;
  }

  /** Record i decoded anew (not cached), its shared values copied unfrozen: the caller's own. */
  fresh(i: number): VenueRecord {
    return this.decode(i, true);
  }

  id(i: number): string {
    this.seek(i);
    return this.readText();
  }

  name(i: number): string {
    this.seek(i);
    this.skipText();
    return this.readText();
  }

  /**
   * Reads venue i's start and the first two cache lines of its bytes (its id, its name and
   * most of its values, about 60 to 150 bytes a record), so that {@link fields} soon after
   * does not wait on memory: the records of a page lie at random places in tens of MB.
   * Returns the sum of the two bytes read (0 for an index out of range).
   */
  touch(i: number): number {
    const start = this.starts[i];
    if (start === undefined) return 0;
    const b = Math.floor(start / BLOCK_STRIDE);
    const block = this.blocks[b]!;
    const at = start - b * BLOCK_STRIDE;
    // a cache line is 64 bytes: the next one, or the block's last byte
    const next = Math.min(at + CACHE_LINE_BYTES, block.length - 1);
    return block[at]! + block[next]!;
  }

  /**
   * Fills `f` with venue i's establishment values, read from its bytes without building its
   * record (the values are those {@link get} would give; keys the establishment does not
   * show are skipped).
   */
  fields(i: number, f: EstablishmentFields): void {
    f.clear();
    const values = f.values;
    this.seek(i);
    const id = this.readText();
    const name = this.readText();
    const code = this.readVarint();
    const slots = this.slotsOfShape[code] ?? this.slotsFor(code);
    const n = slots.length;
    for (let k = 0; k < n; k++) {
      const tag = this.block[this.pos++] as Tag;
      const slot = slots[k]! as FieldSlot;
      if (slot === FieldSlot.NONE) {
        this.skipValue(tag, i);
        continue;
      }
      let value: unknown;
      switch (tag) {
        case Tag.ID:
          value = id;
          break;
        case Tag.NAME:
          value = name;
          break;
        case Tag.POINT:
          f.lat = this.lat[i]!;
          f.lon = this.lon[i]!;
          continue;
        case Tag.TRUE:
          value = true;
          break;
        case Tag.FALSE:
          value = false;
          break;
        case Tag.UNDEFINED:
          continue;
        case Tag.WORD:
          value = this.words[this.readVarint()];
          break;
        case Tag.WORDS:
          // A fresh list: the caller's own already, when the slot holds a list.
          value = this.readWords();
          if (isListSlot(slot)) {
            values[slot] = value;
            continue;
          }
          break;
        case Tag.SHARED:
          value = this.shared[this.readVarint()];
          break;
        case Tag.TEXT:
          value = this.readText();
          break;
        case Tag.JSON:
          value = JSON.parse(this.readText()) as unknown;
          break;
        default:
          throw damagedRecords(`record ${i} holds unknown tag ${String(tag)}`);
      }
      if (slot === FieldSlot.LOCATION || isListSlot(slot)) setField(f, slot, value);
      else values[slot] = value;
    }
  }

  private slotsFor(code: number): Uint8Array {
    const slots = fieldSlots(this.shape(code));
    this.slotsOfShape[code] = slots;
    return slots;
  }

  /** Moves past a value of tag `tag` without reading it. */
  private skipValue(tag: Tag, i: number): void {
    switch (tag) {
      case Tag.TEXT:
      case Tag.JSON:
        this.skipText();
        break;
      case Tag.WORD:
      case Tag.SHARED:
        this.readVarint();
        break;
      case Tag.WORDS: {
        const n = this.readVarint();
        for (let k = 0; k < n; k++) this.readVarint();
        break;
      }
      case Tag.ID:
      case Tag.NAME:
      case Tag.POINT:
      case Tag.TRUE:
      case Tag.FALSE:
      case Tag.UNDEFINED:
        break;
      default:
        throw damagedRecords(`record ${i} holds unknown tag ${String(tag)}`);
    }
  }

  private readWords(): string[] {
    const n = this.readVarint();
    // each word's code takes a byte at least: a longer list is damage (and would be allocated whole)
    if (n > this.block.length - this.pos) throw damagedRecords(`a list of ${n} words runs past the end of its block`);
    const list = new Array<string>(n);
    for (let k = 0; k < n; k++) list[k] = this.words[this.readVarint()]!;
    return list;
  }

  /** Record i's global start in the blocks (see CompactRecordParts.starts). */
  startOf(i: number): number {
    return this.starts[i]!;
  }

  /** Appends record i's bytes to `w` as they are (the record is skipped over to find its end, nothing decoded). */
  copyTo(i: number, w: RecordWriter): void {
    this.seek(i);
    const start = this.pos;
    this.skipText();
    this.skipText();
    const keys = this.shape(this.readVarint());
    for (let k = 0; k < keys.length; k++) this.skipValue(this.block[this.pos++] as Tag, i);
    w.bytes(this.block, start, this.pos);
  }

  /**
   * Appends record i to `w` with its codes renumbered by `codes` (this source's word, shape
   * and shared-value codes to those of the builder `w` writes for): texts and tags are copied
   * as they are, only the codes are read. The bytes are those the builder would write for the
   * decoded record (compact-records-builder.ts: CompactRecordsBuilder.transcode), without
   * building it.
   */
  transcodeTo(i: number, w: RecordWriter, codes: RecordCodeMap): void {
    this.seek(i);
    const buf = this.block;
    const texts = this.pos;
    this.skipText();
    this.skipText();
    w.bytes(buf, texts, this.pos);
    const shape = this.readVarint();
    w.varint(codes.shape(shape));
    const n = this.shape(shape).length;
    for (let k = 0; k < n; k++) {
      const tag = buf[this.pos++] as Tag;
      w.byte(tag);
      switch (tag) {
        case Tag.WORD:
          w.varint(codes.word(this.readVarint(), k));
          break;
        case Tag.WORDS: {
          const m = this.readVarint();
          w.varint(m);
          for (let j = 0; j < m; j++) w.varint(codes.word(this.readVarint(), k));
          break;
        }
        case Tag.SHARED:
          codes.plain?.(k, tag);
          w.varint(codes.shared(this.readVarint()));
          break;
        default: {
          // No code in it (a text, JSON, or nothing past the tag): its bytes as they are.
          codes.plain?.(k, tag);
          const at = this.pos;
          this.skipValue(tag, i);
          w.bytes(buf, at, this.pos);
        }
      }
    }
  }

  /** Record i from its bytes; `thawShared`: shared values copied (else the frozen ones every record holds). */
  private decode(i: number, thawShared = false): VenueRecord {
    this.seek(i);
    const id = this.readText();
    const name = this.readText();
    const keys = this.shape(this.readVarint());
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const tag = this.block[this.pos++] as Tag;
      const value = tag === Tag.ID ? id : tag === Tag.NAME ? name : this.readValue(tag, i);
      out[key] = thawShared && tag === Tag.SHARED ? thawedCopy(value) : value;
    }
    return out as unknown as VenueRecord;
  }

  /**
   * Fills `p.values` with venue i's values of `p.keys`, read from its bytes without building
   * its record (each the value {@link get} gives for that key; the others are skipped, and
   * those after the last picked one not walked at all).
   */
  pick(i: number, p: PickedFields): void {
    p.clear();
    const values = p.values;
    this.seek(i);
    const idAt = this.pos;
    this.skipText();
    const nameAt = this.pos;
    this.skipText();
    const code = this.readVarint();
    const slots = p.slotsFor(this, code, this.shape(code));
    for (let k = 0; k < slots.length; k++) {
      const tag = this.block[this.pos++] as Tag;
      const slot = slots[k]!;
      if (slot === 0) this.skipValue(tag, i);
      else values[slot - 1] = tag === Tag.ID ? this.textAt(idAt) : tag === Tag.NAME ? this.textAt(nameAt) : this.readValue(tag, i);
    }
  }

  /** The value of tag `tag` (not ID or NAME: the caller has those) of record i, read at `pos`, as get() gives it. */
  private readValue(tag: Tag, i: number): unknown {
    switch (tag) {
      case Tag.POINT:
        return { type: 'Point', coordinates: [this.lat[i]!, this.lon[i]!] };
      case Tag.TRUE:
        return true;
      case Tag.FALSE:
        return false;
      case Tag.UNDEFINED:
        return undefined;
      case Tag.WORD:
        return this.words[this.readVarint()];
      case Tag.WORDS:
        return this.readWords();
      case Tag.SHARED:
        return this.shared[this.readVarint()];
      case Tag.TEXT:
        return this.readText();
      case Tag.JSON:
        return parsedJson(this.readText(), i);
      default:
        throw damagedRecords(`record ${i} holds unknown tag ${String(tag)}`);
    }
  }

  /** The text at `at` of the current block (`pos` is left where it was). */
  private textAt(at: number): string {
    const pos = this.pos;
    this.pos = at;
    const t = this.readText();
    this.pos = pos;
    return t;
  }

  private seek(i: number): void {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`venue index ${i} out of range 0..${this.length - 1}`);
    const start = this.starts[i]!;
    const b = Math.floor(start / BLOCK_STRIDE);
    this.block = this.blocks[b]!;
    this.pos = start - b * BLOCK_STRIDE;
  }

  private readVarint(): number {
    const buf = this.block;
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = buf[this.pos++];
      // past the block's end (damaged bytes): `undefined & 0x7f` is 0 and never ends the number
      if (b === undefined) throw damagedRecords('a number runs past the end of its block');
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  }

  private readText(): string {
    const h = this.readVarint();
    const n = Math.floor(h / 2);
    const start = this.pos;
    if (start + n > this.block.length) throw damagedRecords(`a text of ${n} bytes runs past the end of its block`);
    this.pos += n;
    const t = utf8Slice(this.block, start, start + n);
    return h % 2 === 1 ? (parsedJson(t, null) as string) : t;
  }

  private skipText(): void {
    const n = Math.floor(this.readVarint() / 2); // read before `pos` is taken
    if (this.pos + n > this.block.length) throw damagedRecords(`a text of ${n} bytes runs past the end of its block`);
    this.pos += n;
  }

  /** Key list `code`; a code no key list has is damage. */
  private shape(code: number): readonly string[] {
    const keys = this.shapes[code];
    if (keys === undefined) throw damagedRecords(`a record names key list ${code} of ${this.shapes.length}`);
    return keys;
  }
}

/**
 * The error of bytes no record writer makes (a snapshot damaged inside its records section,
 * which no checksum covers: docs/snapshots.md): a VenueSearchError `invalid_data`, never a
 * read past the block (a number read there never ended: audit 69c F1) or a JavaScript error.
 */
function damagedRecords(why: string): VenueSearchError {
  return new VenueSearchError('invalid_data', `the compact records are damaged: ${why} (a snapshot damaged inside its records section; write it again)`);
}

/** `text` parsed as JSON; text that is not is damage (record `i`, when known). */
function parsedJson(text: string, i: number | null): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw damagedRecords(`${i === null ? 'a' : `record ${i}'s`} JSON text does not parse (${(e as Error).message})`);
  }
}
