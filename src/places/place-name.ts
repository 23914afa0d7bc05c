/**
 * Normal form of a place name for lookup: accents dropped, lower case, apostrophes removed,
 * `&` written "and", every other non-letter-or-digit a single space, "saint" written "st"
 * ("St. Albans", "Saint Albans" and "st albans" are one key; so are "Elephant & Castle" and
 * "Elephant and Castle", whichever the gazetteer or the venues' addresses spell).
 */
export function placeKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019\u2018`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\bsaint\b/g, 'st');
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
