import { DAY_NAMES } from '../schema/common.js';
import type { VenueRecord } from '../schema/venue.js';
import { buildArray } from './build-memory.js';
import { BLOCK_BYTES, deepFreeze, Kind, kindOfKey, Tag } from './compact-format.js';
import { RecordWriter } from './compact-record-writer.js';
import { CompactRecordSource, DEFAULT_RECORD_CACHE_SIZE, type RecordCodeMap } from './compact-records.js';

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

function isCanonicalPoint(location: unknown, lat: number, lon: number): boolean {
  if (typeof location !== 'object' || location === null) return false;
  const l = location as { type?: unknown; coordinates?: unknown };
  if (!hasKeys(l, POINT_KEYS) || l.type !== 'Point') return false;
  const c = l.coordinates;
  return Array.isArray(c) && c.length === 2 && sameNumber(c[0], lat) && sameNumber(c[1], lon);
}

/** `Object.is` for a coordinate and a number (-0 is not 0; NaN is NaN), without boxing the doubles into a call. */
function sameNumber(a: unknown, b: number): boolean {
  if (typeof a !== 'number') return false;
  return a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b;
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

/**
 * Minutes of an `HH:MM` time (two digits each, minutes under 60: so that no two texts give
 * the same number, "10:75" and "11:15" would), or -1 for any other text.
 */
function clockMinutes(t: unknown): number {
  if (typeof t !== 'string' || t.length !== 5 || t.charCodeAt(2) !== 58) return -1;
  const h1 = t.charCodeAt(0) - 48;
  const h2 = t.charCodeAt(1) - 48;
  const m1 = t.charCodeAt(3) - 48;
  const m2 = t.charCodeAt(4) - 48;
  if (!(h1 >= 0 && h1 <= 9 && h2 >= 0 && h2 <= 9 && m1 >= 0 && m1 <= 5 && m2 >= 0 && m2 <= 9)) return -1;
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
  for (let m = 0; m < v.length; m++) if (typeof v[m] !== 'string') return false;
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

/** First block of a builder keeping its source's blocks: it holds only the changed records (a few MB at most, grown as needed). */
const KEPT_BLOCKS_FIRST_BYTES = 1024 * 1024;

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

  /** Per source given to {@link transcode}: its codes in this builder's dictionaries. */
  private readonly codeMaps = new Map<CompactRecordSource, RecordCodeMap>();

  /** The source {@link copy} copies from (see {@link extending}). */
  private from: CompactRecordSource | null = null;
  /** Whether the source's blocks are this builder's first blocks (see {@link extending}). */
  private keptBlocks = false;
  /** Records in the kept blocks (the source's recordsWritten), and {@link copy} calls that wrote nothing. */
  private keptWritten = 0;
  private reused = 0;

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
   *
   * `keepBlocks`: the source's blocks become this builder's first blocks, as they are, and
   * {@link copy} only points at a record's bytes there (nothing copied); the records of no
   * venue any more stay in them, unread (CompactRecordParts.recordsWritten counts them, so
   * that a caller can tell when to copy instead).
   */
  static extending(source: CompactRecordSource, size: number, keepBlocks = false): CompactRecordsBuilder {
    const b = new CompactRecordsBuilder(size, keepBlocks ? KEPT_BLOCKS_FIRST_BYTES : source.byteSize);
    if (keepBlocks) {
      b.writer.keep(source.parts().blocks);
      b.keptBlocks = true;
      b.keptWritten = source.recordsWritten;
    }
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
    if (this.keptBlocks) {
      this.starts[index] = from.startOf(i);
      this.count++;
      this.reused++;
      return;
    }
    this.writer.begin();
    from.copyTo(i, this.writer);
    this.starts[index] = this.writer.start;
    this.count++;
  }

  /**
   * Adds record `i` of `from` (a source with dictionaries of its own) as venue `index`: the
   * bytes {@link add} would write for its decoded record, written without decoding it (its
   * word, shape and shared codes renumbered into this builder's). The venue's store
   * coordinates must be those it has in `from` (a location is written as Tag.POINT there).
   * Reports the record's words as {@link add} does.
   */
  transcode(from: CompactRecordSource, i: number, index: number): void {
    if (index >= this.starts.length) this.growStarts(index + 1);
    let codes = this.codeMaps.get(from);
    if (codes === undefined) this.codeMaps.set(from, (codes = this.codeMapOf(from)));
    this.wordCount = 0;
    this.wordsComplete = true;
    const w = this.writer;
    w.begin();
    from.transcodeTo(i, w, codes);
    this.starts[index] = w.start;
    this.count++;
  }

  /**
   * Forgets `from` (given to {@link transcode}): its code map, which keeps it alive. For a
   * caller that transcodes many short-lived sources (createEngineFromFile: one per block of
   * lines encoded apart).
   */
  release(from: CompactRecordSource): void {
    this.codeMaps.delete(from);
  }

  /**
   * `from`'s codes in this builder's dictionaries, each looked up at its first use. It also
   * reports the record's words by key as {@link add} does (wordKeys, wordCodes, wordCount,
   * wordsComplete), from the WORD_KEY_* of each position of the record's shape.
   */
  private codeMapOf(from: CompactRecordSource): RecordCodeMap {
    const { words, shapes, shared } = from.parts();
    const wordMap = new Int32Array(words.length).fill(-1);
    const shapeMap = new Int32Array(shapes.length).fill(-1);
    const sharedMap = new Int32Array(shared.length).fill(-1);
    /** Per shape code of `from`: the WORD_KEY_* (0: none) of each of its keys, made at first use. */
    const wordKeysOfShape: (Uint8Array | undefined)[] = [];
    let wordKeys: Uint8Array = new Uint8Array(0);
    return {
      word: (c, position) => {
        let code = wordMap[c]!;
        if (code < 0) code = wordMap[c] = this.words.code(words[c]!);
        const key = wordKeys[position]!;
        if (key !== 0) this.reportWord(key, code);
        return code;
      },
      plain: (position, tag) => {
        // as add: a word key's value that is not stored as words (nor absent) leaves the report incomplete
        if (wordKeys[position] !== 0 && tag !== Tag.UNDEFINED) this.wordsComplete = false;
      },
      shape: (c) => {
        wordKeys = wordKeysOfShape[c] ??= Uint8Array.from(shapes[c]!, (key) => WORD_KEYS.get(key) ?? 0);
        const known = shapeMap[c]!;
        return known >= 0 ? known : (shapeMap[c] = this.shapes.code(shapes[c]!.join('\u0000')));
      },
      shared: (c) => {
        const known = sharedMap[c]!;
        return known >= 0 ? known : (sharedMap[c] = this.sharedCodeOf(shared[c]));
      },
    };
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
    // Word lists are checked once (a list of strings, read by index).
    const wordList = kind === Kind.WORDS && isWordList(v);
    if (wordKey !== 0 && v !== undefined && (kind === Kind.WORD ? typeof v !== 'string' : !wordList)) this.wordsComplete = false;
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
    } else if (wordList) {
      const list = v as string[];
      w.byte(Tag.WORDS);
      w.varint(list.length);
      for (let m = 0; m < list.length; m++) {
        const code = this.words.code(list[m]!);
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
   * `recordCacheSize`: decoded records kept (isRecordCacheSize).
   */
  finish(lat: Float64Array, lon: Float64Array, order?: Uint32Array, recordCacheSize = DEFAULT_RECORD_CACHE_SIZE): CompactRecordSource {
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
    const recordsWritten = this.keptWritten + this.count - this.reused;
    return new CompactRecordSource(this.writer.finish(), starts, this.words.values, shapes, shared, lat, lon, recordCacheSize, recordsWritten);
  }
}
