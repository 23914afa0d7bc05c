/**
 * Words that mark an FHRS `Restaurant/Cafe/Canteen` as an institution's canteen rather than a
 * place the public eats (`import fhrs --skip-institutional`): a nursery, school, academy,
 * college, university, care or nursing home, hospital, or a contract caterer that runs staff
 * and school canteens, or a staff canteen, restaurant or café by those words
 * (../shared/data/fhrs-london/SOURCE.md: the type "includes staff/school/care-home
 * canteens"). Matched as whole words, in any case, in the name or the address; in either not
 * as part of a street's name (`College Road`, `School Lane`, and the name "School Lane
 * Community Centre", audit 64a F6).
 * A rough rule by design, and opt-in: a hospital's café may be open to the public.
 */

/** The words, each matched whole (a phrase's words separated by any spaces). */
const INSTITUTION_WORDS = [
  'nursery',
  'nurseries',
  'montessori',
  'school',
  'schools',
  'academy',
  'college',
  'university',
  'care home',
  'nursing home',
  'residential home',
  'hospital',
  'hospice',
  'staff canteen',
  'staff restaurant',
  'staff cafe',
  'staff cafeteria',
] as const;

/** Contract caterers whose sites are staff, school and hospital canteens. */
const CONTRACT_CATERERS = [
  'aramark',
  'sodexo',
  'baxterstorey',
  'baxter storey',
  'elior',
  'chartwells',
  'compass group',
  'eurest',
  'medirest',
  'caterlink',
  'thomas franks',
  'bartlett mitchell',
  'vacherin',
  'restaurant associates',
  'harrison catering',
  'taylor shaw',
] as const;

/**
 * Words after which an institution's word is a street's name, not the place itself. "St" is
 * a street only where its part of the address (or the name) ends: before a name it is Saint
 * ("Medical School St Georges Hospital", audit 64a F6), after one it is Street ("School St, ...").
 */
const STREET_WORDS = 'road|rd|street|lane|ln|avenue|ave|place|pl|way|hill|close|gardens|green|park|square|terrace|yard|row|walk|crescent|drive|mews|grove|passage|parade|st\\.?(?=\\s*(?:,|$))';

const phrase = (w: string) => w.split(' ').join('\\s+');
const ANY_WORD = new RegExp(`(?<![\\p{L}\\p{N}])(${[...INSTITUTION_WORDS, ...CONTRACT_CATERERS].map(phrase).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
const STREET_AFTER = new RegExp(`^\\s+(?:${STREET_WORDS})(?![\\p{L}\\p{N}])`, 'iu');

/** The first institution word of `text` (lower case, spaces single), or undefined; words naming a street do not count. */
function wordIn(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  for (const match of text.matchAll(ANY_WORD)) {
    if (STREET_AFTER.test(text.slice(match.index + match[0].length))) continue;
    return match[0].toLowerCase().replace(/\s+/g, ' ');
  }
  return undefined;
}

/** The word that marks a venue of this name and address as an institution's canteen, or undefined. */
export function institutionalWord(name: string | undefined, address: string | undefined): string | undefined {
  return wordIn(name) ?? wordIn(address);
}
