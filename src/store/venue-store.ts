import type { VenueRecord } from '../schema/venue.js';
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

  /** Builds the columns from records (in the order given); duplicate ids are an error. */
  constructor(records: readonly VenueRecord[]);
  /** Restores a store from saved columns over a record source (see src/snapshot). */
  constructor(columns: StoreColumns, source: RecordSource);
  constructor(input: readonly VenueRecord[] | StoreColumns, restored?: RecordSource) {
    if (!Array.isArray(input)) {
      const c = input as StoreColumns;
      const source = restored!;
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
    const n = records.length;
    this.size = n;
    this.idOrder = null;
    const compact = new CompactRecordsBuilder(n);
    const idOfRecord = (j: number): string => records[j]!.id;
    const genreSpellings = new Set<string>();
    this.lat = new Float64Array(n);
    this.lon = new Float64Array(n);
    this.chain = new Uint8Array(n);
    this.caters = new Uint16Array(n);
    this.primaryGenre = new Uint16Array(n);
    this.termStart = new Uint32Array(n + 1);
    this.vibeStart = new Uint32Array(n + 1);
    this.idIndex = new IdIndex(n);
    const termCodes: number[] = [];
    const vibeCodes: number[] = [];
    const scratch: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      this.idIndex.add(r.id, i, idOfRecord);
      this.lat[i] = r.location.coordinates[0];
      this.lon[i] = r.location.coordinates[1];
      compact.add(r, this.lat[i]!, this.lon[i]!);
      this.chain[i] = r.isChain === undefined ? CHAIN_UNKNOWN : r.isChain ? CHAIN_YES : CHAIN_NO;
      this.caters[i] = catersMask(r.catersFlags);
      this.primaryGenre[i] = r.primaryGenre === undefined ? NO_GENRE : this.terms.intern(r.primaryGenre);
      if (r.primaryGenre !== undefined) genreSpellings.add(r.primaryGenre);
      for (const g of r.additionalGenres ?? []) genreSpellings.add(g);

      scratch.length = 0;
      if (r.primaryGenre !== undefined) scratch.push(this.primaryGenre[i]!);
      for (const g of r.additionalGenres ?? []) scratch.push(this.terms.intern(g));
      for (const f of r.establishmentFlags ?? []) scratch.push(this.terms.intern(f));
      appendSortedUnique(termCodes, scratch);
      this.termStart[i + 1] = termCodes.length;

      scratch.length = 0;
      for (const v of r.vibes ?? []) scratch.push(this.vibes.intern(v));
      appendSortedUnique(vibeCodes, scratch);
      this.vibeStart[i + 1] = vibeCodes.length;
    }
    this.termCodes = Uint16Array.from(termCodes);
    this.vibeCodes = Uint16Array.from(vibeCodes);
    this.genreSpellings = [...genreSpellings];
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

function appendSortedUnique(out: number[], codes: number[]): void {
  codes.sort((a, b) => a - b);
  let prev = -1;
  for (const c of codes) {
    if (c !== prev) out.push(c);
    prev = c;
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
