import type { HitBuffer } from '../spatial/hit-buffer.js';
import { CHAIN_UNKNOWN, type VenueStore } from '../store/venue-store.js';
import {
  OPENING_WANT_OPEN,
  PART_CATERS,
  PART_CHAIN,
  PART_ESTABLISHMENT,
  PART_GENRE,
  PART_OPENING,
  PART_VIBES,
  PART_WEIGHTS,
  type CompiledPreferences,
  type OpenStateSource,
} from './match.js';
import { OpenState } from '../hours/hours-table.js';
import type { Ranking } from './ranking.js';
import { bitCount, VenueBitmaps } from './venue-bitmaps.js';

/** Term and vibe codes below this fit the per-venue bit columns. */
const BITS = 32;

/**
 * The scoring of every hit of a query in one loop: the same totals as venueTotal (match.ts,
 * which documents the parts), computed from per-venue bit columns instead of a binary search
 * per asked term, with every per-query constant in a local. Establishment terms and vibes
 * with codes below 32 (the kinds, flags and vibes of a directory) are held as one 32-bit
 * word per venue, built once from the store's rows; a query asking for a code outside it
 * is scored by venueTotal instead ({@link covers}).
 *
 * Totals are bit-identical to venueTotal's: the parts are the same fractions, added in the
 * same order, and rounded by the same rule.
 */
export class BulkScorer {
  private readonly store: VenueStore;
  /** Bit c of termBits[i]: venue i has establishment term c (c < 32). */
  private readonly termBits: Uint32Array;
  /** Bit c of vibeBits[i]: venue i has vibe c (c < 32). */
  private readonly vibeBits: Uint32Array;
  private readonly partTerms = newPartTerms();
  private planes: VenueBitmaps | null = null;
  private termsFor: CompiledPreferences | null = null;

  /** `bits`: the columns {@link bits} gave for the same store (built elsewhere, e.g. a compaction worker); computed here otherwise. */
  constructor(store: VenueStore, bits?: BulkScorerBits) {
    this.store = store;
    const n = store.size;
    this.termBits = bits?.termBits ?? rowBits(store.termStart, store.termCodes, n);
    this.vibeBits = bits?.vibeBits ?? rowBits(store.vibeStart, store.vibeCodes, n);
    if (this.termBits.length !== n || this.vibeBits.length !== n) throw new RangeError(`bulk scorer bits for ${this.termBits.length} venues, store has ${n}`);
  }

  /** The bit columns (read, not copied), to give to the scorer of another copy of the store. */
  get bits(): BulkScorerBits {
    return { termBits: this.termBits, vibeBits: this.vibeBits };
  }

  get byteSize(): number {
    return this.termBits.byteLength + this.vibeBits.byteLength + (this.planes?.byteSize ?? 0);
  }

  /** The columns as bit planes (venue-bitmaps.ts), built on first use. */
  get bitmaps(): VenueBitmaps {
    this.planes ??= new VenueBitmaps(this.store, this.termBits, this.vibeBits);
    return this.planes;
  }

  /** Whether every asked code fits the bit columns (else score with venueTotal). */
  covers(prefs: CompiledPreferences): boolean {
    return fits(prefs.genreCodes) && fits(prefs.flagCodes) && fits(prefs.vibeCodes);
  }

  /**
   * Fills `ranking` (cleared first) with every one of the hits that passes the non-compromise
   * preferences, with its total (as venueTotal). `prefs.asked` must not be 0, and
   * {@link covers} must hold.
   */
  scoreInto(prefs: CompiledPreferences, hits: HitBuffer, opening: OpenStateSource, ranking: Ranking): void {
    ranking.clear();
    this.scoreAppend(prefs, hits, opening, ranking);
  }

  /** As {@link scoreInto}, appending the matches to those already in `ranking`. */
  scoreAppend(prefs: CompiledPreferences, hits: HitBuffer, opening: OpenStateSource, ranking: Ranking): void {
    const store = this.store;
    const { caters, chain, primaryGenre } = store;
    const termBits = this.termBits;
    const vibeBits = this.vibeBits;
    const asked = prefs.asked;
    const invWeight = prefs.invWeight;
    const askCaters = (asked & (1 << PART_CATERS)) !== 0;
    const askChain = (asked & (1 << PART_CHAIN)) !== 0;
    const askOpening = (asked & (1 << PART_OPENING)) !== 0;
    const askEstablishment = (asked & (1 << PART_ESTABLISHMENT)) !== 0;
    const askGenre = (asked & (1 << PART_GENRE)) !== 0;
    const askVibes = (asked & (1 << PART_VIBES)) !== 0;
    const catersMask = orOf(prefs.catersBits);
    const genreMask = maskOf(prefs.genreCodes);
    const kinds = prefs.genreCodes.length > 0 ? 1 : 0;
    const flagMask = maskOf(prefs.flagCodes);
    const vibeMask = maskOf(prefs.vibeCodes);
    const { catersTerm, chainTerm, openingTerm, establishmentTerm, genreTerm, vibesTerm } = this.terms(prefs);
    const { idx, dist, along } = hits;
    const n = hits.length;
    // Matches are written straight into the ranking's arrays (reserved for every hit).
    let m = ranking.length;
    ranking.reserve(m + n);
    const rVenue = ranking.venue;
    const rTotal = ranking.total;
    const rDist = ranking.dist;
    const rAlong = ranking.along;
    for (let k = 0; k < n; k++) {
      const i = idx[k]!;
      // each part's weighted term from its table, added in venueTotal's order
      let sum = 0;
      if (askCaters) sum += catersTerm[bitCount(caters[i]! & catersMask)]!;
      if (askChain) sum += chainTerm[chain[i]!]!;
      if (askOpening) sum += openingTerm[opening.state(i)]!;
      if (askEstablishment) {
        const terms = termBits[i]!;
        const genre = genreLevel(kinds, primaryGenre[i]!, terms, genreMask);
        sum += establishmentTerm[genre * TERM_SLOTS + bitCount(terms & flagMask)]!;
        if (askGenre) sum += genreTerm[genre]!;
      }
      if (askVibes) sum += vibesTerm[bitCount(vibeBits[i]! & vibeMask)]!;
      // a non-compromise part below 1 (its term is -Infinity)
      if (sum === Number.NEGATIVE_INFINITY) continue;
      rVenue[m] = i;
      rTotal[m] = Math.round(sum * invWeight * 1e6) / 1e6;
      rDist[m] = dist[k]!;
      rAlong[m] = along[k]!;
      m++;
    }
    ranking.length = m;
  }

  /**
   * Appends to `out` (index only; distance and along 0) the venues of the dense index ranges
   * [rangeLo[r], rangeHi[r]], r < rangeCount, whose total can be `minTotal` or more, from
   * `at` (range at[0], index at[1] within it) on, until `out` holds `upTo` hits; `at` is left where to
   * go on (at[0] === rangeCount: every range is done). The test is an upper bound of the
   * total (every part from the columns as {@link scoreAppend} computes it, the opening state
   * taken as the best one), so a venue left out has a total below `minTotal`: the bound is
   * compared in sums with a margin of 1e-5 of the total, far below the 1 / 51 between two
   * totals (match.ts) and above their 1e-6 rounding. A venue failing a non-compromise part
   * the columns answer is left out (its bound is -Infinity). `-Infinity`: every venue that
   * passes them. `skipFull`: also leave out the venues that meet every asked part but the
   * opening state (those VenueBitmaps.selectFull gives). Only the venues that the filter set
   * by VenueBitmaps.planFilter accepts are looked at. The conditions of {@link scoreAppend}
   * apply.
   */
  selectRanges(
    prefs: CompiledPreferences,
    rangeLo: Int32Array,
    rangeHi: Int32Array,
    rangeCount: number,
    at: Int32Array,
    minTotal: number,
    out: HitBuffer,
    upTo: number,
    skipFull: boolean,
  ): void {
    const { caters, chain, primaryGenre } = this.store;
    const termBits = this.termBits;
    const vibeBits = this.vibeBits;
    const asked = prefs.asked;
    const askCaters = (asked & (1 << PART_CATERS)) !== 0;
    const askChain = (asked & (1 << PART_CHAIN)) !== 0;
    const askEstablishment = (asked & (1 << PART_ESTABLISHMENT)) !== 0;
    const askGenre = (asked & (1 << PART_GENRE)) !== 0;
    const askVibes = (asked & (1 << PART_VIBES)) !== 0;
    const catersMask = orOf(prefs.catersBits);
    const genreMask = maskOf(prefs.genreCodes);
    const kinds = prefs.genreCodes.length > 0 ? 1 : 0;
    const flagMask = maskOf(prefs.flagCodes);
    const vibeMask = maskOf(prefs.vibeCodes);
    const { catersTerm, chainTerm, openingTerm, establishmentTerm, genreTerm, vibesTerm } = this.terms(prefs);
    // the best term each part can add (0 when not asked)
    const bestOpening = (asked & (1 << PART_OPENING)) !== 0 ? Math.max(openingTerm[0]!, openingTerm[1]!, openingTerm[2]!) : 0;
    const bestAfterCaters =
      (askChain ? Math.max(chainTerm[0]!, chainTerm[1]!, chainTerm[2]!) : 0) +
      (askEstablishment ? establishmentTerm[GENRE_PRIMARY * TERM_SLOTS + prefs.flagCodes.length]! + (askGenre ? genreTerm[GENRE_PRIMARY]! : 0) : 0) +
      (askVibes ? vibesTerm[prefs.vibeCodes.length]! : 0);
    const minSum = minTotal === Number.NEGATIVE_INFINITY ? minTotal : (minTotal - 1e-5) / prefs.invWeight;
    // the bound of a venue meeting every part (a part below its best lowers it by 1 / 51 or more)
    const full = skipFull ? bestOpening + (askCaters ? catersTerm[prefs.catersBits.length]! : 0) + bestAfterCaters - 1e-9 : Number.POSITIVE_INFINITY;
    out.reserve(upTo);
    const oIdx = out.idx;
    const oDist = out.dist;
    const oAlong = out.along;
    // Only the venues the column filter (non-compromise caters and chain) accepts, 32 at a time.
    const planes = this.bitmaps;
    let len = out.length;
    let r = at[0]!;
    let i = at[1]!;
    while (r < rangeCount && len < upTo) {
      const hi = rangeHi[r]!;
      while (i <= hi && len < upTo) {
        const w = i >>> 5;
        const last = Math.min(hi, (w << 5) + 31);
        let bits = (0xffffffff << (i & 31)) & (0xffffffff >>> (31 - (last & 31))) & planes.filterWord(w);
        for (; bits !== 0 && len < upTo; bits &= bits - 1) {
          const v = (w << 5) + 31 - Math.clz32(bits & -bits);
          let sum = bestOpening;
          if (askCaters) {
            sum += catersTerm[bitCount(caters[v]! & catersMask)]!;
            if (sum + bestAfterCaters < minSum || sum === Number.NEGATIVE_INFINITY) continue;
          }
          if (askChain) sum += chainTerm[chain[v]!]!;
          if (askEstablishment) {
            const terms = termBits[v]!;
            const genre = genreLevel(kinds, primaryGenre[v]!, terms, genreMask);
            sum += establishmentTerm[genre * TERM_SLOTS + bitCount(terms & flagMask)]!;
            if (askGenre) sum += genreTerm[genre]!;
          }
          if (askVibes) sum += vibesTerm[bitCount(vibeBits[v]! & vibeMask)]!;
          if (sum < minSum || sum === Number.NEGATIVE_INFINITY || sum >= full) continue;
          oIdx[len] = v;
          oDist[len] = 0;
          oAlong[len] = 0;
          len++;
        }
        // stopped inside the word: go on from its first venue not looked at
        i = bits !== 0 ? (w << 5) + 31 - Math.clz32(bits & -bits) : last + 1;
      }
      if (i > hi) {
        r++;
        i = r < rangeCount ? rangeLo[r]! : 0;
      }
    }
    at[0] = r;
    at[1] = i;
    out.length = len;
  }

  /**
   * The weighted term (weight * part) of each part for each value a venue can show, for one
   * query: the same products venueTotal adds (the same part fractions, the same weights), so
   * that totals stay bit-identical; -Infinity where a non-compromise part is below 1. Cached
   * for the last `prefs` (a query scores its hits in batches).
   */
  private terms(prefs: CompiledPreferences): PartTerms {
    const t = this.partTerms;
    if (this.termsFor === prefs) return t;
    this.termsFor = prefs;
    const hard = prefs.hard;
    const term = (part: number, v: number) => (v < 1 && (hard & (1 << part)) !== 0 ? Number.NEGATIVE_INFINITY : PART_WEIGHTS[part]! * v);
    const catersAsked = prefs.catersBits.length;
    const kinds = prefs.genreCodes.length > 0 ? 1 : 0;
    const estAsked = kinds + prefs.flagCodes.length;
    const vibesAsked = prefs.vibeCodes.length;
    for (let c = 0; c < TERM_SLOTS; c++) {
      t.catersTerm[c] = term(PART_CATERS, c / catersAsked);
      t.vibesTerm[c] = term(PART_VIBES, c / vibesAsked);
    }
    for (let code = 0; code < 3; code++) {
      t.chainTerm[code] = term(PART_CHAIN, code === prefs.chainWanted ? 1 : code === CHAIN_UNKNOWN ? 0.5 : 0);
    }
    const wantedState = prefs.opening === OPENING_WANT_OPEN ? OpenState.OPEN : OpenState.CLOSED;
    for (let state = 0; state < 3; state++) {
      t.openingTerm[state] = term(PART_OPENING, state === wantedState ? 1 : state === OpenState.OPEN || state === OpenState.CLOSED ? 0 : 0.5);
    }
    for (let g = GENRE_NONE; g <= GENRE_PRIMARY; g++) {
      const genre = GENRE_VALUE[g]!;
      t.genreTerm[g] = PART_WEIGHTS[PART_GENRE]! * genre;
      for (let f = 0; f < TERM_SLOTS; f++) t.establishmentTerm[g * TERM_SLOTS + f] = term(PART_ESTABLISHMENT, ((kinds > 0 && genre > 0 ? 1 : 0) + f) / estAsked);
    }
    return t;
  }
}

/** Table slots per count: a count of set bits of a 32-bit word is 0 .. 32. */
const TERM_SLOTS = 33;
/** A venue's genre part: none of the asked kinds (0), one of its other genres (0.5), its primary genre (1). */
const GENRE_NONE = 0;
const GENRE_OTHER = 1;
const GENRE_PRIMARY = 2;
const GENRE_VALUE = [0, 0.5, 1] as const;

/** Per-query tables of {@link BulkScorer} (weighted terms by count of bits met, chain code, opening state, genre level). */
interface PartTerms {
  readonly catersTerm: Float64Array;
  readonly chainTerm: Float64Array;
  readonly openingTerm: Float64Array;
  /** By genre level * TERM_SLOTS + flags met. */
  readonly establishmentTerm: Float64Array;
  readonly genreTerm: Float64Array;
  readonly vibesTerm: Float64Array;
}

function newPartTerms(): PartTerms {
  return {
    catersTerm: new Float64Array(TERM_SLOTS),
    chainTerm: new Float64Array(3),
    openingTerm: new Float64Array(3),
    establishmentTerm: new Float64Array(3 * TERM_SLOTS),
    genreTerm: new Float64Array(3),
    vibesTerm: new Float64Array(TERM_SLOTS),
  };
}

/** One word per venue with bit c set when code c (< 32) is in the venue's row. */
/** A scorer's per-venue bit columns (see the fields of {@link BulkScorer}). */
export interface BulkScorerBits {
  readonly termBits: Uint32Array;
  readonly vibeBits: Uint32Array;
}

function rowBits(start: Uint32Array, codes: Uint16Array, n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let w = 0;
    for (let k = start[i]!; k < start[i + 1]!; k++) {
      const c = codes[k]!;
      if (c < BITS) w |= 1 << c;
    }
    out[i] = w >>> 0;
  }
  return out;
}

/** Whether the codes' non-negative values are distinct and below 32 (negative: absent from the data, never met). */
function fits(codes: Int32Array): boolean {
  let seen = 0;
  for (let k = 0; k < codes.length; k++) {
    const c = codes[k]!;
    if (c < 0) continue;
    if (c >= BITS || (seen >>> c) & 1) return false;
    seen |= 1 << c;
  }
  return true;
}

function maskOf(codes: Int32Array): number {
  let m = 0;
  for (let k = 0; k < codes.length; k++) if (codes[k]! >= 0) m |= 1 << codes[k]!;
  return m;
}

function orOf(bits: Uint16Array): number {
  let m = 0;
  for (let k = 0; k < bits.length; k++) m |= bits[k]!;
  return m;
}

/** A venue's genre level (GENRE_NONE, GENRE_OTHER, GENRE_PRIMARY) for the asked kinds (`kinds` 0: none asked, every venue primary). */
function genreLevel(kinds: number, primary: number, terms: number, genreMask: number): number {
  return kinds === 0 ? GENRE_PRIMARY : primary < BITS && (genreMask >>> primary) & 1 ? GENRE_PRIMARY : (terms & genreMask) !== 0 ? GENRE_OTHER : GENRE_NONE;
}

