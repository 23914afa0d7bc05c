import { describeValue, VenueSearchError } from '../errors.js';
import {
  CHAIN_PREFERENCES,
  OPENING_STATES,
  PREFERENCE_FIELDS,
  SEARCH_MODES,
  type SearchVocabulary as SearchVocabularyJson,
} from '../schema/search.js';
import type { VenueStore } from '../store/venue-store.js';
import { CATERS_FLAGS, catersBit, normalizeWord } from '../store/vocabulary.js';

/**
 * The words the search preferences accept, in normal form (normalizeWord: lower snake case).
 *
 * - establishmentFilters: the kinds and flags the interface names, plus every primaryGenre,
 *   additionalGenre and establishmentFlag present in the data. "Genre words" (kinds) are the
 *   static kinds plus every word used as a primaryGenre or additionalGenre in the data; the
 *   rest are flags. The two behave differently (docs/search.md): asked kinds are
 *   alternatives (a venue is one kind), asked flags are all wanted.
 * - vibes: a fixed list (the interface's `romantic`, `conversation` and a few more) plus
 *   every vibe present in the data.
 * The fixed words keep a request valid whatever data is loaded.
 * - catersFilters: CATERS_FLAGS (implications applied in the store).
 * A word in the vocabulary that no venue has is accepted and simply matches nothing.
 */
export const STATIC_KINDS = ['restaurant', 'coffee_shop', 'cafe', 'pub', 'bar', 'fast_food', 'bakery'] as const;
export const STATIC_FLAGS = [
  'free_wifi',
  'serves_cocktails',
  'serves_food',
  'serves_alcohol',
  'serves_non_alcohol',
  'family_friendly',
  'live_music',
  'outdoor_seating',
  'dog_friendly',
  'wheelchair_accessible',
] as const;
export const STATIC_VIBES = ['romantic', 'conversation', 'cosy', 'lively', 'quiet', 'family', 'traditional', 'trendy'] as const;

/** Code of a vocabulary word known to the vocabulary but absent from the data. */
export const ABSENT = -1;

export class SearchVocabulary {
  private readonly store: VenueStore;
  /** Normal forms accepted by establishmentFilters, and whether each is a genre word. */
  private readonly establishmentWords = new Map<string, boolean>();
  private readonly vibeWords = new Set<string>();
  /** `isGenreTerm[code]` for codes of `store.terms`. */
  readonly isGenreTerm: Uint8Array;

  constructor(store: VenueStore) {
    this.store = store;
    this.isGenreTerm = new Uint8Array(store.terms.size);
    for (const kind of STATIC_KINDS) this.markGenre(kind);
    for (const flag of STATIC_FLAGS) this.establishmentWords.set(flag, false);
    // Raw genre strings repeat a lot: normalise each distinct one once.
    const seen = new Set<string>();
    const mark = (g: string) => {
      if (seen.has(g)) return;
      seen.add(g);
      this.markGenre(g);
    };
    for (const record of store.records) {
      if (record.primaryGenre !== undefined) mark(record.primaryGenre);
      for (const g of record.additionalGenres ?? []) mark(g);
    }
    for (const word of store.terms.words) if (!this.establishmentWords.has(word)) this.establishmentWords.set(word, false);
    for (const v of STATIC_VIBES) this.vibeWords.add(v);
    for (const v of store.vibes.words) this.vibeWords.add(v);
  }

  private markGenre(word: string): void {
    const norm = normalizeWord(word);
    this.establishmentWords.set(norm, true);
    const code = this.store.terms.lookup(norm);
    if (code >= 0) this.isGenreTerm[code] = 1;
  }

  /**
   * Term codes of establishmentFilters values (duplicates after normalising removed), split
   * into genre words and flags. A value outside the vocabulary is `invalid_request`.
   */
  resolveEstablishment(values: readonly string[], param: string): { genres: number[]; flags: number[] } {
    const genres: number[] = [];
    const flags: number[] = [];
    const seen = new Set<string>();
    values.forEach((value, i) => {
      const norm = normalizeWord(value);
      const isGenre = this.establishmentWords.get(norm);
      if (isGenre === undefined) unknownValue(`${param}[${i}]`, value, 'establishmentFilters');
      if (seen.has(norm)) return;
      seen.add(norm);
      const code = this.store.terms.lookup(norm);
      (isGenre ? genres : flags).push(code >= 0 ? code : ABSENT);
    });
    return { genres, flags };
  }

  /** Bits of catersFilters values, one bit per distinct value. */
  resolveCaters(values: readonly string[], param: string): number[] {
    const bits: number[] = [];
    values.forEach((value, i) => {
      const bit = catersBit(value);
      if (bit === 0) unknownValue(`${param}[${i}]`, value, 'catersFilters');
      if (!bits.includes(bit)) bits.push(bit);
    });
    return bits;
  }

  /** Vibe codes of `store.vibes` (ABSENT for known words no venue has), distinct. */
  resolveVibes(values: readonly string[], param: string): number[] {
    const codes: number[] = [];
    const seen = new Set<string>();
    values.forEach((value, i) => {
      const norm = normalizeWord(value);
      if (!this.vibeWords.has(norm)) unknownValue(`${param}[${i}]`, value, 'vibes');
      if (seen.has(norm)) return;
      seen.add(norm);
      const code = this.store.vibes.lookup(norm);
      codes.push(code >= 0 ? code : ABSENT);
    });
    return codes;
  }

  /** The published vocabulary (sorted normal forms). */
  toJSON(): SearchVocabularyJson {
    return {
      establishmentFilters: [...this.establishmentWords.keys()].sort(),
      catersFilters: [...CATERS_FLAGS],
      vibes: [...this.vibeWords].sort(),
      chainPreference: [...CHAIN_PREFERENCES],
      openingStates: [...OPENING_STATES],
      nonCompromise: [...PREFERENCE_FIELDS],
      modes: [...SEARCH_MODES],
    };
  }
}

function unknownValue(param: string, value: string, field: string): never {
  throw new VenueSearchError(
    'invalid_request',
    `${param} is not a known ${field} value: ${describeValue(value)} (the vocabulary lists the accepted values)`,
    { param, value },
  );
}
