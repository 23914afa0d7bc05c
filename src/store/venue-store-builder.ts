import type { VenueRecord } from '../schema/venue.js';
import { VenueSearchError } from '../errors.js';
import { buildArray, buildCopy } from './build-memory.js';
import {
  CompactRecordsBuilder,
  WORD_KEY_ADDITIONAL_GENRES,
  WORD_KEY_CATERS_FLAGS,
  WORD_KEY_ESTABLISHMENT_FLAGS,
  WORD_KEY_PRIMARY_GENRE,
  WORD_KEY_VIBES,
} from './compact-records-builder.js';
import { IdIndex } from './id-index.js';
import type { RecordSource } from './record-source.js';
import type { EncodedVenues } from './venue-encoder.js';
import type { VenueStore } from './venue-store.js';
import { TermDictionary, catersMask } from './vocabulary.js';

/** `chain` column values. */
export const CHAIN_NO = 0;
export const CHAIN_YES = 1;
export const CHAIN_UNKNOWN = 2;

/** The `chain` column value of a record. */
export function chainCode(r: VenueRecord): number {
  return r.isChain === undefined ? CHAIN_UNKNOWN : r.isChain ? CHAIN_YES : CHAIN_NO;
}

/** `primaryGenre` column value for a venue without one. */
export const NO_GENRE = 0xffff;

/** A store's parts as {@link VenueStoreBuilder.finish} gives them (venue order): its columns as VenueStore names them. */
export type BuiltStore = Pick<
  VenueStore,
  'lat' | 'lon' | 'chain' | 'caters' | 'primaryGenre' | 'terms' | 'termStart' | 'termCodes' | 'vibes' | 'vibeStart' | 'vibeCodes' | 'genreSpellings'
> & {
  /** Venues using each genre word (normal form) as their primary or an additional genre: known exactly at a build. */
  readonly genreCounts: ReadonlyMap<string, number>;
  /** Venue id to venue index. */
  readonly idIndex: IdIndex;
  /** The store's own compact copy of the records (a CompactRecordSource). */
  readonly source: RecordSource;
};

/**
 * Builds a store's columns and its compact records from records given one at a time (from
 * an array, or from a file as it is read, so the caller need not keep the objects), each read
 * once. Record i is the i-th added; {@link finish} is told the venues' order (the engine's
 * kd-tree order: venue k is record `order[k]`) and lays the columns out in it, so a store
 * does not depend on the order the records came in.
 *
 * Establishment terms and vibes are kept per record as spelling numbers during the adds;
 * their dictionary codes are given in venue order at finish (as if each venue's words were
 * interned in turn), so the dictionaries, genre spellings and rows are those of the venues
 * in venue order.
 */
export class VenueStoreBuilder {
  private count = 0;
  /** Record i's latitude and longitude at `2i`, `2i + 1`. */
  private pointIn: Float64Array;
  /** Record i's chain value (bits 16..) and caters bit set (bits 0..15). */
  private chainCatersIn: Uint32Array;
  private readonly ids: IdIndex;
  private readonly compact: CompactRecordsBuilder;
  private readonly words: SpellingRows;
  /** Per word number: its caters bits, or -1 until computed. */
  private catersByWord = new Int32Array(64).fill(-1);
  private readonly idOf = (i: number): string => this.compact.idOf(i);

  /** `expected`: the number of records expected (more may be added: the arrays grow). */
  constructor(expected: number) {
    const cap = Math.max(16, expected);
    this.pointIn = buildArray(Float64Array, 2 * cap);
    this.chainCatersIn = buildArray(Uint32Array, cap);
    this.ids = new IdIndex(cap);
    this.compact = new CompactRecordsBuilder(expected);
    this.words = new SpellingRows(cap, this.compact.wordList);
  }

  /** Records added. */
  get size(): number {
    return this.count;
  }

  /**
   * The coordinates of the records added, in the order added: record i's latitude at `2i`,
   * its longitude at `2i + 1` (a view: valid until the next add).
   */
  get points(): Float64Array {
    return this.pointIn.subarray(0, 2 * this.count);
  }

  /**
   * Adds a record; a repeated id is a `duplicate_id` error naming both records by their
   * line, the number of each in the order added from 1 (createEngine's array: index + 1, as
   * its validation names records).
   */
  add(r: VenueRecord): void {
    const line = this.count + 1;
    const first = this.addNew(r);
    if (first >= 0) {
      throw new VenueSearchError('duplicate_id', `line ${line}: duplicate venue id ${JSON.stringify(r.id)} (first at line ${first + 1})`, {
        param: 'id',
        value: r.id,
        recordId: r.id,
        line,
      });
    }
  }

  /**
   * Adds a record unless one added before has its id: returns that record's number (in the
   * order added; nothing added), or -1 once added.
   */
  addNew(r: VenueRecord): number {
    const i = this.count;
    const first = this.ids.addNew(r.id, i, this.idOf);
    if (first >= 0) return first;
    if (i === this.chainCatersIn.length) this.grow();
    const coordinates = r.location.coordinates;
    const lat = coordinates[0];
    const lon = coordinates[1];
    this.pointIn[2 * i] = lat;
    this.pointIn[2 * i + 1] = lon;
    this.compact.add(r, lat, lon, i);
    this.addWords(i, chainCode(r), r);
    return -1;
  }

  /**
   * {@link addNew} for record k of `encoded` (encoded apart, in dictionaries of its own): its
   * bytes are copied with their codes renumbered (CompactRecordsBuilder.transcode), nothing
   * decoded. The store is the one addNew of the record itself would build.
   * @internal (createEngineFromFile's: its types are the package's own, out of its declarations)
   */
  addEncoded(encoded: EncodedVenues, k: number): number {
    const i = this.count;
    const from = encoded.records;
    const first = this.ids.addNew(from.id(k), i, this.idOf);
    if (first >= 0) return first;
    if (i === this.chainCatersIn.length) this.grow();
    this.pointIn[2 * i] = encoded.lat[k]!;
    this.pointIn[2 * i + 1] = encoded.lon[k]!;
    this.compact.transcode(from, k, i);
    // Decoded only when its words were not all reported (more than the builder reports).
    this.addWords(i, encoded.chain[k]!, this.compact.wordsComplete ? null : from.get(k));
    return -1;
  }

  /**
   * Forgets `encoded` once its records are added (the compact builder keeps a code map per
   * source it transcoded from until told).
   * @internal (see addEncoded)
   */
  release(encoded: EncodedVenues): void {
    this.compact.release(encoded.records);
  }

  /**
   * Record i's chain and caters column values and its row of words, from the words the
   * compact builder reported for it; `r` (the record itself) when they were not all
   * reported, else null.
   */
  private addWords(i: number, chain: number, r: VenueRecord | null): void {
    const compact = this.compact;
    const words = this.words;
    let caters: number;
    if (compact.wordsComplete) {
      // The words' numbers as the compact records just coded them, pushed in the fixed order
      // primary genre, additional genres, establishment flags, vibes.
      const { wordKeys, wordCodes, wordCount } = compact;
      caters = 0;
      for (let m = 0; m < wordCount; m++) {
        const key = wordKeys[m]!;
        if (key === WORD_KEY_PRIMARY_GENRE) words.push(wordCodes[m]!, SpellingRole.PRIMARY);
        else if (key === WORD_KEY_CATERS_FLAGS) caters |= this.catersOf(wordCodes[m]!);
      }
      for (let m = 0; m < wordCount; m++) if (wordKeys[m] === WORD_KEY_ADDITIONAL_GENRES) words.push(wordCodes[m]!, SpellingRole.GENRE);
      for (let m = 0; m < wordCount; m++) if (wordKeys[m] === WORD_KEY_ESTABLISHMENT_FLAGS) words.push(wordCodes[m]!, SpellingRole.WORD);
      for (let m = 0; m < wordCount; m++) if (wordKeys[m] === WORD_KEY_VIBES) words.push(wordCodes[m]!, SpellingRole.VIBE);
    } else {
      if (r === null) throw new Error('VenueStoreBuilder: the words of an incomplete report need the record');
      caters = catersMask(r.catersFlags);
      const primary = r.primaryGenre;
      const additional = r.additionalGenres;
      const flags = r.establishmentFlags;
      const vibeWords = r.vibes;
      if (primary !== undefined) words.push(compact.wordCode(primary), SpellingRole.PRIMARY);
      if (additional != null) for (let m = 0; m < additional.length; m++) words.push(compact.wordCode(additional[m]!), SpellingRole.GENRE);
      if (flags != null) for (let m = 0; m < flags.length; m++) words.push(compact.wordCode(flags[m]!), SpellingRole.WORD);
      if (vibeWords != null) for (let m = 0; m < vibeWords.length; m++) words.push(compact.wordCode(vibeWords[m]!), SpellingRole.VIBE);
    }
    this.chainCatersIn[i] = (chain << 16) | caters;
    words.endRow(i);
    this.count = i + 1;
  }

  /** The caters bits (implications applied) of word number `code`, computed once per word. */
  private catersOf(code: number): number {
    if (code >= this.catersByWord.length) {
      const grown = new Int32Array(Math.max(code + 1, 2 * this.catersByWord.length)).fill(-1);
      grown.set(this.catersByWord);
      this.catersByWord = grown;
    }
    let bits = this.catersByWord[code]!;
    if (bits < 0) {
      bits = catersMask([this.compact.wordList[code]!]);
      this.catersByWord[code] = bits;
    }
    return bits;
  }

  private grow(): void {
    const cap = this.chainCatersIn.length * 2;
    this.pointIn = buildCopy(this.pointIn, 2 * cap);
    this.chainCatersIn = buildCopy(this.chainCatersIn, cap);
  }

  /**
   * The store's parts, venue k being the record added `order[k]`-th (a permutation of
   * `0..size-1`; default: the order added), keeping `recordCacheSize` decoded records
   * (default DEFAULT_RECORD_CACHE_SIZE). The builder is spent.
   */
  finish(order?: Uint32Array, recordCacheSize?: number): BuiltStore {
    const n = this.count;
    if (order !== undefined && order.length !== n) throw new RangeError(`store order of ${order.length} venues for ${n} records`);
    const lat = buildArray(Float64Array, n);
    const lon = buildArray(Float64Array, n);
    const chain = buildArray(Uint8Array, n);
    const caters = buildArray(Uint16Array, n);
    const primaryGenre = buildArray(Uint16Array, n);
    const termStart = buildArray(Uint32Array, n + 1);
    const vibeStart = buildArray(Uint32Array, n + 1);
    const termDictionary = new TermDictionary('terms');
    const vibeDictionary = new TermDictionary('vibes');
    const { words, pointIn, chainCatersIn } = this;
    const { entries, rowStart } = words;
    const termCodes = new CodeRows(words.length);
    const vibeCodes = new CodeRows(words.vibeCount);
    const genreSpellings: string[] = [];
    // Venues per genre term code (primary or additional genre; a venue once per code):
    // `genreVenues[code]`, with `genreStamp[code]` the last venue (k + 1) counted for it.
    let genreVenues: Uint32Array = new Uint32Array(64);
    let genreStamp: Uint32Array = new Uint32Array(64);
    // Record i's data lies in the order added, venue k's at a random place in it (k follows
    // the kd-tree): it is moved into venue order reading the records in order and writing
    // each to its venue's place (scattered writes do not wait on memory as scattered reads
    // do), then the words are coded reading venues in order. `at[i]`: record i's venue.
    const at = buildArray(Uint32Array, n);
    for (let k = 0; k < n; k++) at[order === undefined ? k : order[k]!] = k;
    // Venue k's word entries: `byVenue[rowAt[k] .. rowAt[k + 1])`.
    const rowAt = buildArray(Uint32Array, n + 1);
    for (let i = 0; i < n; i++) {
      const k = at[i]!;
      lat[k] = pointIn[2 * i]!;
      lon[k] = pointIn[2 * i + 1]!;
      const cc = chainCatersIn[i]!;
      chain[k] = cc >>> 16;
      caters[k] = cc & 0xffff;
      rowAt[k + 1] = rowStart[i + 1]! - rowStart[i]!;
    }
    for (let k = 0; k < n; k++) rowAt[k + 1] = rowAt[k + 1]! + rowAt[k]!;
    const byVenue = buildArray(Uint32Array, Math.max(1, words.length));
    for (let i = 0; i < n; i++) {
      let to = rowAt[at[i]!]!;
      for (let e = rowStart[i]!, end = rowStart[i + 1]!; e < end; e++) byVenue[to++] = entries[e]!;
    }
    for (let k = 0; k < n; k++) {
      primaryGenre[k] = NO_GENRE;
      for (let e = rowAt[k]!, end = rowAt[k + 1]!; e < end; e++) {
        const entry = byVenue[e]!;
        const sp = entry >>> 2;
        const role = entry & 3;
        if (role === SpellingRole.VIBE) {
          vibeCodes.push(words.vibeCode(sp, vibeDictionary));
          continue;
        }
        const code = words.termCode(sp, termDictionary);
        if (role === SpellingRole.PRIMARY) primaryGenre[k] = code;
        if (role !== SpellingRole.WORD) {
          if (words.firstAsGenre(sp)) genreSpellings.push(words.spellings[sp]!);
          if (code >= genreVenues.length) {
            genreVenues = grown(genreVenues, code + 1);
            genreStamp = grown(genreStamp, genreVenues.length);
          }
          if (genreStamp[code] !== k + 1) {
            genreStamp[code] = k + 1;
            genreVenues[code]!++;
          }
        }
        termCodes.push(code);
      }
      termStart[k + 1] = termCodes.endRow();
      vibeStart[k + 1] = vibeCodes.endRow();
    }
    if (order !== undefined) this.ids.renumber(at);
    const genreCounts = new Map<string, number>();
    for (let code = 0; code < genreVenues.length; code++) if (genreVenues[code]! > 0) genreCounts.set(termDictionary.words[code]!, genreVenues[code]!);
    return {
      lat,
      lon,
      chain,
      caters,
      primaryGenre,
      terms: termDictionary,
      termStart,
      termCodes: termCodes.finish(),
      vibes: vibeDictionary,
      vibeStart,
      vibeCodes: vibeCodes.finish(),
      genreSpellings,
      genreCounts,
      idIndex: this.ids,
      source: this.compact.finish(lat, lon, order, recordCacheSize),
    };
  }
}

/** How a word was given: the primary genre, an additional genre, another establishment word, or a vibe. */
const enum SpellingRole {
  WORD = 0,
  GENRE = 1,
  PRIMARY = 2,
  VIBE = 3,
}

/**
 * The words of each record as given (their numbers in the compact records' vocabulary, with
 * their role), by record index: the first pass of a store build, before dictionary codes are
 * given. Establishment words and vibes share the numbers; each has its own dictionary.
 */
class SpellingRows {
  /** Entries `spelling << 2 | role`; record i's are `entries[rowStart[i] .. rowStart[i + 1])`. */
  entries: Uint32Array;
  rowStart: Uint32Array;
  length = 0;
  /** Entries that are vibes. */
  vibeCount = 0;
  /** Per spelling: its establishment-term code + 1 (0: not interned yet); bit 31: listed as a genre. */
  private termCodes: Uint32Array = new Uint32Array(64);
  /** Per spelling: its vibe code + 1 (0: not interned yet). */
  private vibeCodes: Uint32Array = new Uint32Array(64);

  /** `spellings`: the words by number (a live list: numbers are given as records come). */
  constructor(
    records: number,
    readonly spellings: readonly string[],
  ) {
    this.entries = buildArray(Uint32Array, Math.max(16, records * 6));
    this.rowStart = buildArray(Uint32Array, records + 1);
  }

  push(sp: number, role: SpellingRole): void {
    if (sp >= this.termCodes.length) {
      this.termCodes = grown(this.termCodes, sp + 1);
      this.vibeCodes = grown(this.vibeCodes, sp + 1);
    }
    if (this.length === this.entries.length) {
      this.entries = buildCopy(this.entries, this.entries.length * 2);
    }
    if (role === SpellingRole.VIBE) this.vibeCount++;
    this.entries[this.length++] = (sp << 2) | role;
  }

  /** Closes record i's row (records are closed in index order). */
  endRow(i: number): void {
    if (i + 1 === this.rowStart.length) this.rowStart = buildCopy(this.rowStart, this.rowStart.length * 2);
    this.rowStart[i + 1] = this.length;
  }

  /** The establishment-term code of spelling `sp`, interning it at its first use. */
  termCode(sp: number, dictionary: TermDictionary): number {
    const known = this.termCodes[sp]! & 0x7fffffff;
    if (known !== 0) return known - 1;
    const code = dictionary.intern(this.spellings[sp]!);
    this.termCodes[sp] = (this.termCodes[sp]! & 0x80000000) | (code + 1);
    return code;
  }

  /** The vibe code of spelling `sp`, interning it at its first use. */
  vibeCode(sp: number, dictionary: TermDictionary): number {
    const known = this.vibeCodes[sp]!;
    if (known !== 0) return known - 1;
    const code = dictionary.intern(this.spellings[sp]!);
    this.vibeCodes[sp] = code + 1;
    return code;
  }

  /** True the first time spelling `sp` is asked for as a genre (after {@link termCode}). */
  firstAsGenre(sp: number): boolean {
    if ((this.termCodes[sp]! & 0x80000000) !== 0) return false;
    this.termCodes[sp] = (this.termCodes[sp]! | 0x80000000) >>> 0;
    return true;
  }
}

function grown(a: Uint32Array, least: number): Uint32Array {
  const b = new Uint32Array(Math.max(least, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Rows of codes appended into one growing Uint16Array: `push` the codes of a row in any
 * order, then `endRow` sorts that row ascending, drops repeats and returns the end offset.
 * No allocation per row (rows are a few codes: insertion sort).
 */
class CodeRows {
  private codes: Uint16Array;
  private length = 0;
  private rowStart = 0;

  constructor(capacity: number) {
    this.codes = buildArray(Uint16Array, Math.max(16, capacity));
  }

  push(code: number): void {
    if (this.length === this.codes.length) {
      this.codes = buildCopy(this.codes, this.codes.length * 2);
    }
    this.codes[this.length++] = code;
  }

  endRow(): number {
    const c = this.codes;
    const start = this.rowStart;
    let end = start;
    for (let k = start; k < this.length; k++) {
      const v = c[k]!;
      let j = end;
      while (j > start && c[j - 1]! > v) j--;
      if (j > start && c[j - 1] === v) continue; // a repeat
      for (let m = end; m > j; m--) c[m] = c[m - 1]!;
      c[j] = v;
      end++;
    }
    this.length = end;
    this.rowStart = end;
    return end;
  }

  finish(): Uint16Array {
    return buildCopy(this.codes, this.length);
  }
}

