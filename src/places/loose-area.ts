import { countryName, firstLevelArea, isInArea, type GazetteerEntry } from './gazetteer.js';
import { areaKeys, placeKey } from './place-name.js';

/**
 * Short forms people write for an area, by the area's place key (a county or country name):
 * "IOM" and "IM" for the Isle of Man (GB-file postal names give it as their county, the
 * neighbour file as the country IM), "USA" and "US" for the United States.
 */
const SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  'isle of man': ['iom', 'i o m', 'im'],
  'united states': ['usa', 'u s a', 'us', 'u s'],
};

/**
 * The area a qualifier part (`key`, a place key) names for an entry when it is not an area's
 * own name (isInArea), or null. Looser readings, each naming one area, whose full name is
 * returned:
 * - a whole-word suffix of a county's name: "Lanarkshire" for "South Lanarkshire",
 *   "Yorkshire" for "North Yorkshire" (counties only: "Ireland" is not Northern Ireland);
 * - a short form of a county or country (SHORT_FORMS: "IOM", "USA");
 * - outside GB, the country's ISO 3166 code ("IM", "IE", "US") and the abbreviation of a US
 *   state, Canadian province or Australian state ("VA", "ON", "NSW").
 * The caller takes such a reading only when the places it matches are in one area
 * (DefaultPlaceResolver: "Richmond, CA" may be California or Canada).
 */
export function looseArea(e: GazetteerEntry, key: string): string | null {
  for (const county of e.counties ?? []) {
    if (areaKeys(county).some((k) => k.endsWith(` ${key}`))) return county;
    if (areaKeys(county).some((k) => SHORT_FORMS[k]?.includes(key) === true)) return county;
  }
  if (e.country === 'GB') return null;
  const country = countryName(e.country);
  if (key === e.country.toLowerCase() || areaKeys(country).some((k) => SHORT_FORMS[k]?.includes(key) === true)) return country;
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
