/**
 * Name normalisation shared by the name index and its queries: Unicode compatibility
 * decomposition, accents dropped, lower case, apostrophes removed inside words
 * (`O'Neill's` -> `oneills`, `Fuller's` -> `fullers`), `&` read as `and`, every other
 * non-letter-or-digit a word separator (`Café-Bar` -> `cafe`, `bar`).
 *
 * Accents are the marks a reader may leave out: the Latin, Greek and Cyrillic diacritics
 * (U+0300-036F after decomposition), Hebrew points and Arabic vowel marks (`מַטְעַם` = `מטעם`,
 * `مَطْعَم` = `مطعم`). Other combining marks are part of their word: the vowel signs of Indic
 * and South-East Asian scripts are letters to their readers (`दिल्ली` is one word, not
 * `द ल ल`).
 */

/** The version of these rules, recorded in snapshots: a name index built by other rules is rebuilt at load. */
export const NAME_TOKENS_VERSION = 3;

const COMBINING_MARKS = /[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/g;
/**
 * Apostrophes of every common form; removed, not split on, so possessives stay one word. With
 * the okina (U+02BB, ʻ), which Hawaiian and Polynesian names write and people type as `'` or
 * leave out: "Hawaiʻi" is "hawaii" (audit 75c F1). Venue names and place names alike.
 */
const APOSTROPHES = /['\u2018\u2019\u02bb\u02bc\u0060\u00b4]/g;
// eslint-disable-next-line no-control-regex -- every ASCII code point, controls included
const ASCII = /^[\x00-\x7f]*$/;
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;
/** Letters that NFKD does not decompose but people type as ASCII (lower case). */
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLD_RE = /[ßæœøłđðþı]/g;
/** Whether a text, in any case, holds one of the FOLD letters. */
const HAS_FOLD_LETTER = /[ßæœøłđðþıÆŒØŁĐÐÞ]/;

/**
 * `lowerCased` with the letters that NFKD does not decompose written as people type them in
 * ASCII: `ß` "ss", `æ` "ae", `ø` "o", `ł` "l", `þ` "th" (so "Lodz" finds Łódź, "Tromso" is
 * Tromsø). The one table of these letters, for venue names and place names alike.
 */
export function foldUndecomposedLetters(lowerCased: string): string {
  return lowerCased.replace(FOLD_RE, foldLetter);
}

function foldLetter(c: string): string {
  return FOLD[c] ?? c;
}

/** Whether `text` (any case) holds a letter that {@link foldUndecomposedLetters} rewrites. */
export function hasUndecomposedLetter(text: string): boolean {
  return HAS_FOLD_LETTER.test(text);
}

/** `text` without its apostrophes (every form {@link nameTokens} removes): the one rule for venue names and place names. */
export function withoutApostrophes(text: string): string {
  return text.replace(APOSTROPHES, '');
}

/** Words that a query may leave out: "the red lion" finds "Red Lion". */
export const OPTIONAL_QUERY_WORDS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'of', 'and', 'ye']);

/** The normalised words of a name or query, in order (empty words dropped). */
export function nameTokens(text: string): string[] {
  // Most names are ASCII: skip the Unicode folding for them (same result, faster index build).
  const ascii = ASCII.test(text);
  const folded = (ascii ? text.toLowerCase() : text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().replace(FOLD_RE, foldLetter))
    .replace(APOSTROPHES, '')
    .replace(/&/g, ' and ');
  const out: string[] = [];
  for (const w of folded.split(SEPARATORS)) if (w.length > 0) out.push(w);
  return out;
}
