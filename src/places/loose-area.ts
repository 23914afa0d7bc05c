import { countryName, firstLevelArea, isInArea, type GazetteerEntry } from './gazetteer.js';
import { areaKeys, placeKey } from './place-name.js';

/**
 * Short forms people write for an area, by the area's place key (a county, nation or country
 * name), as place keys: "IOM" and "IM" for the Isle of Man (GB-file postal names give it as
 * their county, the neighbour file as the country IM), "NI" for Northern Ireland, "USA" and
 * "US" for the United States, and the abbreviations of English counties that Royal Mail's
 * former postal counties made usual in addresses ("Cambs", "Herts", "N Yorks"; source: Royal
 * Mail's list of postal county abbreviations, as given in Wikipedia's "Postal counties of the
 * United Kingdom"), for the counties GeoNames names (not Middlesex, gone since 1965).
 */
const SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  'isle of man': ['iom', 'i o m', 'im'],
  'northern ireland': ['ni', 'n i', 'n ireland'],
  'united states': ['usa', 'u s a', 'us', 'u s'],
  bedfordshire: ['beds'],
  berkshire: ['berks'],
  buckinghamshire: ['bucks'],
  cambridgeshire: ['cambs'],
  gloucestershire: ['glos'],
  hampshire: ['hants'],
  hertfordshire: ['herts'],
  lancashire: ['lancs'],
  leicestershire: ['leics'],
  lincolnshire: ['lincs'],
  northamptonshire: ['northants'],
  'north yorkshire': ['n yorks', 'n yorkshire', 'north yorks'],
  nottinghamshire: ['notts'],
  oxfordshire: ['oxon'],
  staffordshire: ['staffs'],
  wiltshire: ['wilts'],
  worcestershire: ['worcs'],
};

/** "Co. Durham", "County Down": the word people put before an Irish or British county's name. */
const COUNTY_WORD = /^(?:co|county) (.+)$/;

/** Whether `key` is a short form (SHORT_FORMS) of the area `name`. */
const isShortFormOf = (name: string, key: string): boolean => areaKeys(name).some((k) => SHORT_FORMS[k]?.includes(key) === true);

/**
 * The area a qualifier part (`key`, a place key) names for an entry when it is not an area's
 * own name (isInArea), or null. Looser readings, each naming one area, whose full name is
 * returned:
 * - a whole-word suffix of a county's name: "Lanarkshire" for "South Lanarkshire",
 *   "Yorkshire" for "North Yorkshire" (counties only: "Ireland" is not Northern Ireland);
 * - a county's name after "Co." or "County", whole or as such a suffix ("Co. Durham" for
 *   County Durham or Durham; "Co. Down" for Newry Mourne and Down, the district GeoNames
 *   gives Newcastle, County Down);
 * - a short form of a county, nation or country (SHORT_FORMS: "IOM", "NI", "Herts", "USA");
 * - outside GB, the country's ISO 3166 code ("IM", "IE", "US") and the abbreviation of a US
 *   state, Canadian province or Australian state ("VA", "ON", "NSW").
 * The caller takes such a reading only when the places it matches are in one area
 * (DefaultPlaceResolver: "Richmond, CA" may be California or Canada).
 */
export function looseArea(e: GazetteerEntry, key: string): string | null {
  const named = COUNTY_WORD.exec(key)?.[1];
  for (const county of e.counties ?? []) {
    if (areaKeys(county).some((k) => k.endsWith(` ${key}`) || (named !== undefined && (k === named || k.endsWith(` ${named}`))))) return county;
    if (isShortFormOf(county, key)) return county;
  }
  if (e.nation !== undefined && isShortFormOf(e.nation, key)) return e.nation;
  if (e.country === 'GB') return null;
  const country = countryName(e.country);
  if (key === e.country.toLowerCase() || isShortFormOf(country, key)) return country;
  const state = firstLevelArea(e);
  if (state !== undefined && key === state.abbreviation.toLowerCase()) return state.name;
  return null;
}

/**
 * The areas a qualifier as given (`area`, after the place's name) names for an entry by looser
 * readings, one per comma-separated part, joined with ", " ("South Lanarkshire" for
 * "Lanarkshire"; "South Lanarkshire, Scotland" for "Lanarkshire, Scotland"); null when a
 * part names none of its areas, or when every part is an area's own name (isInQualifier).
 */
export function looseQualifier(e: GazetteerEntry, area: string): string | null {
  const parts = area
    .split(',')
    .map((p) => p.trim())
    .filter((p) => placeKey(p) !== '');
  if (parts.length === 0) return null;
  const names: string[] = [];
  let loose = false;
  for (const part of parts) {
    if (isInArea(e, placeKey(part))) {
      names.push(part);
      continue;
    }
    const name = looseArea(e, placeKey(part));
    if (name === null) return null;
    names.push(name);
    loose = true;
  }
  return loose ? names.join(', ') : null;
}
