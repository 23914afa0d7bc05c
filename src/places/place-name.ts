import { foldUndecomposedLetters, withoutApostrophes } from '../find/normalize-name.js';

// eslint-disable-next-line no-control-regex -- every ASCII code point, controls included
const ASCII_TEXT = /^[\x00-\x7f]*$/;

/**
 * {@link placeKey} of an ASCII name (nearly every GB gazetteer row and address), without the
 * Unicode steps that leave ASCII as it is: NFKD decomposes no ASCII character, none is a
 * combining mark or a folded letter, its apostrophes are ' and `, and its letters and digits
 * (\p{L}, \p{N}) are a-z and 0-9 once lower-cased. Twice as fast, for the gazetteer's
 * 30,000 rows read at every start (test/places/place-key-ascii.test.ts checks it against
 * the Unicode path).
 */
function asciiPlaceKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/['`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\bsaint\b/g, 'st');
}

/**
 * Normal form of a place name for lookup: accents dropped, lower case, the letters that do not
 * decompose written in ASCII as venue names' are ("Tromsø" "tromso", "Łódź" "lodz", "Gießen"
 * "giessen"; see foldUndecomposedLetters), apostrophes removed (every form venue names drop: withoutApostrophes),
 * `&` written "and", every other non-letter-or-digit a single space, "saint" written "st"
 * ("St. Albans", "Saint Albans" and "st albans" are one key; so are "Elephant & Castle" and
 * "Elephant and Castle", whichever the gazetteer or the venues' addresses spell).
 */
export function placeKey(name: string): string {
  if (ASCII_TEXT.test(name)) return asciiPlaceKey(name);
  return withoutApostrophes(foldUndecomposedLetters(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()))
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\bsaint\b/g, 'st');
}

/**
 * Words people put before a place ("near Islington", "in Soho", "nr Camden Town"), as a
 * regular-expression alternation: a `location` led by one is offered without it (the
 * default resolver's suggestions), a find `q` holding one before a place gets a hint
 * (src/find/place-in-query.ts).
 */
export const PLACE_LEAD_WORDS = 'near|in|around|by|at|close to|next to|nr\\.?';

/**
 * The words of an administrative area's name that people leave out when they name it, as
 * place keys: "Greater London" is "London", "City and County of Swansea" "Swansea",
 * "Bridgend county borough" "Bridgend", "Sir Powys" (Welsh: county) "Powys", "Orkney
 * Islands" "Orkney", "Aberdeen City" "Aberdeen", "County Antrim" "Antrim".
 */
const ADMIN_PREFIX = /^(?:(?:royal |metropolitan )?borough of |city and (?:borough|county) of |city of |county of |district of |greater |county |sir )/;
const ADMIN_SUFFIX = / (?:county borough|council|city|islands|greater)$/;

const areaKeysMemo = new Map<string, readonly string[]>();

/**
 * The place keys an area name (GeoNames admin1 or admin2, or a country) is known by: its
 * own, and without its administrative words. Memoised: a few hundred distinct names.
 */
export function areaKeys(name: string): readonly string[] {
  let keys = areaKeysMemo.get(name);
  if (keys === undefined) {
    const own = placeKey(name);
    const bare = own.replace(ADMIN_PREFIX, '').replace(ADMIN_SUFFIX, '');
    areaKeysMemo.set(name, (keys = bare !== own && bare !== '' ? [own, bare] : [own]));
  }
  return keys;
}

/**
 * The readings of a place name qualified by its area after a comma ("St Ives, Cornwall",
 * "Newport, Wales"): each comma splits it into a place and an area, both trimmed and not
 * empty, the last comma first ("Ash, Sevenoaks, Kent" is "Ash, Sevenoaks" in "Kent", then
 * "Ash" in "Sevenoaks, Kent"; GeoNames spells some areas with a comma: "Oakley, Bournemouth,
 * Christchurch and Poole Council"). None without a comma.
 */
export function areaQualifiedReadings(name: string): Array<{ place: string; area: string }> {
  const out: Array<{ place: string; area: string }> = [];
  for (let at = name.lastIndexOf(','); at >= 0; at = at === 0 ? -1 : name.lastIndexOf(',', at - 1)) {
    const place = name.slice(0, at).trim();
    const area = name.slice(at + 1).trim();
    if (place !== '' && area !== '') out.push({ place, area });
  }
  return out;
}

/** A full UK postcode anywhere in a text: outward code, optional space, inward code. */
export const UK_POSTCODE_IN_TEXT = /\b([A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})\b/g;
const OUTWARD_ONLY = /^[A-Z]{1,2}[0-9][A-Z0-9]?$/;
const FULL = /^([A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})$/;

/** A query that is a UK postcode: its outward code and, for a full postcode, the normal full form. */
export function parsePostcode(text: string): { outward: string; full: string | null } | null {
  const t = text.trim().toUpperCase().replace(/\s+/g, ' ');
  if (OUTWARD_ONLY.test(t)) return { outward: t, full: null };
  const m = FULL.exec(t);
  if (m) return { outward: m[1]!, full: `${m[1]} ${m[2]}` };
  return null;
}
