/**
 * Words that mark an FHRS `Restaurant/Cafe/Canteen` as an institution's canteen rather than a
 * place the public eats (`import fhrs --skip-institutional`): a nursery, school, academy,
 * college, university, care or nursing home, hospital, or a contract caterer that runs staff
 * and school canteens, or a staff canteen, restaurant or café by those words
 * (../shared/data/fhrs-london/SOURCE.md: the type "includes staff/school/care-home
 * canteens"). Matched as whole words, in any case, in the name or the address; in either not
 * as part of a street's name (`College Road`, `School Lane`, `College Approach`, and the name
 * "School Lane Community Centre", audit 64a F6), of a pub's or club's ("College Arms", "The
 * Hospital Club"), or of a food brand's ("Pizza Academy", "O2 Academy"; audit 65a F10).
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
const STREET_WORDS =
  'road|rd|street|lane|ln|avenue|ave|place|pl|way|hill|close|gardens|green|park|square|terrace|yard|row|walk|crescent|drive|mews|grove|passage|parade|approach|fields|court|wharf|quay|rise|st\\.?(?=\\s*(?:,|$))';

/**
 * Words after which an institution's word names a pub, bar or club, not an institution: "College
 * Arms" (a Bloomsbury pub), "The Hospital Club" (a members' club), "Academy Bar" (audit 65a F10).
 */
const VENUE_WORDS_AFTER = 'arms|inn|tavern|club|bar|tap|brewery';

/**
 * Food and drink words before which "academy" or "school" names a restaurant or café brand,
 * not a teaching place: "Pizza Academy", "Suya Academy", "Coffee Academy" (audit 65a F10).
 * "O2 Academy" is a concert venue's brand.
 */
const FOOD_WORDS_BEFORE = 'pizza|pizzeria|suya|burger|burgers|sushi|grill|chicken|coffee|kebab|noodle|noodles|curry|taco|pasta|cake|bagel|dumpling|ramen|steak|fish|chips|doughnut|donut|gelato|crepe|waffle|juice|tea|cocktail|beer|wine|gin|o2';

const phrase = (w: string) => w.split(' ').join('\\s+');
const ANY_WORD = new RegExp(`(?<![\\p{L}\\p{N}])(${[...INSTITUTION_WORDS, ...CONTRACT_CATERERS].map(phrase).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
const STREET_AFTER = new RegExp(`^\\s+(?:${STREET_WORDS})(?![\\p{L}\\p{N}])`, 'iu');
const VENUE_AFTER = new RegExp(`^\\s+(?:${VENUE_WORDS_AFTER})(?![\\p{L}\\p{N}])`, 'iu');
const FOOD_BEFORE = new RegExp(`(?<![\\p{L}\\p{N}])(?:${FOOD_WORDS_BEFORE})\\s+$`, 'iu');
/** The words a food word before them makes a brand's. */
const BRAND_WORDS = new Set(['academy', 'school']);

/**
 * The first institution word of `text` (lower case, spaces single), or undefined; words naming
 * a street, a pub or club ("College Arms") or a food brand ("Pizza Academy") do not count, nor
 * the words in `brands`. A word read as a brand's is added to `brands`.
 */
function wordIn(text: string | undefined, brands: Set<string>): string | undefined {
  if (text === undefined) return undefined;
  for (const match of text.matchAll(ANY_WORD)) {
    const after = text.slice(match.index + match[0].length);
    if (STREET_AFTER.test(after) || VENUE_AFTER.test(after)) continue;
    const word = match[0].toLowerCase().replace(/\s+/g, ' ');
    if (brands.has(word)) continue;
    if (BRAND_WORDS.has(word) && FOOD_BEFORE.test(text.slice(0, match.index))) {
      brands.add(word);
      continue;
    }
    return word;
  }
  return undefined;
}

/**
 * The word that marks a venue of this name and address as an institution's canteen, or
 * undefined. A word the name uses as a brand's does not count in the address either ("O2
 * Academy Brixton" at "Brixton Academy").
 */
export function institutionalWord(name: string | undefined, address: string | undefined): string | undefined {
  const brands = new Set<string>();
  return wordIn(name, brands) ?? wordIn(address, brands);
}
