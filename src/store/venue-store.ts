import type { VenueRecord } from '../schema/venue.js';
import type { IdIndex } from './id-index.js';
import type { RecordSource } from './record-source.js';
import type { PickedFields } from './picked-fields.js';
import { sortByString } from './sort-by-string.js';
import { VenueStoreBuilder, type BuiltStore } from './venue-store-builder.js';
import { TermDictionary } from './vocabulary.js';

export { CHAIN_NO, CHAIN_UNKNOWN, CHAIN_YES, NO_GENRE } from './venue-store-builder.js';

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
  /** See {@link VenueStore.genreCounts}; absent: not known (a snapshot written before 2026-11-29). */
  readonly genreCounts?: ReadonlyMap<string, number>;
  /** Venue indices in ascending id order (JavaScript string order). */
  readonly idOrder: Uint32Array;
  /** A hash of the ids, when built (ids are then found by it, not by binary search over idOrder). */
  readonly idIndex?: IdIndex;
}

/**
 * Venues in columns, indexed by a dense internal index `0..size-1` (the order of the records
 * given; the engine gives them in kd-tree order, see engine.ts buildStore). The search
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
  readonly terms: TermDictionary;
  readonly termStart: Uint32Array;
  readonly termCodes: Uint16Array;
  readonly vibes: TermDictionary;
  readonly vibeStart: Uint32Array;
  readonly vibeCodes: Uint16Array;
  /** Distinct genre strings as the data spells them (primary and additional genres). */
  readonly genreSpellings: readonly string[];
  /**
   * The venues using each genre word (its normal form: a `terms` word) as their primary or
   * an additional genre, each venue once per word; only words with at least one. Null when
   * not known (restored from a snapshot that lacks it): live data then counts a genre word
   * from the venues' bytes the first time one of its venues goes (src/live/live-words.ts).
   */
  readonly genreCounts: ReadonlyMap<string, number> | null;
  // id -> index: a typed-array hash table for a store built from records (or folded runs);
  // for a restored store, binary search over `idOrder` (venue indices in ascending id
  // order), which costs nothing to load.
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
  /** A store from a {@link VenueStoreBuilder}'s parts. */
  constructor(built: BuiltStore);
  constructor(input: readonly VenueRecord[] | StoreColumns | BuiltStore, restoredOrOrder?: RecordSource | Uint32Array) {
    if (Array.isArray(input)) {
      const records = input as readonly VenueRecord[];
      const builder = new VenueStoreBuilder(records.length);
      for (let i = 0; i < records.length; i++) builder.add(records[i]!);
      input = builder.finish(restoredOrOrder as Uint32Array | undefined);
    }
    const c = input as StoreColumns | BuiltStore;
    this.lat = c.lat;
    this.lon = c.lon;
    this.chain = c.chain;
    this.caters = c.caters;
    this.primaryGenre = c.primaryGenre;
    this.termStart = c.termStart;
    this.termCodes = c.termCodes;
    this.vibeStart = c.vibeStart;
    this.vibeCodes = c.vibeCodes;
    this.genreSpellings = c.genreSpellings;
    this.genreCounts = c.genreCounts ?? null;
    if (!('idOrder' in c)) {
      this.source = c.source;
      this.size = c.source.length;
      this.terms = c.terms;
      this.vibes = c.vibes;
      this.idIndex = c.idIndex;
      this.idOrder = null;
      return;
    }
    const source = restoredOrOrder as RecordSource;
    this.source = source;
    this.size = source.length;
    this.terms = new TermDictionary('terms');
    for (const w of c.termWords) this.terms.intern(w);
    this.vibes = new TermDictionary('vibes');
    for (const w of c.vibeWords) this.vibes.intern(w);
    this.idIndex = c.idIndex ?? null;
    this.idOrder = c.idOrder;
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

  /** Venue i's values of a few keys (see PickedFields), without building its full record. */
  pick(i: number, into: PickedFields): void {
    this.source.pick(i, into);
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
   * Every record in dense order, each built anew when the iteration reaches it (lazily: one
   * at a time, not all at once), bypassing the record cache: the caller may change them
   * without changing any answer. Iterable again (each iteration builds them anew). Builds
   * every record: meant for tools, compaction and snapshots, not for serving.
   */
  get records(): Iterable<VenueRecord> {
    return { [Symbol.iterator]: () => this.freshRecords() };
  }

  private *freshRecords(): Generator<VenueRecord> {
    for (let i = 0; i < this.size; i++) yield this.source.fresh(i);
  }

  /** Venue indices in ascending id order (JavaScript string order), computed once (do not change it). */
  idsInOrder(): Uint32Array {
    if (this.idOrder !== null) return this.idOrder;
    if (this.sortedIds !== null) return this.sortedIds;
    const order = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) order[i] = i;
    const ids = Array.from({ length: this.size }, (_, i) => this.source.id(i));
    this.sortedIds = sortByString(ids, order);
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
