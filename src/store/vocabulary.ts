import { VenueSearchError } from '../errors.js';
/**
 * Vocabulary words. Matching is case-insensitive and treats `coffee_shop`, `coffeeShop` and
 * `Coffee Shop` as the same word: the normal form is lower snake case without Latin accents
 * (U+0300-U+036F after NFKD), in NFC. Letters and digits of every script are kept
 * (`居心地`, `καφενείο` -> `καφενειο`); anything else between them is one `_`.
 */
export function normalizeWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, '$1_$2')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .normalize('NFC');
}

/** The dietary flags of the interface (2.4), in bit order. At most 16. */
export const CATERS_FLAGS = [
  'crustaceanFree',
  'dairyFree',
  'eggFree',
  'fishFree',
  'glutenFree',
  'molluscFree',
  'vegan',
  'vegetarian',
  'wheatFree',
  'halal',
  'kosher',
  'nutFree',
] as const;
export type CatersFlag = (typeof CATERS_FLAGS)[number];

const catersBitByWord = new Map<string, number>(CATERS_FLAGS.map((f, i) => [normalizeWord(f), 1 << i]));

/**
 * What a flag implies (contract): a vegan venue also caters vegetarian, dairy-free and
 * egg-free. Applied when venues are stored, so filters test one bit.
 */
const CATERS_IMPLIES: Partial<Record<CatersFlag, readonly CatersFlag[]>> = {
  vegan: ['vegetarian', 'dairyFree', 'eggFree'],
  glutenFree: ['wheatFree'],
};

/** Bits by raw spelling, so building a store normalises each spelling once; bounded (queries pass user input). */
const catersBitBySpelling = new Map<string, number>();

/** The bit of a caters word, or 0 if the word is not in the vocabulary. */
export function catersBit(word: string): number {
  let bit = catersBitBySpelling.get(word);
  if (bit === undefined) {
    bit = catersBitByWord.get(normalizeWord(word)) ?? 0;
    if (catersBitBySpelling.size < 1024) catersBitBySpelling.set(word, bit);
  }
  return bit;
}

/** Bit set of the flags with their implications applied. Unknown words are returned in `unknown`. */
export function catersMask(flags: readonly string[] | undefined, unknown?: string[]): number {
  let mask = 0;
  if (!flags) return 0;
  for (const f of flags) {
    const bit = catersBit(f);
    if (bit === 0) {
      unknown?.push(f);
      continue;
    }
    mask |= bit;
    const implied = CATERS_IMPLIES[CATERS_FLAGS[Math.log2(bit)]!];
    if (implied) for (const g of implied) mask |= catersBit(g);
  }
  return mask;
}

/** The flag names of a bit set, in vocabulary order. */
export function catersNames(mask: number): CatersFlag[] {
  const names: CatersFlag[] = [];
  for (let i = 0; i < CATERS_FLAGS.length; i++) if (mask & (1 << i)) names.push(CATERS_FLAGS[i]!);
  return names;
}

/**
 * Distinct words a store holds at most in each dictionary (its codes are Uint16 and 0xffff
 * is NO_GENRE): a build, a snapshot and an upsert that would take the current venues past
 * it are refused (docs/data-model.md).
 */
export const MAX_VOCABULARY_WORDS = 0xffff;

/** A store's two word dictionaries: `terms` (primaryGenre, additionalGenres, establishmentFlags) and `vibes`. */
export type VocabularyField = 'terms' | 'vibes';

const FIELDS_OF: Record<VocabularyField, string> = {
  terms: 'primaryGenre, additionalGenres and establishmentFlags',
  vibes: 'vibes',
};

/**
 * The error for venues holding more than MAX_VOCABULARY_WORDS distinct words of a
 * dictionary (at least `count`); `which`: whose (a build's venues, or the current ones after an upsert).
 */
export function tooManyWords(field: VocabularyField, count: number, which = 'the venues'): VenueSearchError {
  const limit = MAX_VOCABULARY_WORDS.toLocaleString('en-US');
  return new VenueSearchError('limit_exceeded', `${which} would hold more than ${limit} distinct ${FIELDS_OF[field]} words (at least ${count.toLocaleString('en-US')}), the most a store supports (docs/data-model.md)`, {
    param: field === 'vibes' ? 'vibes' : 'primaryGenre',
    value: count,
  });
}

/**
 * A dictionary of normalised words to dense codes (0..size-1), built while venues are
 * stored. Codes fit a Uint16Array; more than MAX_VOCABULARY_WORDS distinct words is a
 * VenueSearchError (`limit_exceeded`, naming the field).
 */
export class TermDictionary {
  private readonly codes = new Map<string, number>();
  /** Codes by the raw spelling interned (data words only), so each spelling is normalised once. */
  private readonly codesBySpelling = new Map<string, number>();
  readonly words: string[] = [];

  constructor(readonly field: VocabularyField) {}

  /** The code of a word, adding it if new. */
  intern(word: string): number {
    const known = this.codesBySpelling.get(word);
    if (known !== undefined) return known;
    const norm = normalizeWord(word);
    let code = this.codes.get(norm);
    if (code === undefined) {
      code = this.words.length;
      if (code >= MAX_VOCABULARY_WORDS) throw tooManyWords(this.field, code + 1);
      this.codes.set(norm, code);
      this.words.push(norm);
    }
    this.codesBySpelling.set(word, code);
    return code;
  }

  /** The code of a word, or -1 if it never occurred. */
  lookup(word: string): number {
    return this.codes.get(normalizeWord(word)) ?? -1;
  }

  get size(): number {
    return this.words.length;
  }
}
