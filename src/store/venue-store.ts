import type { VenueRecord } from '../schema/venue.js';
import { buildArray, buildCopy } from './build-memory.js';
import { CompactRecordsBuilder } from './compact-records.js';
import { IdIndex } from './id-index.js';
import { ArrayRecordSource, type RecordSource } from './record-source.js';
import { TermDictionary, catersMask } from './vocabulary.js';

/** `chain` column values. */
export const CHAIN_NO = 0;
export const CHAIN_YES = 1;
export const CHAIN_UNKNOWN = 2;

/** `primaryGenre` column value for a venue without one. */
export const NO_GENRE = 0xffff;

/** The search-path columns of a store, as saved in a snapshot (see src/snapshot). */
export interface StoreColumns {
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly chain: Uint8Array;
  readonly caters: Uint16Array;
  readonly primaryGenre: Uint16Array;
  readonly termWords: readonly string[];
  readonly termStart: Uint32Array;
  readonly termCodes: Uint16Array;
  readonly vibeWords: readonly string[];
  readonly vibeStart: Uint32Array;
  readonly vibeCodes: Uint16Array;
  readonly genreSpellings: readonly string[];
  /** Venue indices in ascending id order (JavaScript string order). */
  readonly idOrder: Uint32Array;
}

/**
 * Venues in columns, indexed by a dense internal index `0..size-1` (the order of the records
 * given; the engine gives them in kd-tree order, see engine.ts spatialOrder). The search
 * path reads only typed arrays; full records (from a {@link RecordSource}: the store's own
 * compact copy of the records it was built from (compact-records.ts; the caller's objects
 * are not kept), or a snapshot's lazily parsed JSON) are read only to build the responses
 * of the page returned.
 *
 * Establishment terms (primaryGenre, additionalGenres, establishmentFlags, normalised) and
 * vibes are stored as compressed rows: venue i's codes are `termCodes[termStart[i] ..
 * termStart[i+1])`, sorted ascending and without duplicates.
 */
export class VenueStore {
  readonly size: number;
  readonly source: RecordSource;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  /** CHAIN_NO, CHAIN_YES or CHAIN_UNKNOWN. */
  readonly chain: Uint8Array;
  /** Caters bit set (see vocabulary.ts), implications applied. */
  readonly caters: Uint16Array;
  /** Code of the primary genre in `terms`, or NO_GENRE. */
  readonly primaryGenre: Uint16Array;
  readonly terms = new TermDictionary();
  readonly termStart: Uint32Array;
  readonly termCodes: Uint16Array;
  readonly vibes = new TermDictionary();
  readonly vibeStart: Uint32Array;
  readonly vibeCodes: Uint16Array;
  /** Distinct genre strings as the data spells them (primary and additional genres). */
  readonly genreSpellings: readonly string[];
  // id -> index: a typed-array hash table for a store built from records; for a restored
  // store, binary search over `idOrder` (venue indices in ascending id order), which costs
  // nothing to load.
  private readonly idIndex: IdIndex | null;
  private readonly idOrder: Uint32Array | null;
  /** idsInOrder() of a store built from records, once computed. */
  private sortedIds: Uint32Array | null = null;

  /**
   * Builds the columns from records; duplicate ids are an error. Venue k is `records[k]`, or
   * `records[order[k]]` when `order` (a permutation of `0..records.length-1`) is given.
   */
  constructor(records: readonly VenueRecord[], order?: Uint32Array);
  /** Restores a store from saved columns over a record source (see src/snapshot). */
  constructor(columns: StoreColumns, source: RecordSource);
  constructor(input: readonly VenueRecord[] | StoreColumns, restoredOrOrder?: RecordSource | Uint32Array) {
    if (!Array.isArray(input)) {
      const c = input as StoreColumns;
      const source = restoredOrOrder as RecordSource;
      this.size = source.length;
      this.source = source;
      this.lat = c.lat;
      this.lon = c.lon;
      this.chain = c.chain;
      this.caters = c.caters;
      this.primaryGenre = c.primaryGenre;
      for (const w of c.termWords) this.terms.intern(w);
      this.termStart = c.termStart;
      this.termCodes = c.termCodes;
      for (const w of c.vibeWords) this.vibes.intern(w);
      this.vibeStart = c.vibeStart;
      this.vibeCodes = c.vibeCodes;
      this.genreSpellings = c.genreSpellings;
      this.idIndex = null;
      this.idOrder = c.idOrder;
      return;
    }
    const records = input as readonly VenueRecord[];
    const order = restoredOrOrder as Uint32Array | undefined;
    const n = records.length;
    this.size = n;
    this.idOrder = null;
    // Venue k is records[order[k]]. The records are read once, in the caller's order (the
    // order they lie in memory: reading them in venue order would miss the cache on every
    // object); what is written goes to the venue's index `at[i]`.
    const at = buildArray(Uint32Array, n);
    for (let k = 0; k < n; k++) at[order === undefined ? k : order[k]!] = k;
    const idOfVenue = order === undefined ? (k: number): string => records[k]!.id : (k: number): string => records[order[k]!]!.id;
    const compact = new CompactRecordsBuilder(n);
    this.lat = buildArray(Float64Array, n);
    this.lon = buildArray(Float64Array, n);
    this.chain = buildArray(Uint8Array, n);
    this.caters = buildArray(Uint16Array, n);
    this.primaryGenre = buildArray(Uint16Array, n);
    this.termStart = buildArray(Uint32Array, n + 1);
    this.vibeStart = buildArray(Uint32Array, n + 1);
    this.idIndex = new IdIndex(n);
    const terms = new SpellingRows(n);
    const vibes = new SpellingRows(n);
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      const k = at[i]!;
      this.idIndex.add(r.id, k, idOfVenue);
      const lat = r.location.coordinates[0];
      const lon = r.location.coordinates[1];
      this.lat[k] = lat;
      this.lon[k] = lon;
      compact.add(r, lat, lon, k);
      this.chain[k] = r.isChain === undefined ? CHAIN_UNKNOWN : r.isChain ? CHAIN_YES : CHAIN_NO;
      this.caters[k] = catersMask(r.catersFlags);
      const primary = r.primaryGenre;
      const additional = r.additionalGenres;
      const flags = r.establishmentFlags;
      const vibeWords = r.vibes;
      if (primary !== undefined) terms.push(primary, SpellingRole.PRIMARY);
      if (additional != null) for (let m = 0; m < additional.length; m++) terms.push(additional[m]!, SpellingRole.GENRE);
      if (flags != null) for (let m = 0; m < flags.length; m++) terms.push(flags[m]!, SpellingRole.WORD);
      terms.endRow(i);
      if (vibeWords != null) for (let m = 0; m < vibeWords.length; m++) vibes.push(vibeWords[m]!, SpellingRole.WORD);
      vibes.endRow(i);
    }
    // Codes are given in venue order (as if each venue's words were interned in turn), so
    // the dictionaries, genre spellings and rows do not depend on the caller's order.
    const termCodes = new CodeRows(terms.length);
    const vibeCodes = new CodeRows(vibes.length);
    const genreSpellings: string[] = [];
    for (let k = 0; k < n; k++) {
      const i = order === undefined ? k : order[k]!;
      this.primaryGenre[k] = NO_GENRE;
      for (let e = terms.rowStart[i]!, end = terms.rowStart[i + 1]!; e < end; e++) {
        const entry = terms.entries[e]!;
        const sp = entry >>> 2;
        const role = entry & 3;
        const code = terms.code(sp, this.terms);
        if (role === SpellingRole.PRIMARY) this.primaryGenre[k] = code;
        if (role !== SpellingRole.WORD && terms.firstAsGenre(sp)) genreSpellings.push(terms.spellings[sp]!);
        termCodes.push(code);
      }
      this.termStart[k + 1] = termCodes.endRow();
      for (let e = vibes.rowStart[i]!, end = vibes.rowStart[i + 1]!; e < end; e++) vibeCodes.push(vibes.code(vibes.entries[e]! >>> 2, this.vibes));
      this.vibeStart[k + 1] = vibeCodes.endRow();
    }
    this.termCodes = termCodes.finish();
    this.vibeCodes = vibeCodes.finish();
    this.genreSpellings = genreSpellings;
    this.source = compact.finish(this.lat, this.lon);
  }

  /** The dense index of a venue id, or -1. */
  indexOf(id: string): number {
    if (this.idIndex !== null) return this.idIndex.indexOf(id, (j) => this.source.id(j));
    const order = this.idOrder!;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const i = order[mid]!;
      const at = this.source.id(i);
      if (at === id) return i;
      if (at < id) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** The record of a dense index. */
  record(i: number): VenueRecord {
    return this.source.get(i);
  }

  /** The id of a dense index (cheap: no full record). */
  id(i: number): string {
    return this.source.id(i);
  }

  /** The name of a dense index (cheap: no full record). */
  name(i: number): string {
    return this.source.name(i);
  }

  /**
   * Every record in dense order. For a restored store this parses every record: meant for
   * tools and benchmarks, not for serving.
   */
  get records(): readonly VenueRecord[] {
    if (this.source instanceof ArrayRecordSource) return this.source.records;
    return Array.from({ length: this.size }, (_, i) => this.source.get(i));
  }

  /** Venue indices in ascending id order (JavaScript string order), computed once (do not change it). */
  idsInOrder(): Uint32Array {
    if (this.idOrder !== null) return this.idOrder;
    if (this.sortedIds !== null) return this.sortedIds;
    const order = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) order[i] = i;
    const ids = Array.from({ length: this.size }, (_, i) => this.source.id(i));
    this.sortedIds = order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
    return this.sortedIds;
  }

  /** Whether venue i has establishment term `code` (binary search in its sorted row). */
  hasTerm(i: number, code: number): boolean {
    return sortedRowHas(this.termCodes, this.termStart[i]!, this.termStart[i + 1]!, code);
  }

  /** Whether venue i has vibe `code`. */
  hasVibe(i: number, code: number): boolean {
    return sortedRowHas(this.vibeCodes, this.vibeStart[i]!, this.vibeStart[i + 1]!, code);
  }

  /** Bytes of the columns on the search path (not the caller's records or the id map). */
  get columnBytes(): number {
    return (
      this.lat.byteLength +
      this.lon.byteLength +
      this.chain.byteLength +
      this.caters.byteLength +
      this.primaryGenre.byteLength +
      this.termStart.byteLength +
      this.termCodes.byteLength +
      this.vibeStart.byteLength +
      this.vibeCodes.byteLength
    );
  }
}

/** How a word was given: the primary genre, an additional genre, or another word. */
const enum SpellingRole {
  WORD = 0,
  GENRE = 1,
  PRIMARY = 2,
}

/**
 * The words of each record as given (spelling numbers in first-seen order, with their role),
 * by record index: the first pass of a store build, before dictionary codes are given.
 */
class SpellingRows {
  readonly spellings: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Entries `spelling << 2 | role`; record i's are `entries[rowStart[i] .. rowStart[i + 1])`. */
  entries: Uint32Array;
  readonly rowStart: Uint32Array;
  length = 0;
  /** Per spelling: its dictionary code + 1 (0: not interned yet); bit 31: listed as a genre. */
  private codes: Uint32Array = new Uint32Array(64);

  constructor(records: number) {
    this.entries = buildArray(Uint32Array, Math.max(16, records * 4));
    this.rowStart = buildArray(Uint32Array, records + 1);
  }

  push(word: string, role: SpellingRole): void {
    let sp = this.numbers.get(word);
    if (sp === undefined) {
      sp = this.spellings.length;
      this.spellings.push(word);
      this.numbers.set(word, sp);
    }
    if (this.length === this.entries.length) {
      this.entries = buildCopy(this.entries, this.entries.length * 2);
    }
    this.entries[this.length++] = (sp << 2) | role;
  }

  /** Closes record i's row (records are closed in index order). */
  endRow(i: number): void {
    this.rowStart[i + 1] = this.length;
  }

  /** The dictionary code of spelling `sp`, interning it at its first use. */
  code(sp: number, dictionary: TermDictionary): number {
    if (sp >= this.codes.length) {
      const grown = new Uint32Array(Math.max(sp + 1, this.codes.length * 2));
      grown.set(this.codes);
      this.codes = grown;
    }
    const known = this.codes[sp]! & 0x7fffffff;
    if (known !== 0) return known - 1;
    const code = dictionary.intern(this.spellings[sp]!);
    this.codes[sp] = (this.codes[sp]! & 0x80000000) | (code + 1);
    return code;
  }

  /** True the first time spelling `sp` is asked for as a genre (after {@link code}). */
  firstAsGenre(sp: number): boolean {
    if ((this.codes[sp]! & 0x80000000) !== 0) return false;
    this.codes[sp] = (this.codes[sp]! | 0x80000000) >>> 0;
    return true;
  }
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

function sortedRowHas(codes: Uint16Array, lo: number, hi: number, code: number): boolean {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = codes[mid]!;
    if (c === code) return true;
    if (c < code) lo = mid + 1;
    else hi = mid;
  }
  return false;
}
