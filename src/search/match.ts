import type { Preferences, PreferenceField } from '../schema/search.js';
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

/** Opening states as HoursTable reports them. */
const STATE_CLOSED = 0;
const STATE_OPEN = 1;

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

export function compilePreferences(prefs: Preferences | undefined, vocabulary: SearchVocabulary): CompiledPreferences {
  const p = prefs ?? {};
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
    genreCodes: Int32Array.from(est.genres),
    flagCodes: Int32Array.from(est.flags),
    catersBits: Uint16Array.from(caters),
    vibeCodes: Int32Array.from(vibes),
    opening,
    chainWanted,
    asked,
    hard,
    invWeight: weight > 0 ? 1 / weight : 0,
  };
}

/**
 * Writes venue i's parts into `parts` (PART_COUNT entries) and returns its total, or -1
 * when it fails a non-compromise preference (then `parts` is incomplete). `opening` gives
 * the venue's HoursTable state at the query's instant; it is asked only when opening was.
 */
/** Opening state (CLOSED 0, OPEN 1, UNKNOWN 2) of a venue at the query's instant. */
export interface OpenStateSource {
  state(i: number): number;
}

export function evaluateVenue(
  store: VenueStore,
  prefs: CompiledPreferences,
  i: number,
  opening: OpenStateSource,
  parts: Float64Array,
): number {
  // Six stores, not parts.fill(1): TypedArray#fill is a slow builtin call for six entries.
  parts[0] = 1;
  parts[1] = 1;
  parts[2] = 1;
  parts[3] = 1;
  parts[4] = 1;
  parts[5] = 1;
  const asked = prefs.asked;
  if (asked === 0) return 1;
  const hard = prefs.hard;
  // Cheapest parts first, each non-compromise one rejecting at once: most candidates of a
  // query with a hard filter fail it, and then nothing else is computed.
  if (asked & (1 << PART_CATERS)) {
    const bits = prefs.catersBits;
    const mask = store.caters[i]!;
    let met = 0;
    for (let k = 0; k < bits.length; k++) if (mask & bits[k]!) met++;
    const v = met / bits.length;
    if (hard & (1 << PART_CATERS) && v < 1) return -1;
    parts[PART_CATERS] = v;
  }
  if (asked & (1 << PART_CHAIN)) {
    const chain = store.chain[i]!;
    const v = chain === prefs.chainWanted ? 1 : chain === CHAIN_UNKNOWN ? 0.5 : 0;
    if (hard & (1 << PART_CHAIN) && v < 1) return -1;
    parts[PART_CHAIN] = v;
  }
  if (asked & (1 << PART_OPENING)) {
    const wanted = prefs.opening === OPENING_WANT_OPEN ? STATE_OPEN : STATE_CLOSED;
    const openState = opening.state(i);
    const v = openState === wanted ? 1 : openState === STATE_OPEN || openState === STATE_CLOSED ? 0 : 0.5;
    if (hard & (1 << PART_OPENING) && v < 1) return -1;
    parts[PART_OPENING] = v;
  }
  if (asked & (1 << PART_ESTABLISHMENT)) {
    const genres = prefs.genreCodes;
    let met = 0;
    let of = 0;
    if (genres.length > 0) {
      of = 1;
      const primary = store.primaryGenre[i]!;
      let genre = 0;
      for (let k = 0; k < genres.length; k++) {
        const code = genres[k]!;
        if (code < 0) continue;
        if (code === primary) {
          genre = 1;
          break;
        }
        if (genre === 0 && store.hasTerm(i, code)) genre = 0.5;
      }
      parts[PART_GENRE] = genre;
      if (genre > 0) met = 1;
    }
    const flags = prefs.flagCodes;
    for (let k = 0; k < flags.length; k++) {
      const code = flags[k]!;
      if (code >= 0 && store.hasTerm(i, code)) met++;
    }
    of += flags.length;
    const v = met / of;
    if (hard & (1 << PART_ESTABLISHMENT) && v < 1) return -1;
    parts[PART_ESTABLISHMENT] = v;
  }
  if (asked & (1 << PART_VIBES)) {
    const codes = prefs.vibeCodes;
    let met = 0;
    for (let k = 0; k < codes.length; k++) {
      const code = codes[k]!;
      if (code >= 0 && store.hasVibe(i, code)) met++;
    }
    const v = met / codes.length;
    if (hard & (1 << PART_VIBES) && v < 1) return -1;
    parts[PART_VIBES] = v;
  }
  let sum = 0;
  for (let part = 0; part < PART_COUNT; part++) {
    if (asked & (1 << part)) sum += PART_WEIGHTS[part]! * parts[part]!;
  }
  return Math.round(sum * prefs.invWeight * 1e6) / 1e6;
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
