import { describeValue, VenueSearchError } from '../errors.js';
import { closeSpellings } from '../find/close-spellings.js';
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

/**
 * The data words a vocabulary accepts, when not the store's own (live data: the words of
 * the current record set, of which a store holds a part; see src/live/live-words.ts).
 */
export interface DataWords {
  /** Words used as a primaryGenre or additionalGenre (any spelling: normalised here). */
  readonly genres: Iterable<string>;
  /** Normal forms of every genre and establishment flag. */
  readonly terms: Iterable<string>;
  /** Normal forms of every vibe. */
  readonly vibes: Iterable<string>;
}

export class SearchVocabulary {
  private readonly store: VenueStore;
  /** Normal forms accepted by establishmentFilters, and whether each is a genre word. */
  private readonly establishmentWords = new Map<string, boolean>();
  private readonly vibeWords = new Set<string>();
  /** Request words already normalised (normalizeWord is a chain of regexes); bounded. */
  private readonly normalized = new Map<string, string>();
  /** Normal form -> code in store.terms / store.vibes, and -> caters bit. */
  private readonly termCode: Map<string, number>;
  private readonly vibeCode: Map<string, number>;
  private readonly catersBitOf = new Map<string, number>(CATERS_FLAGS.map((f) => [normalizeWord(f), catersBit(f)]));

  /** `words`: the data words accepted (default: the store's); codes are always the store's. */
  constructor(store: VenueStore, words?: DataWords) {
    this.store = store;
    this.termCode = new Map(store.terms.words.map((w, code) => [w, code]));
    this.vibeCode = new Map(store.vibes.words.map((w, code) => [w, code]));
    for (const kind of STATIC_KINDS) this.markGenre(kind);
    for (const flag of STATIC_FLAGS) this.establishmentWords.set(flag, false);
    for (const g of words?.genres ?? store.genreSpellings) this.markGenre(g);
    for (const word of words?.terms ?? store.terms.words) if (!this.establishmentWords.has(word)) this.establishmentWords.set(word, false);
    for (const v of STATIC_VIBES) this.vibeWords.add(v);
    for (const v of words?.vibes ?? store.vibes.words) this.vibeWords.add(v);
  }

  /**
   * Per vocabulary, its normal forms by their letters and digits alone ({@link looseKey}),
   * made at the first word not found as it is; AMBIGUOUS where two normal forms share one.
   */
  private looseForms: { establishment: Map<string, string>; caters: Map<string, string>; vibes: Map<string, string> } | null = null;

  /**
   * The vocabulary's normal form for request word `norm` (a normal form): itself when the
   * vocabulary has it, else the one normal form with the same letters and digits, so that
   * case alone never tells two words apart: `dairyfree` and `DAIRYFREE` (normal forms
   * `dairyfree`) are `dairyFree` (`dairy_free`), as `coffeeshop` is `coffee_shop`
   * (CONTRACT.md: matching is case-insensitive; camel case splits words, so case would).
   * Unknown, or shared by two normal forms: `norm` itself (refused by the caller).
   */
  private known(norm: string, words: { has(form: string): boolean }, vocabulary: 'establishment' | 'caters' | 'vibes'): string {
    if (words.has(norm)) return norm;
    this.looseForms ??= {
      establishment: looseIndex(this.establishmentWords.keys()),
      caters: looseIndex(this.catersBitOf.keys()),
      vibes: looseIndex(this.vibeWords),
    };
    const form = this.looseForms[vocabulary].get(looseKey(norm));
    return form === undefined || form === AMBIGUOUS ? norm : form;
  }

  /** normalizeWord, memoised for the words requests use over and over. */
  private normal(word: string): string {
    let norm = this.normalized.get(word);
    if (norm === undefined) {
      if (this.normalized.size >= 10_000) this.normalized.clear();
      norm = normalizeWord(word);
      this.normalized.set(word, norm);
    }
    return norm;
  }

  private markGenre(word: string): void {
    this.establishmentWords.set(normalizeWord(word), true);
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
      const norm = this.known(this.normal(value), this.establishmentWords, 'establishment');
      // the empty normal form ('?', '  ') is no word, even when a record holds one (audit 72c F5)
      const isGenre = norm === '' ? undefined : this.establishmentWords.get(norm);
      if (isGenre === undefined) unknownValue(`${param}[${i}]`, value, 'establishmentFilters', this.establishmentWords.keys());
      if (seen.has(norm)) return;
      seen.add(norm);
      const code = this.termCode.get(norm) ?? ABSENT;
      (isGenre ? genres : flags).push(code);
    });
    return { genres, flags };
  }

  /** Bits of catersFilters values, one bit per distinct value. */
  resolveCaters(values: readonly string[], param: string): number[] {
    const bits: number[] = [];
    values.forEach((value, i) => {
      const bit = this.catersBitOf.get(this.known(this.normal(value), this.catersBitOf, 'caters')) ?? 0;
      if (bit === 0) unknownValue(`${param}[${i}]`, value, 'catersFilters', CATERS_FLAGS);
      if (!bits.includes(bit)) bits.push(bit);
    });
    return bits;
  }

  /** Vibe codes of `store.vibes` (ABSENT for known words no venue has), distinct. */
  resolveVibes(values: readonly string[], param: string): number[] {
    const codes: number[] = [];
    const seen = new Set<string>();
    values.forEach((value, i) => {
      const norm = this.known(this.normal(value), this.vibeWords, 'vibes');
      if (norm === '' || !this.vibeWords.has(norm)) unknownValue(`${param}[${i}]`, value, 'vibes', this.vibeWords);
      if (seen.has(norm)) return;
      seen.add(norm);
      const code = this.vibeCode.get(norm) ?? ABSENT;
      codes.push(code);
    });
    return codes;
  }

  /**
   * The published vocabulary (sorted normal forms). A data word with no letter or digit of
   * any script (`"  "`, `"!!"`, an emoji) has the empty normal form: it is not listed, and a
   * filter whose normal form is empty is refused (resolveEstablishment, resolveVibes: until
   * 2026-11-30 `"?"` matched such venues, audit 72c F5; audit 61d).
   */
  toJSON(): SearchVocabularyJson {
    const asked = (word: string): boolean => word !== '';
    return {
      establishmentFilters: [...this.establishmentWords.keys()].filter(asked).sort(),
      catersFilters: [...CATERS_FLAGS],
      vibes: [...this.vibeWords].filter(asked).sort(),
      chainPreference: [...CHAIN_PREFERENCES],
      openingStates: [...OPENING_STATES],
      nonCompromise: [...PREFERENCE_FIELDS],
      modes: [...SEARCH_MODES],
    };
  }
}

/** A loose index's mark for a key two normal forms share. */
const AMBIGUOUS = '\u0000';

/** A normal form's letters and digits alone (`dairy_free` -> `dairyfree`). */
function looseKey(norm: string): string {
  return norm.replace(/_/g, '');
}

function looseIndex(forms: Iterable<string>): Map<string, string> {
  const index = new Map<string, string>();
  for (const form of forms) {
    const key = looseKey(form);
    index.set(key, index.has(key) && index.get(key) !== form ? AMBIGUOUS : form);
  }
  return index;
}

/** Accepted values offered when a value is unknown ("did you mean"). */
const MAX_VALUE_SUGGESTIONS = 3;

/** `accepted`: the field's published values; those whose normal form is closest in spelling to the value's are offered. */
function unknownValue(param: string, value: string, field: string, accepted: Iterable<string>): never {
  const close = typeof value === 'string' ? closeSpellings(normalizeWord(value), accepted, MAX_VALUE_SUGGESTIONS, normalizeWord) : [];
  const offer = close.length === 0 ? '' : `; did you mean ${close.map((c) => describeValue(c)).join(' or ')}?`;
  throw new VenueSearchError(
    'invalid_request',
    `${param} is not a known ${field} value: ${describeValue(value)}${offer} (the vocabulary lists the accepted values)`,
    { param, value },
  );
}
