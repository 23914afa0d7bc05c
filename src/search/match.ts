import { OpenState } from '../hours/hours-table.js';
import type { Preferences, PreferenceField } from '../schema/search.js';
import type { ColumnFilter } from '../spatial/column-filter.js';
import { CHAIN_NO, CHAIN_UNKNOWN, CHAIN_YES, type VenueStore } from '../store/venue-store.js';
import type { SearchVocabulary } from './search-vocabulary.js';

/**
 * Preferences compiled against the vocabulary, and the per-venue evaluation: which parts of
 * what was asked a venue meets, whether it passes the non-compromise ones, and its total.
 *
 * Parts, each in [0, 1], 1 where nothing was asked (docs/search.md has the table):
 *   genreMatch               1 primaryGenre is an asked kind, 0.5 another of its genres is, else 0
 *   establishmentFiltersMatch (kind met ? 1 : 0) + flags met, over (1 if kinds asked) + flags asked
 *   catersFiltersMatch       caters flags met / asked
 *   openingMatch             state as asked 1, hours unknown 0.5, otherwise 0
 *   vibesMatch               vibes met / asked
 *   chainMatch               as preferred 1, unknown 0.5, otherwise 0
 *   total = sum(weight * part) / sum(weight) over the ASKED parts, rounded to 1e-6; 1 if none.
 * Every part is non-decreasing in what the venue meets and every asked part has a positive
 * weight, so a venue that meets more never gets a lower total; meeting strictly more raises
 * the sum by at least 1 / 51 (lists hold at most 50 values), far above the 1e-6 rounding,
 * which is itself monotone. Rounding makes mathematically equal totals reached by different
 * parts compare equal, so they are ordered by distance rather than by floating-point noise.
 * A non-compromise field removes a venue whose part is below 1 (unknown hours or unknown
 * chain status never satisfy it).
 */

export const PART_GENRE = 0;
export const PART_ESTABLISHMENT = 1;
export const PART_CATERS = 2;
export const PART_OPENING = 3;
export const PART_VIBES = 4;
export const PART_CHAIN = 5;
export const PART_COUNT = 6;

/** Relative weights of the parts in `total`. */
export const PART_WEIGHTS: readonly number[] = [1, 2, 2, 2, 1, 1];

/** Field of `preferences` that each part (except genre) answers to. */
const FIELD_OF_PART: ReadonlyArray<PreferenceField | null> = [
  null,
  'establishmentFilters',
  'catersFilters',
  'openingConditions',
  'vibes',
  'chainPreference',
];

export const OPENING_NONE = 0;
export const OPENING_WANT_OPEN = 1;
export const OPENING_WANT_CLOSED = 2;

const STATE_CLOSED = OpenState.CLOSED;
const STATE_OPEN = OpenState.OPEN;

export interface CompiledPreferences {
  readonly genreCodes: Int32Array;
  readonly flagCodes: Int32Array;
  readonly catersBits: Uint16Array;
  readonly vibeCodes: Int32Array;
  readonly opening: number;
  /** CHAIN_NO (prefer independent), CHAIN_YES (prefer chain) or -1 (no preference). */
  readonly chainWanted: number;
  /** Bit p set when part p was asked. */
  readonly asked: number;
  /** Bit p set when part p is non-compromise. */
  readonly hard: number;
  /** 1 / sum of the asked parts' weights (0 when nothing was asked). */
  readonly invWeight: number;
}

/** What a request that asks for nothing compiles to (shared: compiled preferences are never changed). */
const NOTHING_ASKED: CompiledPreferences = Object.freeze({
  genreCodes: new Int32Array(0),
  flagCodes: new Int32Array(0),
  catersBits: new Uint16Array(0),
  vibeCodes: new Int32Array(0),
  opening: OPENING_NONE,
  chainWanted: -1,
  asked: 0,
  hard: 0,
  invWeight: 0,
});

export function compilePreferences(prefs: Preferences | undefined, vocabulary: SearchVocabulary): CompiledPreferences {
  const p = prefs ?? {};
  // Nothing asked (no values to check against the vocabulary): the shared constant, without
  // allocating (live data compiles once per side: src/live).
  if (
    (p.establishmentFilters?.length ?? 0) === 0 &&
    (p.catersFilters?.length ?? 0) === 0 &&
    (p.vibes?.length ?? 0) === 0 &&
    p.openingConditions === undefined &&
    (p.chainPreference === undefined || p.chainPreference === 'NO_PREFERENCE')
  ) {
    return NOTHING_ASKED;
  }
  const est = vocabulary.resolveEstablishment(p.establishmentFilters ?? [], 'preferences.establishmentFilters');
  const caters = vocabulary.resolveCaters(p.catersFilters ?? [], 'preferences.catersFilters');
  const vibes = vocabulary.resolveVibes(p.vibes ?? [], 'preferences.vibes');
  const opening =
    p.openingConditions === undefined ? OPENING_NONE : p.openingConditions.state === 'OPEN' ? OPENING_WANT_OPEN : OPENING_WANT_CLOSED;
  const chainWanted =
    p.chainPreference === 'PREFER_INDEPENDENT' ? CHAIN_NO : p.chainPreference === 'PREFER_CHAIN' ? CHAIN_YES : -1;
  let asked = 0;
  if (est.genres.length > 0) asked |= 1 << PART_GENRE;
  if (est.genres.length + est.flags.length > 0) asked |= 1 << PART_ESTABLISHMENT;
  if (caters.length > 0) asked |= 1 << PART_CATERS;
  if (opening !== OPENING_NONE) asked |= 1 << PART_OPENING;
  if (vibes.length > 0) asked |= 1 << PART_VIBES;
  if (chainWanted >= 0) asked |= 1 << PART_CHAIN;
  let hard = 0;
  for (const field of p.nonCompromise ?? []) {
    const part = FIELD_OF_PART.indexOf(field);
    if (asked & (1 << part)) hard |= 1 << part;
  }
  let weight = 0;
  for (let part = 0; part < PART_COUNT; part++) if (asked & (1 << part)) weight += PART_WEIGHTS[part]!;
  return {
    genreCodes: copyInto(new Int32Array(est.genres.length), est.genres),
    flagCodes: copyInto(new Int32Array(est.flags.length), est.flags),
    catersBits: copyInto(new Uint16Array(caters.length), caters),
    vibeCodes: copyInto(new Int32Array(vibes.length), vibes),
    opening,
    chainWanted,
    asked,
    hard,
    invWeight: weight > 0 ? 1 / weight : 0,
  };
}

/**
 * `list` copied into `out` (of its length). A loop: `TypedArray.from` goes through the
 * iterator protocol, about twice the cost for the few codes a request holds, and every
 * search with preferences makes four.
 */
function copyInto<T extends Int32Array | Uint16Array>(out: T, list: readonly number[]): T {
  for (let k = 0; k < list.length; k++) out[k] = list[k]!;
  return out;
}

/** Opening state (CLOSED 0, OPEN 1, UNKNOWN 2) of a venue at the query's instant. */
export interface OpenStateSource {
  state(i: number): number;
}

// ---- the parts, one small function each (inlined by V8), shared by both evaluations below

function catersPart(store: VenueStore, prefs: CompiledPreferences, i: number): number {
  const bits = prefs.catersBits;
  const mask = store.caters[i]!;
  let met = 0;
  for (let k = 0; k < bits.length; k++) if (mask & bits[k]!) met++;
  return met / bits.length;
}

function chainPart(store: VenueStore, prefs: CompiledPreferences, i: number): number {
  const chain = store.chain[i]!;
  return chain === prefs.chainWanted ? 1 : chain === CHAIN_UNKNOWN ? 0.5 : 0;
}

function openingPart(prefs: CompiledPreferences, openState: number): number {
  const wanted = prefs.opening === OPENING_WANT_OPEN ? STATE_OPEN : STATE_CLOSED;
  return openState === wanted ? 1 : openState === STATE_OPEN || openState === STATE_CLOSED ? 0 : 0.5;
}

/** genreMatch: 1 primaryGenre asked, 0.5 another of its terms asked, 0 none (1 if no kind asked). */
function genrePart(store: VenueStore, prefs: CompiledPreferences, i: number): number {
  const genres = prefs.genreCodes;
  if (genres.length === 0) return 1;
  const primary = store.primaryGenre[i]!;
  let genre = 0;
  for (let k = 0; k < genres.length; k++) {
    const code = genres[k]!;
    if (code < 0) continue;
    if (code === primary) return 1;
    if (genre === 0 && store.hasTerm(i, code)) genre = 0.5;
  }
  return genre;
}

/** establishmentFiltersMatch, given the venue's genreMatch. */
function establishmentPart(store: VenueStore, prefs: CompiledPreferences, i: number, genre: number): number {
  const kinds = prefs.genreCodes.length > 0 ? 1 : 0;
  let met = kinds > 0 && genre > 0 ? 1 : 0;
  const flags = prefs.flagCodes;
  for (let k = 0; k < flags.length; k++) {
    const code = flags[k]!;
    if (code >= 0 && store.hasTerm(i, code)) met++;
  }
  return met / (kinds + flags.length);
}

function vibesPart(store: VenueStore, prefs: CompiledPreferences, i: number): number {
  const codes = prefs.vibeCodes;
  let met = 0;
  for (let k = 0; k < codes.length; k++) {
    const code = codes[k]!;
    if (code >= 0 && store.hasVibe(i, code)) met++;
  }
  return met / codes.length;
}

const W_GENRE = PART_WEIGHTS[PART_GENRE]!;
const W_ESTABLISHMENT = PART_WEIGHTS[PART_ESTABLISHMENT]!;
const W_CATERS = PART_WEIGHTS[PART_CATERS]!;
const W_OPENING = PART_WEIGHTS[PART_OPENING]!;
const W_VIBES = PART_WEIGHTS[PART_VIBES]!;
const W_CHAIN = PART_WEIGHTS[PART_CHAIN]!;

/** The documented rounding of a weighted sum of parts to the total. */
function roundTotal(sum: number, prefs: CompiledPreferences): number {
  return Math.round(sum * prefs.invWeight * 1e6) / 1e6;
}

/**
 * Venue i's total, or -1 when it fails a non-compromise preference: the hot loop's
 * evaluation. Cheapest parts first, each non-compromise one rejecting at once (most
 * candidates of a query with a hard filter fail it, and then nothing else is computed).
 * `opening` is asked only when opening was.
 */
export function venueTotal(store: VenueStore, prefs: CompiledPreferences, i: number, opening: OpenStateSource): number {
  const asked = prefs.asked;
  if (asked === 0) return 1;
  const hard = prefs.hard;
  let sum = 0;
  if (asked & (1 << PART_CATERS)) {
    const v = catersPart(store, prefs, i);
    if (v < 1 && hard & (1 << PART_CATERS)) return -1;
    sum += W_CATERS * v;
  }
  if (asked & (1 << PART_CHAIN)) {
    const v = chainPart(store, prefs, i);
    if (v < 1 && hard & (1 << PART_CHAIN)) return -1;
    sum += W_CHAIN * v;
  }
  if (asked & (1 << PART_OPENING)) {
    const v = openingPart(prefs, opening.state(i));
    if (v < 1 && hard & (1 << PART_OPENING)) return -1;
    sum += W_OPENING * v;
  }
  if (asked & (1 << PART_ESTABLISHMENT)) {
    const genre = genrePart(store, prefs, i);
    const v = establishmentPart(store, prefs, i, genre);
    if (v < 1 && hard & (1 << PART_ESTABLISHMENT)) return -1;
    sum += W_ESTABLISHMENT * v;
    if (asked & (1 << PART_GENRE)) sum += W_GENRE * genre;
  }
  if (asked & (1 << PART_VIBES)) {
    const v = vibesPart(store, prefs, i);
    if (v < 1 && hard & (1 << PART_VIBES)) return -1;
    sum += W_VIBES * v;
  }
  return roundTotal(sum, prefs);
}

/**
 * Writes venue i's parts into `parts` (PART_COUNT entries; 1 where not asked) and returns
 * its total as {@link venueTotal} does (-1 when it fails a non-compromise preference). For
 * the records of the page returned.
 */
export function evaluateVenue(
  store: VenueStore,
  prefs: CompiledPreferences,
  i: number,
  opening: OpenStateSource,
  parts: Float64Array,
): number {
  const asked = prefs.asked;
  const genre = asked & (1 << PART_ESTABLISHMENT) ? genrePart(store, prefs, i) : 1;
  parts[PART_GENRE] = genre;
  parts[PART_ESTABLISHMENT] = asked & (1 << PART_ESTABLISHMENT) ? establishmentPart(store, prefs, i, genre) : 1;
  parts[PART_CATERS] = asked & (1 << PART_CATERS) ? catersPart(store, prefs, i) : 1;
  parts[PART_OPENING] = asked & (1 << PART_OPENING) ? openingPart(prefs, opening.state(i)) : 1;
  parts[PART_VIBES] = asked & (1 << PART_VIBES) ? vibesPart(store, prefs, i) : 1;
  parts[PART_CHAIN] = asked & (1 << PART_CHAIN) ? chainPart(store, prefs, i) : 1;
  if (asked === 0) return 1;
  let sum = 0;
  for (let part = 0; part < PART_COUNT; part++) {
    const bit = 1 << part;
    if (!(asked & bit)) continue;
    if (part !== PART_GENRE && prefs.hard & bit && parts[part]! < 1) return -1;
    sum += PART_WEIGHTS[part]! * parts[part]!;
  }
  return roundTotal(sum, prefs);
}

/** Fields of the soft preferences a venue does not fully meet, in PREFERENCE_FIELDS order. */
export function relaxedFields(prefs: CompiledPreferences, parts: Float64Array): PreferenceField[] {
  const out: PreferenceField[] = [];
  for (let part = 1; part < PART_COUNT; part++) {
    const bit = 1 << part;
    if (prefs.asked & bit && !(prefs.hard & bit) && parts[part]! < 1) out.push(FIELD_OF_PART[part]!);
  }
  return out;
}

/**
 * Sets `filter` to the non-compromise preferences a column answers alone, so the spatial
 * walk drops their failures before measuring them: caters (a venue must have every caters
 * bit asked, exactly when catersPart is 1) and chain (the chain value wanted, exactly when
 * chainPart is 1). Everything else stays with venueTotal, which still checks these too.
 */
export function hardColumnFilter(prefs: CompiledPreferences, filter: ColumnFilter): ColumnFilter {
  filter.reset();
  if (prefs.hard & (1 << PART_CATERS)) {
    let required = 0;
    let singleBits = true;
    for (let k = 0; k < prefs.catersBits.length; k++) {
      const bit = prefs.catersBits[k]!;
      if (bit === 0 || (bit & (bit - 1)) !== 0) singleBits = false;
      required |= bit;
    }
    if (singleBits) filter.catersRequired = required;
  }
  if (prefs.hard & (1 << PART_CHAIN) && prefs.chainWanted >= 0) filter.chainRequired = prefs.chainWanted;
  return filter;
}

/**
 * Whether every venue that `filter` (as {@link hardColumnFilter} set it for `prefs`) accepts
 * passes the non-compromise preferences: the hard parts are caters and chain only, and the
 * filter encodes each (caters: every asked flag a distinct single bit). A walk may then count
 * the venues the filter accepts as matches without scoring them.
 */
export function hardOnlyByColumns(prefs: CompiledPreferences, filter: ColumnFilter): boolean {
  const caters = 1 << PART_CATERS;
  const chain = 1 << PART_CHAIN;
  if ((prefs.hard & ~(caters | chain)) !== 0) return false;
  if (prefs.hard & caters) {
    let bits = 0;
    for (let r = filter.catersRequired; r !== 0; r &= r - 1) bits++;
    if (filter.catersRequired === 0 || bits !== prefs.catersBits.length) return false;
  }
  if (prefs.hard & chain && filter.chainRequired !== prefs.chainWanted) return false;
  return true;
}
