/**
 * The one rule for the names and addresses every importer writes (OSM, Veggiekarte, FHRS,
 * Overture): text shown on one line and matched word by word.
 *
 * - Line breaks, tabs and the other whitespace controls (U+0009-U+000D, U+0085, U+2028,
 *   U+2029) become a space: `Red\nLion` is `Red Lion`, not `RedLion`.
 * - Every other control (Cc) and format character (Cf) is removed: zero-width space
 *   (U+200B), word joiner, byte order mark (U+FEFF), soft hyphen, bidi embeddings,
 *   overrides and isolates (U+202A-U+202E, U+2066-U+2069: unbalanced, they reorder whatever
 *   is printed after the name, and an override can make a name read as another).
 * - Kept: the zero-width non-joiner and joiner (U+200C, U+200D), which are spelling in
 *   Persian and Indic scripts and hold emoji sequences together (removing them would change
 *   how a name is written), and the bidi marks LRM (U+200E), RLM (U+200F) and ALM (U+061C),
 *   which reorder nothing outside the name and place digits and punctuation in a
 *   right-to-left name (`مطعم 24` with an RLM).
 * - Runs of whitespace (any Unicode space, no-break space included) are one space; the
 *   result is trimmed. Letters, marks (NFD accents) and symbols are never touched.
 *
 * Returns undefined when nothing is left.
 */
const SPACE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
const INVISIBLE = /(?![\u061C\u200C-\u200F])[\p{Cc}\p{Cf}]/gu;
const SPACES = /\s+/g;

export function cleanText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const clean = value.replace(SPACE_CONTROLS, ' ').replace(INVISIBLE, '').replace(SPACES, ' ').trim();
  return clean === '' ? undefined : clean;
}
