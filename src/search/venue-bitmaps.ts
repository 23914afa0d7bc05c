import type { VenueStore } from '../store/venue-store.js';
import { PART_CATERS, PART_CHAIN, PART_ESTABLISHMENT, PART_GENRE, PART_VIBES, type CompiledPreferences } from './match.js';
import type { HitBuffer } from '../spatial/hit-buffer.js';
import type { RadiusWalker } from '../spatial/radius-walk.js';

/** Codes below this have a plane (the bulk scorer's bit columns hold the same codes). */
const CODES = 32;
/** First plane of each column: caters bits (16), chain values (3), establishment terms, vibes, primary genres (32 each). */
const PLANE_CATERS = 0;
const PLANE_CHAIN = 16;
const PLANE_TERM = 19;
const PLANE_VIBE = PLANE_TERM + CODES;
const PLANE_PRIMARY = PLANE_VIBE + CODES;
const PLANES = PLANE_PRIMARY + CODES;

/**
 * The store's search columns as bit planes in dense (kd-tree) order, so that "which venues of
 * an index range meet every asked part" is answered 32 venues at a time (issue 16): plane p
 * has bit (i & 31) of word i >> 5 set when venue i has caters bit c (plane PLANE_CATERS + c),
 * chain value c, establishment term c, vibe c or primary genre c (codes below 32). Each plane
 * is built from its column when a query first needs it (one pass, n / 8 bytes), never
 * stored: a snapshot's or a live side's store builds its own, and only the values queries
 * ask for take memory.
 */
export class VenueBitmaps {
  readonly words: number;
  private readonly store: VenueStore;
  private readonly termBits: Uint32Array;
  private readonly vibeBits: Uint32Array;
  private readonly planes: Array<Uint32Array | null> = new Array<Uint32Array | null>(PLANES).fill(null);
  // per query: the planes every full match has set, and the primary genres it may have
  private readonly need: Uint32Array[] = [];
  private needCount = 0;
  private readonly primary: Uint32Array[] = [];
  private primaryCount = 0;
  private readonly filter: Uint32Array[] = [];
  private filterCount = 0;

  constructor(store: VenueStore, termBits: Uint32Array, vibeBits: Uint32Array) {
    this.store = store;
    this.termBits = termBits;
    this.vibeBits = vibeBits;
    this.words = (store.size + 31) >>> 5;
  }

  /** Bytes held by the planes built so far. */
  get byteSize(): number {
    let bytes = 0;
    for (const p of this.planes) bytes += p?.byteLength ?? 0;
    return bytes;
  }

  /** Plane `p` (see the class), built on first use. */
  plane(p: number): Uint32Array {
    const built = this.planes[p];
    if (built !== undefined && built !== null) return built;
    const out = new Uint32Array(this.words);
    const n = this.store.size;
    const { caters, chain, primaryGenre } = this.store;
    if (p < PLANE_CHAIN) {
      const bit = 1 << (p - PLANE_CATERS);
      for (let i = 0; i < n; i++) if (caters[i]! & bit) out[i >>> 5]! |= 1 << (i & 31);
    } else if (p < PLANE_TERM) {
      const value = p - PLANE_CHAIN;
      for (let i = 0; i < n; i++) if (chain[i] === value) out[i >>> 5]! |= 1 << (i & 31);
    } else if (p < PLANE_PRIMARY) {
      const column = p < PLANE_VIBE ? this.termBits : this.vibeBits;
      const bit = 1 << (p < PLANE_VIBE ? p - PLANE_TERM : p - PLANE_VIBE);
      for (let i = 0; i < n; i++) if (column[i]! & bit) out[i >>> 5]! |= 1 << (i & 31);
    } else {
      const value = p - PLANE_PRIMARY;
      for (let i = 0; i < n; i++) if (primaryGenre[i] === value) out[i >>> 5]! |= 1 << (i & 31);
    }
    this.planes[p] = out;
    return out;
  }

  /**
   * Prepares {@link selectFull} for `prefs`: a full match meets every asked part that the
   * columns answer (all asked caters flags, the preferred chain value, a primary genre among
   * the asked kinds, every asked flag and vibe), i.e. has the best total a venue can have
   * but for its opening state. Returns false when no venue can (a value absent from the data)
   * or the preferences are not all on planes.
   */
  plan(prefs: CompiledPreferences): boolean {
    const need = this.need;
    let k = 0;
    let possible = true;
    const asked = prefs.asked;
    if (asked & (1 << PART_CATERS)) {
      for (let j = 0; j < prefs.catersBits.length; j++) {
        const b = prefs.catersBits[j]!;
        if (b === 0 || (b & (b - 1)) !== 0) possible = false;
        else need[k++] = this.plane(PLANE_CATERS + 31 - Math.clz32(b));
      }
    }
    if (asked & (1 << PART_CHAIN)) need[k++] = this.plane(PLANE_CHAIN + prefs.chainWanted);
    if (asked & (1 << PART_ESTABLISHMENT)) {
      for (let j = 0; j < prefs.flagCodes.length; j++) {
        const c = prefs.flagCodes[j]!;
        if (c < 0 || c >= CODES) possible = false;
        else need[k++] = this.plane(PLANE_TERM + c);
      }
    }
    if (asked & (1 << PART_VIBES)) {
      for (let j = 0; j < prefs.vibeCodes.length; j++) {
        const c = prefs.vibeCodes[j]!;
        if (c < 0 || c >= CODES) possible = false;
        else need[k++] = this.plane(PLANE_VIBE + c);
      }
    }
    let g = 0;
    if (asked & (1 << PART_GENRE)) {
      for (let j = 0; j < prefs.genreCodes.length; j++) {
        const c = prefs.genreCodes[j]!;
        if (c >= 0 && c < CODES) this.primary[g++] = this.plane(PLANE_PRIMARY + c);
      }
      if (g === 0) possible = false;
    }
    this.needCount = k;
    this.primaryCount = g;
    return possible;
  }

  /**
   * Sets the venues {@link filterWord} accepts: those with every caters bit of
   * `catersRequired` and, unless `chainRequired` is -1, that chain value (a ColumnFilter's
   * non-compromise fields).
   */
  planFilter(catersRequired: number, chainRequired: number): void {
    let k = 0;
    for (let c = catersRequired; c !== 0; c &= c - 1) this.filter[k++] = this.plane(PLANE_CATERS + 31 - Math.clz32(c & -c));
    if (chainRequired >= 0) this.filter[k++] = this.plane(PLANE_CHAIN + chainRequired);
    this.filterCount = k;
  }

  /** Bit j set when venue 32 w + j passes the filter of {@link planFilter} (every bit when it asks nothing). */
  filterWord(w: number): number {
    let bits = -1;
    for (let p = 0; p < this.filterCount; p++) bits &= this.filter[p]![w]!;
    return bits;
  }

  /** {@link filterWord} with only the bits of venues in [lo, hi] kept. */
  private filterWordIn(w: number, lo: number, hi: number): number {
    let bits = this.filterWord(w);
    if (w === lo >>> 5) bits &= 0xffffffff << (lo & 31);
    if (w === hi >>> 5) bits &= 0xffffffff >>> (31 - (hi & 31));
    return bits;
  }

  /** Whether the filter of {@link planFilter} asks anything (else it accepts every venue). */
  get filters(): boolean {
    return this.filterCount > 0;
  }

  /**
   * How many venues of [lo, hi] the filter of {@link planFilter} accepts and `within` holds
   * for: the filter's words first, so only the venues it accepts are measured.
   */
  countFilteredWithin(lo: number, hi: number, walker: RadiusWalker): number {
    let count = 0;
    const wLast = hi >>> 5;
    for (let w = lo >>> 5; w <= wLast; w++) {
      for (let bits = this.filterWordIn(w, lo, hi); bits !== 0; bits &= bits - 1) if (walker.within((w << 5) + 31 - Math.clz32(bits & -bits))) count++;
    }
    return count;
  }

  /** How many venues of [lo, hi] the filter of {@link planFilter} accepts (hi - lo + 1 when it asks nothing). */
  countFiltered(lo: number, hi: number): number {
    if (this.filterCount === 0) return hi - lo + 1;
    let count = 0;
    const wLast = hi >>> 5;
    for (let w = lo >>> 5; w <= wLast; w++) count += bitCount(this.filterWordIn(w, lo, hi));
    return count;
  }

  /**
   * Appends to `out` (index only; distance and along 0) the full matches ({@link plan}) of the
   * index ranges [rangeLo[r], rangeHi[r]], r < rangeCount, from `at` (range at[0], index
   * at[1] within it) on, until `out` holds at least `upTo` hits (a word's matches are taken
   * whole); `at` is left where to go on (at[0] === rangeCount: done). {@link plan} must have
   * returned true. Ranges whose `rangeNear` exceeds `maxNear` are passed over.
   */
  selectFull(
    rangeLo: Int32Array,
    rangeHi: Int32Array,
    rangeNear: Float64Array,
    rangeCount: number,
    maxNear: number,
    at: Int32Array,
    out: HitBuffer,
    upTo: number,
  ): void {
    const need = this.need;
    const needCount = this.needCount;
    const primary = this.primary;
    const primaryCount = this.primaryCount;
    let r = at[0]!;
    let i = at[1]!;
    while (r < rangeCount && out.length < upTo) {
      const hi = rangeNear[r]! > maxNear ? -1 : rangeHi[r]!;
      while (i <= hi && out.length < upTo) {
        const w = i >>> 5;
        // the word's venues from i to min(hi, the word's last)
        const last = Math.min(hi, (w << 5) + 31);
        let bits = (0xffffffff << (i & 31)) & (0xffffffff >>> (31 - (last & 31)));
        for (let p = 0; p < needCount && bits !== 0; p++) bits &= need[p]![w]!;
        if (primaryCount > 0 && bits !== 0) {
          let any = 0;
          for (let p = 0; p < primaryCount; p++) any |= primary[p]![w]!;
          bits &= any;
        }
        for (; bits !== 0; bits &= bits - 1) out.push((w << 5) + 31 - Math.clz32(bits & -bits), 0);
        i = last + 1;
      }
      if (i > hi) {
        r++;
        i = r < rangeCount ? rangeLo[r]! : 0;
      }
    }
    at[0] = r;
    at[1] = i;
  }
}

/** Number of set bits of a 32-bit integer. */
export function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
