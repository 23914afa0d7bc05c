import { OPTIONAL_QUERY_WORDS, nameTokens } from '../find/normalize-name.js';

/** Two records of equal names (`sameVenueName`) are one venue when their points are at most this far apart, metres. */
export const SAME_NAME_METERS = 50;

/**
 * How the merge's joins compare venue names (Overture↔OSM, FHRS↔OSM): one rule for both.
 *
 * The key is the find index's words (case, accents and punctuation folded, `&` = `and`)
 * without a leading `the`: FHRS and Overture write "Red Lion" for OSM's "The Red Lion".
 * A name whose only word is `the` keeps it. The empty key (a name of punctuation only)
 * equals nothing, so it never links.
 */
export function venueNameKey(name: string): string {
  const words = nameTokens(name);
  if (words.length > 1 && words[0] === 'the') words.shift();
  return words.join(' ');
}

/** True when both keys are non-empty and equal. */
export function sameVenueName(a: string, b: string): boolean {
  const key = venueNameKey(a);
  return key !== '' && key === venueNameKey(b);
}

function contentWords(name: string): Set<string> {
  return new Set(nameTokens(name).filter((w) => !OPTIONAL_QUERY_WORDS.has(w)));
}

/**
 * Compatible names: every word of one name is a word of the other, filler words (the
 * find index's optional query words: the, a, an, of, and, ye) ignored, and neither is
 * left empty. "Costa" and "Costa Coffee", "Brick Brewery" and "Brick Brewery Taproom" are
 * compatible; "Ace Pizza" and "Pembury Tavern" (a kitchen inside a pub, sharing its phone)
 * are not.
 */
export function compatibleVenueNames(a: string, b: string): boolean {
  const wa = contentWords(a);
  const wb = contentWords(b);
  if (wa.size === 0 || wb.size === 0) return false;
  const [small, large] = wa.size <= wb.size ? [wa, wb] : [wb, wa];
  for (const w of small) if (!large.has(w)) return false;
  return true;
}

/** Whether two names share a word, filler words ignored ("Hubbub Cafe Bar" and "The Space Bar" do; "Santore Ristorante Italiano" and "Sports Bar & Grill" do not). */
export function namesShareAWord(a: string, b: string): boolean {
  const wb = contentWords(b);
  for (const w of contentWords(a)) if (wb.has(w)) return true;
  return false;
}
