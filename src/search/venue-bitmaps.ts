import type { VenueStore } from '../store/venue-store.js';
import { PART_CATERS, PART_CHAIN, PART_ESTABLISHMENT, PART_GENRE, PART_VIBES, type CompiledPreferences } from './match.js';
import type { HitBuffer } from '../spatial/hit-buffer.js';

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
 * has bit (i & 31) of word p * words + (i >> 5) set when venue i has caters bit p
 * (PLANE_CATERS + p), chain value c, establishment term c, vibe c or primary genre c (codes
 * below 32). Built from the columns in one pass (about 14 bytes per venue), never stored:
 * a snapshot's or a live side's store builds its own on first use.
 */
export class VenueBitmaps {
  readonly words: number;
  readonly planes: Uint32Array;
  // per query: the planes every full match has set, and the primary genres it may have
  private readonly need = new Int32Array(PLANES);
  private needCount = 0;
  private primaryPlanes = new Int32Array(CODES);
  private primaryCount = 0;
  private readonly filterPlanes = new Int32Array(17);
  private filterCount = 0;

  constructor(store: VenueStore, termBits: Uint32Array, vibeBits: Uint32Array) {
    const n = store.size;
    const words = (n + 31) >>> 5;
    this.words = words;
    const planes = new Uint32Array(PLANES * words);
    const { caters, chain, primaryGenre } = store;
    for (let i = 0; i < n; i++) {
      const w = i >>> 5;
      const bit = 1 << (i & 31);
      for (let c = caters[i]!; c !== 0; c &= c - 1) planes[(PLANE_CATERS + 31 - Math.clz32(c & -c)) * words + w]! |= bit;
      planes[(PLANE_CHAIN + chain[i]!) * words + w]! |= bit;
      for (let t = termBits[i]!; t !== 0; t &= t - 1) planes[(PLANE_TERM + 31 - Math.clz32(t & -t)) * words + w]! |= bit;
      for (let v = vibeBits[i]!; v !== 0; v &= v - 1) planes[(PLANE_VIBE + 31 - Math.clz32(v & -v)) * words + w]! |= bit;
      const p = primaryGenre[i]!;
      if (p < CODES) planes[(PLANE_PRIMARY + p) * words + w]! |= bit;
    }
    this.planes = planes;
  }

  get byteSize(): number {
    return this.planes.byteLength;
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
        else need[k++] = PLANE_CATERS + 31 - Math.clz32(b);
      }
    }
    if (asked & (1 << PART_CHAIN)) need[k++] = PLANE_CHAIN + prefs.chainWanted;
    if (asked & (1 << PART_ESTABLISHMENT)) {
      for (let j = 0; j < prefs.flagCodes.length; j++) {
        const c = prefs.flagCodes[j]!;
        if (c < 0 || c >= CODES) possible = false;
        else need[k++] = PLANE_TERM + c;
      }
    }
    if (asked & (1 << PART_VIBES)) {
      for (let j = 0; j < prefs.vibeCodes.length; j++) {
        const c = prefs.vibeCodes[j]!;
        if (c < 0 || c >= CODES) possible = false;
        else need[k++] = PLANE_VIBE + c;
      }
    }
    let g = 0;
    if (asked & (1 << PART_GENRE)) {
      for (let j = 0; j < prefs.genreCodes.length; j++) {
        const c = prefs.genreCodes[j]!;
        if (c >= 0 && c < CODES) this.primaryPlanes[g++] = PLANE_PRIMARY + c;
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
    for (let c = catersRequired; c !== 0; c &= c - 1) this.filterPlanes[k++] = PLANE_CATERS + 31 - Math.clz32(c & -c);
    if (chainRequired >= 0) this.filterPlanes[k++] = PLANE_CHAIN + chainRequired;
    this.filterCount = k;
  }

  /** Bit j set when venue 32 w + j passes the filter of {@link planFilter} (every bit when it asks nothing). */
  filterWord(w: number): number {
    let bits = -1;
    for (let p = 0; p < this.filterCount; p++) bits &= this.planes[this.filterPlanes[p]! * this.words + w]!;
    return bits;
  }

  /** How many venues of [lo, hi] the filter of {@link planFilter} accepts (hi - lo + 1 when it asks nothing). */
  countFiltered(lo: number, hi: number): number {
    if (this.filterCount === 0) return hi - lo + 1;
    let count = 0;
    const wLast = hi >>> 5;
    for (let w = lo >>> 5; w <= wLast; w++) {
      let bits = this.filterWord(w);
      if (w === lo >>> 5) bits &= 0xffffffff << (lo & 31);
      if (w === wLast) bits &= 0xffffffff >>> (31 - (hi & 31));
      count += bitCount(bits);
    }
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
    const planes = this.planes;
    const words = this.words;
    const need = this.need;
    const needCount = this.needCount;
    const primary = this.primaryPlanes;
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
        for (let p = 0; p < needCount && bits !== 0; p++) bits &= planes[need[p]! * words + w]!;
        if (primaryCount > 0 && bits !== 0) {
          let any = 0;
          for (let p = 0; p < primaryCount; p++) any |= planes[primary[p]! * words + w]!;
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
