import { DAY_NAMES } from '../schema/common.js';
import type { VenueRecord } from '../schema/venue.js';
import { FieldSlot, fieldSlots, isListSlot, setField, type EstablishmentFields } from './establishment-fields.js';
import { buildArray, buildBuffer } from './build-memory.js';
import type { RecordSource } from './record-source.js';

/**
 * Venue records held by the engine in a compact binary form, so that an engine built from
 * records never keeps the caller's objects (issue 19: ~60 bytes per lean venue here against
 * ~855 for the objects). Decoding gives a record equal to the one given, with the same keys
 * in the same order (`JSON.stringify` of both is the same text).
 *
 * Layout of record i, starting at byte `starts[i]` (block `floor(start / 2^32)`, offset
 * `start mod 2^32`; a record never spans two blocks):
 * - the id and the name as texts (see `RecordWriter.text`), read without decoding the rest
 *   (find's index, ranking ties, id lookups);
 * - the shape: a varint code of the record's key list, in the record's own key order (padded
 *   with continuation bytes to the width the builder kept for it);
 * - each key's value as a tag byte and its payload:
 *   `TEXT` a UTF-8 text; `WORD` a varint code of a vocabulary word (primaryGenre,
 *   timeZone); `WORDS` a count and word codes (additionalGenres, establishmentFlags,
 *   catersFlags, vibes); `SHARED` a varint code of a value stored once for every venue that
 *   has it (weekly opening hours: a few thousand distinct values in real data), decoded
 *   once and deep-frozen. Hours in the schema's own form (keys in schema order, `HH:MM`
 *   times) are keyed by a few bytes built without JSON (`hoursKey`); any other value of
 *   those keys by its JSON text. `POINT` the location rebuilt from the store's lat/lon columns;
 *   `TRUE`/`FALSE`; `ID`/`NAME` the header's text; `UNDEFINED`; `JSON` anything else, as
 *   JSON text.
 * Decoded records of the last `CACHE_SIZE` distinct indices asked for are kept (a page of
 * results is decoded once); they, like the frozen shared values, must not be changed:
 * every response copies what it returns.
 */
const enum Tag {
  JSON = 0,
  TEXT = 1,
  WORD = 2,
  WORDS = 3,
  TRUE = 4,
  FALSE = 5,
  SHARED = 6,
  POINT = 7,
  ID = 8,
  NAME = 9,
  UNDEFINED = 10,
}

/** How a key's values are stored when they have the expected type (else TEXT or JSON). */
const enum Kind {
  OTHER,
  ID,
  NAME,
  LOCATION,
  WORD,
  WORDS,
  SHARED,
}

const KEY_KINDS: ReadonlyMap<string, Kind> = new Map([
  ['id', Kind.ID],
  ['name', Kind.NAME],
  ['location', Kind.LOCATION],
  ['primaryGenre', Kind.WORD],
  ['timeZone', Kind.WORD],
  ['additionalGenres', Kind.WORDS],
  ['establishmentFlags', Kind.WORDS],
  ['catersFlags', Kind.WORDS],
  ['vibes', Kind.WORDS],
  ['regularOpeningHours', Kind.SHARED],
  ['kitchenOpeningHours', Kind.SHARED],
  ['holidayOpeningHours', Kind.SHARED],
]);

function kindOfKey(key: string): Kind {
  return KEY_KINDS.get(key) ?? Kind.OTHER;
}

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
 * Keys whose words the builder reports for the record last added (`CompactRecordsBuilder.
 * wordKeys`), so a store built beside it codes them without looking each word up again.
 */
export const WORD_KEY_PRIMARY_GENRE = 1;
export const WORD_KEY_ADDITIONAL_GENRES = 2;
export const WORD_KEY_ESTABLISHMENT_FLAGS = 3;
export const WORD_KEY_VIBES = 4;
export const WORD_KEY_CATERS_FLAGS = 5;

const WORD_KEYS: ReadonlyMap<string, number> = new Map([
  ['primaryGenre', WORD_KEY_PRIMARY_GENRE],
  ['additionalGenres', WORD_KEY_ADDITIONAL_GENRES],
  ['establishmentFlags', WORD_KEY_ESTABLISHMENT_FLAGS],
  ['vibes', WORD_KEY_VIBES],
  ['catersFlags', WORD_KEY_CATERS_FLAGS],
]);

/** Words reported per record at most (a record with more is reported incomplete). */
const REPORTED_WORDS = 64;

/** Bytes of a block (records are appended until one does not fit). */
const BLOCK_BYTES = 64 * 1024 * 1024;
const BLOCK_STRIDE = 2 ** 32;
/** Decoded records kept, direct-mapped by index (a power of two). */
const CACHE_SIZE = 4096;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Codes of distinct strings, in first-seen order. */
class Dictionary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();

  code(value: string): number {
    let c = this.codes.get(value);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(value);
      this.codes.set(value, c);
    }
    return c;
  }
}

/** Appends records to blocks; see the module comment for the layout. */
class RecordWriter {
  readonly blocks: Buffer[] = [];
  private buf: Buffer;
  private pos = 0;
  private recordStart = 0;

  /** Bytes in the blocks retired so far. */
  private retiredBytes = 0;

  /**
   * `firstBlockBytes`: the first block's size; `nextBlockBytes(written)`: a later block's
   * size, given the bytes written so far (at most BLOCK_BYTES; the record being written
   * always fits).
   */
  constructor(
    firstBlockBytes: number,
    private readonly nextBlockBytes: (written: number) => number = () => BLOCK_BYTES,
  ) {
    this.buf = buildBuffer(firstBlockBytes);
  }

  /** Starts a record; returns its global start. */
  begin(): number {
    this.recordStart = this.pos;
    return this.blocks.length * BLOCK_STRIDE + this.pos;
  }

  /** Keeps `bytes` bytes of room in the record being written; returns their place in it (for {@link paddedVarintAt}). */
  reserve(bytes: number): number {
    this.ensure(bytes);
    const at = this.pos - this.recordStart;
    this.pos += bytes;
    return at;
  }

  /**
   * Writes `n` as a varint of exactly `width` bytes (continuation bits on the leading ones:
   * a padded varint reads as the same number) at place `at` of the record being written.
   */
  paddedVarintAt(at: number, n: number, width: number): void {
    if (n >= 2 ** (7 * width)) throw new RangeError(`compact records: ${n} does not fit in a ${width}-byte varint`);
    let p = this.recordStart + at;
    for (let b = 1; b < width; b++) {
      this.buf[p++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[p] = n;
  }

  /** The global start of the record being written (it moves when the record moves to a new block). */
  get start(): number {
    return this.blocks.length * BLOCK_STRIDE + this.recordStart;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    // Move the record written so far to a fresh block, so no record spans two blocks.
    const partial = this.pos - this.recordStart;
    const next = buildBuffer(Math.max(Math.min(BLOCK_BYTES, this.nextBlockBytes(this.retiredBytes + this.recordStart)), 2 * (partial + bytes)));
    this.buf.copy(next, 0, this.recordStart, this.pos);
    this.retire(this.recordStart);
    this.buf = next;
    this.pos = partial;
    this.recordStart = 0;
  }

  private retire(used: number): void {
    let block = this.buf.subarray(0, used);
    if (this.buf.length - used > 1024 * 1024) {
      block = buildBuffer(used);
      this.buf.copy(block, 0, 0, used);
    }
    this.blocks.push(block);
    this.retiredBytes += used;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  varint(n: number): void {
    this.ensure(5);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  /**
   * A text: varint `byteLength * 2 + escaped`, then its bytes: UTF-8, or, for a string with
   * an unpaired surrogate (which UTF-8 cannot hold), the UTF-8 of its JSON literal.
   */
  text(s: string): void {
    // ASCII (most ids and names) is written byte by byte; anything else by Buffer.write.
    const n = s.length;
    let ascii = n < 64;
    if (ascii) {
      for (let k = 0; k < n; k++) {
        if (s.charCodeAt(k) >= 0x80) {
          ascii = false;
          break;
        }
      }
    }
    if (ascii) {
      this.ensure(1 + n);
      this.buf[this.pos++] = n * 2;
      for (let k = 0; k < n; k++) this.buf[this.pos++] = s.charCodeAt(k);
      return;
    }
    const escaped = !(s as unknown as { isWellFormed(): boolean }).isWellFormed(); // ES2024, in Node 20
    const t = escaped ? JSON.stringify(s) : s;
    const bytes = Buffer.byteLength(t, 'utf8');
    this.varint(bytes * 2 + (escaped ? 1 : 0));
    this.ensure(bytes);
    this.pos += this.buf.write(t, this.pos, 'utf8');
  }

  /** A whole record's bytes as they are (begin() first): one copy, no decoding. */
  bytes(from: Buffer, start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    const buf = this.buf;
    if (n > 64) from.copy(buf, this.pos, start, end);
    else for (let k = 0; k < n; k++) buf[this.pos + k] = from[start + k]!;
    this.pos += n;
  }

  /** The text written at global position `at` (a finished record's id or name). */
  textAt(at: number): string {
    const b = Math.floor(at / BLOCK_STRIDE);
    const buf = b < this.blocks.length ? this.blocks[b]! : this.buf;
    let pos = at - b * BLOCK_STRIDE;
    let h = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = buf[pos++]!;
      h += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    const t = buf.toString('utf8', pos, pos + Math.floor(h / 2));
    return h % 2 === 1 ? (JSON.parse(t) as string) : t;
  }

  /** Closes the writer; returns the blocks. */
  finish(): Buffer[] {
    this.retire(this.pos);
    return this.blocks;
  }
}

function isCanonicalPoint(location: unknown, lat: number, lon: number): boolean {
  if (typeof location !== 'object' || location === null) return false;
  const l = location as { type?: unknown; coordinates?: unknown };
  if (!hasKeys(l, POINT_KEYS) || l.type !== 'Point') return false;
  const c = l.coordinates;
  return Array.isArray(c) && c.length === 2 && Object.is(c[0], lat) && Object.is(c[1], lon);
}

const POINT_KEYS = ['type', 'coordinates'];

/** The code of a day name (its place in DAY_NAMES), or -1. */
function dayCode(day: unknown): number {
  for (let c = 0; c < DAY_NAMES.length; c++) if (DAY_NAMES[c] === day) return c;
  return -1;
}

/** True when `o`'s own enumerable keys are exactly `keys`, in that order (no allocation). */
function hasKeys(o: object, keys: readonly string[]): boolean {
  let k = 0;
  for (const key in o) {
    if (key !== keys[k++] || !Object.prototype.hasOwnProperty.call(o, key)) return false;
  }
  return k === keys.length;
}

const GROUP_KEYS = ['days', 'timeSlots'];
const SLOT_KEYS = ['open', 'close', 'isClosed', 'closeNextDay'];
/** Scratch of `describeHours`; hours longer than this are keyed by JSON. */
const hoursUnits = new Uint16Array(512);

/** Minutes of an `HH:MM` time (two digits each), or -1 for any other text. */
function clockMinutes(t: unknown): number {
  if (typeof t !== 'string' || t.length !== 5 || t.charCodeAt(2) !== 58) return -1;
  const h1 = t.charCodeAt(0) - 48;
  const h2 = t.charCodeAt(1) - 48;
  const m1 = t.charCodeAt(3) - 48;
  const m2 = t.charCodeAt(4) - 48;
  if (!(h1 >= 0 && h1 <= 9 && h2 >= 0 && h2 <= 9 && m1 >= 0 && m1 <= 9 && m2 >= 0 && m2 <= 9)) return -1;
  return (h1 * 10 + h2) * 60 + m1 * 10 + m2;
}

/**
 * Writes a description of weekly hours in the schema's own form (group keys `days`,
 * `timeSlots`; slot keys `open`, `close`, `isClosed`, `closeNextDay`; `HH:MM` times) into
 * `hoursUnits`, so equal hours share one dictionary entry without being written as JSON;
 * returns its length, or -1 for anything else. Each group: its day count and day codes,
 * its slot count, then per slot the two times in minutes and the two flags.
 */
function describeHours(v: unknown): number {
  if (!Array.isArray(v)) return -1;
  const u = hoursUnits;
  let n = 0;
  const groups = v as unknown[];
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    if (typeof g !== 'object' || g === null || !hasKeys(g, GROUP_KEYS)) return -1;
    const { days, timeSlots } = g as { days: unknown; timeSlots: unknown };
    if (!Array.isArray(days) || !Array.isArray(timeSlots)) return -1;
    if (n + 2 + days.length + 3 * timeSlots.length > u.length) return -1;
    u[n++] = 0xff00 + days.length;
    for (let d = 0; d < days.length; d++) {
      const c = dayCode(days[d]);
      if (c < 0) return -1;
      u[n++] = c;
    }
    u[n++] = 0xfe00 + timeSlots.length;
    for (let t = 0; t < timeSlots.length; t++) {
      const slot = timeSlots[t] as unknown;
      if (typeof slot !== 'object' || slot === null || !hasKeys(slot, SLOT_KEYS)) return -1;
      const o = slot as { open: unknown; close: unknown; isClosed: unknown; closeNextDay: unknown };
      const open = clockMinutes(o.open);
      const close = clockMinutes(o.close);
      if (open < 0 || close < 0 || typeof o.isClosed !== 'boolean' || typeof o.closeNextDay !== 'boolean') return -1;
      u[n++] = open;
      u[n++] = close;
      u[n++] = (o.isClosed ? 1 : 0) | (o.closeNextDay ? 2 : 0);
    }
  }
  return n;
}

/** A 30-bit FNV-style hash of `units[0..n)` (a small integer: a cheap Map key). */
function hashUnits(units: Uint16Array, n: number): number {
  let a = 0x811c9dc5;
  for (let k = 0; k < n; k++) a = Math.imul(a ^ units[k]!, 0x01000193);
  a ^= a >>> 15;
  return Math.imul(a, 0x2c1b3c6d) >>> 2;
}

function isWordList(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (const w of v) if (typeof w !== 'string') return false;
  return true;
}

/** A node of the trie of record key lists: the keys read so far lead here. */
interface ShapeNode {
  readonly next: Map<string, ShapeNode>;
  /** The key list ending here and its code; code -1 until a record ends here. */
  readonly keys: readonly string[];
  /** How the last key's values are stored. */
  readonly kind: Kind;
  /** The last key's WORD_KEY_* (0: none). */
  readonly wordKey: number;
  code: number;
  /** The child last walked to and its key (records of one source mostly share their keys' order). */
  lastKey: string | null;
  lastChild: ShapeNode | null;
}

function shapeNode(keys: readonly string[]): ShapeNode {
  const last = keys.length > 0 ? keys[keys.length - 1]! : '';
  return { next: new Map(), keys, kind: kindOfKey(last), wordKey: WORD_KEYS.get(last) ?? 0, code: -1, lastKey: null, lastChild: null };
}

/** The child of `node` for `key`, made if new. */
function childOf(node: ShapeNode, key: string): ShapeNode {
  let next = node.next.get(key);
  if (next === undefined) {
    next = shapeNode([...node.keys, key]);
    node.next.set(key, next);
  }
  node.lastKey = key;
  node.lastChild = next;
  return next;
}

/** Identity cache of shared values (the last few objects given): callers often reuse one hours object. */
const RECENT_SHARED = 16;

/** Builds a {@link CompactRecordSource}: `add` each venue's record, then `finish`. */
export class CompactRecordsBuilder {
  private readonly writer: RecordWriter;
  private starts: Float64Array;
  private readonly words = new Dictionary();
  private readonly shapes = new Dictionary();
  /** Per shared code: the value itself (a copy of the first seen), frozen at finish. */
  private readonly sharedValues: unknown[] = [];
  private readonly sharedByJson = new Map<string, number>();
  private readonly hoursByHash = new Map<number, number>();
  /** The last RECENT_SHARED objects given as shared values and their codes (a ring; no per-venue allocation). */
  private readonly recentObjects: (object | null)[] = new Array<object | null>(RECENT_SHARED).fill(null);
  private readonly recentCodes = new Int32Array(RECENT_SHARED);
  private recentNext = 0;
  /** Descriptions of the shared hours: code c's units are `hoursPool[hoursStart[c] .. hoursStart[c + 1])` (sparse by code). */
  private readonly hoursPool: number[] = [];
  private readonly hoursStart: number[] = [];
  /**
   * The words of the record last added, by key: word `m` (of `wordCount`) has code
   * `wordCodes[m]` (its number in {@link wordOf}) and key `wordKeys[m]` (WORD_KEY_*), in the
   * record's order. `wordsComplete` is false when a word key's value was not stored as words
   * (not a string or a list of strings) or there were more than REPORTED_WORDS.
   */
  readonly wordKeys = new Uint8Array(REPORTED_WORDS);
  readonly wordCodes = new Uint32Array(REPORTED_WORDS);
  wordCount = 0;
  wordsComplete = true;
  /** The trie of record key lists (each record's own enumerable keys, in order). */
  private readonly shapeRoot = shapeNode([]);
  private count = 0;

  /** The source {@link copy} copies from (see {@link extending}). */
  private from: CompactRecordSource | null = null;

  /** `expectedBytes`: the records' expected bytes (default about 64 a lean record). */
  constructor(size: number, expectedBytes = size * 64) {
    this.starts = buildArray(Float64Array, size);
    this.shapeRoot.code = this.shapes.code(''); // the empty key list
    // A small engine does not take a whole block. A later block holds the records still
    // expected at the mean size so far, plus 1/16 (so a block too large is rare, and copied
    // to its size at finish), and at least a quarter of the bytes so far (more records may
    // come than expected).
    this.writer = new RecordWriter(Math.min(BLOCK_BYTES, Math.max(4096, expectedBytes)), (written) =>
      Math.max(4096, Math.ceil(written / 4), Math.ceil((Math.max(0, this.starts.length - this.count) * written * 17) / (16 * Math.max(1, this.count)))),
    );
  }

  /**
   * A builder whose dictionaries start as `source`'s (same codes, extended by the records
   * added), so that {@link copy} can take `source`'s records byte for byte (compaction: the
   * unchanged venues of a base are copied, only changed ones encoded).
   */
  static extending(source: CompactRecordSource, size: number): CompactRecordsBuilder {
    const b = new CompactRecordsBuilder(size, source.byteSize);
    const { words, shapes, shared } = source.parts();
    words.forEach((w, c) => {
      if (b.words.code(w) !== c) throw new Error(`compact records: word ${c} repeats`);
    });
    shapes.forEach((keys, c) => {
      if (b.shapes.code(keys.join('\u0000')) !== c) throw new Error(`compact records: shape ${c} repeats`);
    });
    b.from = source;
    shared.forEach((v, c) => {
      b.sharedValues.push(v);
      b.registerShared(v, c);
    });
    return b;
  }

  /** Adds venue `index` as record `i` of the source given to {@link extending}, its bytes copied. */
  copy(i: number, index: number): void {
    const from = this.from;
    if (from === null) throw new Error('CompactRecordsBuilder.copy without a source (see extending)');
    this.writer.begin();
    from.copyTo(i, this.writer);
    this.starts[index] = this.writer.start;
    this.count++;
  }

  /**
   * Adds venue `index`'s record (each index once, in any order); `lat`/`lon` are its store
   * coordinates (its location's).
   */
  add(r: VenueRecord, lat: number, lon: number, index: number = this.count): void {
    if (index >= this.starts.length) this.growStarts(index + 1);
    const w = this.writer;
    w.begin();
    const rec = r as unknown as Record<string, unknown>;
    const id = String(rec.id);
    const name = String(rec.name);
    w.text(id);
    w.text(name);
    // One pass over the keys, walking the trie of key lists and writing each value as its
    // key is met (`rec[key]` in a for-in is a direct field read). The shape's code, known at
    // the end, goes in room kept before the values: a varint padded to the width any code
    // this record can get needs (at most one shape is new: its code is the count so far).
    const shapes = this.shapes.values.length;
    const width = shapes < 0x80 ? 1 : shapes < 0x4000 ? 2 : 3;
    const shapeAt = w.reserve(width);
    this.wordCount = 0;
    this.wordsComplete = true;
    let node = this.shapeRoot;
    for (const key in rec) {
      if (!Object.prototype.hasOwnProperty.call(rec, key)) continue;
      node = node.lastKey === key ? node.lastChild! : childOf(node, key);
      this.value(rec[key], node.kind, node.wordKey, id, name, lat, lon);
    }
    if (node.code < 0) node.code = this.shapes.code(node.keys.join('\u0000'));
    w.paddedVarintAt(shapeAt, node.code, width);
    this.starts[index] = w.start;
    this.count++;
  }

  /** Writes one value of a record (see the module comment). */
  private value(v: unknown, kind: Kind, wordKey: number, id: string, name: string, lat: number, lon: number): void {
    const w = this.writer;
    if (wordKey !== 0 && v !== undefined && (kind === Kind.WORD ? typeof v !== 'string' : !isWordList(v))) this.wordsComplete = false;
    if (v === undefined) w.byte(Tag.UNDEFINED);
    else if (v === true) w.byte(Tag.TRUE);
    else if (v === false) w.byte(Tag.FALSE);
    else if (kind === Kind.ID && v === id) w.byte(Tag.ID);
    else if (kind === Kind.NAME && v === name) w.byte(Tag.NAME);
    else if (kind === Kind.LOCATION && isCanonicalPoint(v, lat, lon)) w.byte(Tag.POINT);
    else if (kind === Kind.WORD && typeof v === 'string') {
      w.byte(Tag.WORD);
      const code = this.words.code(v);
      w.varint(code);
      if (wordKey !== 0) this.reportWord(wordKey, code);
    } else if (typeof v === 'string') {
      w.byte(Tag.TEXT);
      w.text(v);
    } else if (kind === Kind.WORDS && isWordList(v)) {
      w.byte(Tag.WORDS);
      w.varint(v.length);
      for (let m = 0; m < v.length; m++) {
        const code = this.words.code(v[m]!);
        w.varint(code);
        if (wordKey !== 0) this.reportWord(wordKey, code);
      }
    } else if (kind === Kind.SHARED) {
      w.byte(Tag.SHARED);
      w.varint(this.sharedCode(v));
    } else {
      w.byte(Tag.JSON);
      w.text(JSON.stringify(v));
    }
  }

  private reportWord(wordKey: number, code: number): void {
    if (this.wordCount === REPORTED_WORDS) {
      this.wordsComplete = false;
      return;
    }
    this.wordKeys[this.wordCount] = wordKey;
    this.wordCodes[this.wordCount++] = code;
  }

  /** The number of a vocabulary word (as in {@link wordCodes}), numbering it if new. */
  wordCode(word: string): number {
    return this.words.code(word);
  }

  /** The vocabulary words by number (grows as records are added; do not change it). */
  get wordList(): readonly string[] {
    return this.words.values;
  }

  private growStarts(least: number): void {
    const grown = buildArray(Float64Array, Math.max(least, this.starts.length * 2));
    grown.set(this.starts);
    this.starts = grown;
  }

  /** The id of the record added as `index` (read back from its bytes). */
  idOf(index: number): string {
    return this.writer.textAt(this.starts[index]!);
  }

  /**
   * The code of a shared value: hours in the schema's form by their description (hashed,
   * then compared unit by unit), anything else by its JSON text. The value is copied (JSON)
   * the first time, so the caller's object is not kept.
   */
  private sharedCode(v: unknown): number {
    // Callers often share one hours object between venues: the same object, the same code.
    if (typeof v === 'object' && v !== null) {
      for (let k = 0; k < RECENT_SHARED; k++) if (this.recentObjects[k] === v) return this.recentCodes[k]!;
      const code = this.sharedCodeOf(v);
      this.recentObjects[this.recentNext] = v;
      this.recentCodes[this.recentNext] = code;
      this.recentNext = (this.recentNext + 1) % RECENT_SHARED;
      return code;
    }
    return this.sharedCodeOf(v);
  }

  private sharedCodeOf(v: unknown): number {
    const known = this.knownShared(v);
    if (known >= 0) return known;
    const code = this.newShared(v);
    this.registerShared(v, code);
    return code;
  }

  /** The code of a shared value equal to `v` already held, or -1. */
  private knownShared(v: unknown): number {
    const n = describeHours(v);
    if (n >= 0) {
      const known = this.hoursByHash.get(hashUnits(hoursUnits, n));
      if (known !== undefined && this.sameHours(known, n)) return known;
      if (known === undefined) return -1;
      // A hash collision between different hours (not expected): keyed by JSON.
    }
    return this.sharedByJson.get(JSON.stringify(v)) ?? -1;
  }

  /** Keys shared value `v` (not held yet) under `code`: hours by their description, anything else by JSON. */
  private registerShared(v: unknown, code: number): void {
    const n = describeHours(v);
    if (n >= 0) {
      const hash = hashUnits(hoursUnits, n);
      if (!this.hoursByHash.has(hash)) {
        this.hoursByHash.set(hash, code);
        this.hoursStart[code] = this.hoursPool.length;
        for (let k = 0; k < n; k++) this.hoursPool.push(hoursUnits[k]!);
        this.hoursStart[code + 1] = this.hoursPool.length;
        return;
      }
      // A hash collision between different hours (rare): key this one by JSON.
    }
    const key = JSON.stringify(v);
    if (!this.sharedByJson.has(key)) this.sharedByJson.set(key, code);
  }

  private sameHours(code: number, n: number): boolean {
    const start = this.hoursStart[code]!;
    if (this.hoursStart[code + 1]! - start !== n) return false;
    for (let k = 0; k < n; k++) if (this.hoursPool[start + k] !== hoursUnits[k]) return false;
    return true;
  }

  private newShared(v: unknown): number {
    this.sharedValues.push(JSON.parse(JSON.stringify(v)) as unknown);
    return this.sharedValues.length - 1;
  }

  /**
   * The records, over the store's `lat`/`lon` columns (one entry per record added). With
   * `order`, the records were added by number and venue k is the one added as `order[k]`.
   */
  finish(lat: Float64Array, lon: Float64Array, order?: Uint32Array): CompactRecordSource {
    const n = lat.length;
    if (this.count !== n) {
      throw new Error(`CompactRecordsBuilder: ${this.count} records added, ${n} expected`);
    }
    let starts = this.starts;
    if (order !== undefined) {
      starts = buildArray(Float64Array, n);
      for (let k = 0; k < n; k++) starts[k] = this.starts[order[k]!]!;
    } else if (starts.length !== n) {
      starts = starts.slice(0, n);
    }
    const shapes = this.shapes.values.map((s) => (s === '' ? [] : s.split('\u0000')));
    const shared = this.sharedValues.map((v) => deepFreeze(v));
    return new CompactRecordSource(this.writer.finish(), starts, this.words.values, shapes, shared, lat, lon);
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
}

/** Reads the compact records (see the module comment). */
export class CompactRecordSource implements RecordSource {
  readonly length: number;
  private pos = 0;
  private block: Buffer;
  private readonly cacheIndex = new Int32Array(CACHE_SIZE).fill(-1);
  private readonly cacheRecord = new Array<VenueRecord | undefined>(CACHE_SIZE);
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
  ) {
    this.length = starts.length;
    this.block = blocks[0] ?? Buffer.alloc(0);
    this.slotsOfShape = new Array<Uint8Array | undefined>(shapes.length).fill(undefined);
  }

  /**
   * Restores records saved from {@link parts} (a snapshot); `lat`/`lon` are the store's
   * columns. Shared values are deep-frozen here, as the builder freezes them.
   */
  static fromParts(parts: CompactRecordParts, lat: Float64Array, lon: Float64Array): CompactRecordSource {
    const { starts, blocks: saved } = parts;
    if (lat.length !== starts.length) throw new RangeError(`compact records: ${starts.length} starts for ${lat.length} venues`);
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i]!;
      const b = Math.floor(s / BLOCK_STRIDE);
      if (!(s >= 0 && b < saved.length && s - b * BLOCK_STRIDE < saved[b]!.length)) throw new RangeError(`compact records: record ${i} starts outside its block`);
    }
    const blocks = parts.blocks.map((b) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    return new CompactRecordSource(blocks, parts.starts, parts.words, parts.shapes, parts.shared.map((v) => deepFreeze(v)), lat, lon);
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
    return { blocks: this.blocks, starts: this.starts, words: this.words, shapes: this.shapes, shared: this.shared };
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
    const slot = i & (CACHE_SIZE - 1);
    if (this.cacheIndex[slot] === i) return this.cacheRecord[slot]!;
    const r = this.decode(i);
    this.cacheIndex[slot] = i;
    this.cacheRecord[slot] = r;
    return r;
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
          throw new Error(`compact record ${i}: unknown tag ${String(tag)}`);
      }
      if (slot === FieldSlot.LOCATION || isListSlot(slot)) setField(f, slot, value);
      else values[slot] = value;
    }
  }

  private slotsFor(code: number): Uint8Array {
    const slots = fieldSlots(this.shapes[code]!);
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
        throw new Error(`compact record ${i}: unknown tag ${String(tag)}`);
    }
  }

  private readWords(): string[] {
    const n = this.readVarint();
    const list = new Array<string>(n);
    for (let k = 0; k < n; k++) list[k] = this.words[this.readVarint()]!;
    return list;
  }

  /** Appends record i's bytes to `w` as they are (the record is skipped over to find its end, nothing decoded). */
  copyTo(i: number, w: RecordWriter): void {
    this.seek(i);
    const start = this.pos;
    this.skipText();
    this.skipText();
    const keys = this.shapes[this.readVarint()]!;
    for (let k = 0; k < keys.length; k++) this.skipValue(this.block[this.pos++] as Tag, i);
    w.bytes(this.block, start, this.pos);
  }

  private decode(i: number): VenueRecord {
    this.seek(i);
    const id = this.readText();
    const name = this.readText();
    const keys = this.shapes[this.readVarint()]!;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const tag = this.block[this.pos++] as Tag;
      switch (tag) {
        case Tag.ID:
          out[key] = id;
          break;
        case Tag.NAME:
          out[key] = name;
          break;
        case Tag.POINT:
          out[key] = { type: 'Point', coordinates: [this.lat[i]!, this.lon[i]!] };
          break;
        case Tag.TRUE:
          out[key] = true;
          break;
        case Tag.FALSE:
          out[key] = false;
          break;
        case Tag.UNDEFINED:
          out[key] = undefined;
          break;
        case Tag.WORD:
          out[key] = this.words[this.readVarint()];
          break;
        case Tag.WORDS:
          out[key] = this.readWords();
          break;
        case Tag.SHARED:
          out[key] = this.shared[this.readVarint()];
          break;
        case Tag.TEXT:
          out[key] = this.readText();
          break;
        case Tag.JSON:
          out[key] = JSON.parse(this.readText()) as unknown;
          break;
        default:
          throw new Error(`compact record ${i}: unknown tag ${String(tag)}`);
      }
    }
    return out as unknown as VenueRecord;
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
      const b = buf[this.pos++]!;
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  }

  private readText(): string {
    const h = this.readVarint();
    const n = Math.floor(h / 2);
    const start = this.pos;
    this.pos += n;
    const t = utf8Slice(this.block, start, start + n);
    return h % 2 === 1 ? (JSON.parse(t) as string) : t;
  }

  private skipText(): void {
    const n = Math.floor(this.readVarint() / 2); // read before `pos` is taken
    this.pos += n;
  }
}
