import { distanceMeters } from '../geo/distance.js';
import { countryName, firstLevelArea, isInArea, type GazetteerEntry } from './gazetteer.js';
import { areaKeys, placeKey } from './place-name.js';

/**
 * Short forms people write for an area, by the area's place key (a county, nation or country
 * name), as place keys: "IOM" and "IM" for the Isle of Man (GB-file postal names give it as
 * their county, the neighbour file as the country IM), "NI" for Northern Ireland, "USA" and
 * "US" for the United States, and the abbreviations Royal Mail's former postal counties made
 * usual in addresses ("Cambs", "Herts", "N Yorks", "E Sussex", "Salop", "IOW", "T&W"; source:
 * Royal Mail's list of postal county abbreviations, as given in Wikipedia's "Postal counties of
 * the United Kingdom"), each under the area name GeoNames gives (East Riding of Yorkshire for
 * "E Yorks") or, for a county GeoNames no longer names, under FORMER_COUNTIES' key ("Middx").
 * Each key is an area the GB gazetteer holds or a FORMER_COUNTIES key (test/places/postal-county-forms.test.ts).
 */
const SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  'isle of man': ['iom', 'i o m', 'im'],
  'northern ireland': ['ni', 'n i', 'n ireland'],
  'united states': ['usa', 'u s a', 'us', 'u s'],
  bedfordshire: ['beds'],
  berkshire: ['berks'],
  buckinghamshire: ['bucks'],
  cambridgeshire: ['cambs'],
  cheshire: ['ches'],
  derbyshire: ['derbys'],
  'east riding of yorkshire': ['e yorks', 'e yorkshire', 'east yorks', 'east yorkshire'],
  'east sussex': ['e sussex'],
  gloucestershire: ['glos'],
  hampshire: ['hants'],
  herefordshire: ['herefs'],
  hertfordshire: ['herts'],
  'isle of wight': ['iow', 'i o w'],
  lancashire: ['lancs'],
  leicestershire: ['leics'],
  lincolnshire: ['lincs'],
  middlesex: ['middx'],
  northamptonshire: ['northants'],
  northumberland: ['northd', 'northumb'],
  'north yorkshire': ['n yorks', 'n yorkshire', 'north yorks'],
  nottinghamshire: ['notts'],
  oxfordshire: ['oxon'],
  shropshire: ['salop', 'shrops'],
  somerset: ['som'],
  'south yorkshire': ['s yorks', 's yorkshire', 'south yorks'],
  staffordshire: ['staffs'],
  'tyne and wear': ['t and w'],
  warwickshire: ['warks'],
  'west midlands': ['w midlands', 'w mids', 'west mids'],
  'west sussex': ['w sussex'],
  'west yorkshire': ['w yorks', 'w yorkshire', 'west yorks'],
  wiltshire: ['wilts'],
  worcestershire: ['worcs'],
};

/**
 * Counties people still write on addresses (Royal Mail's former postal counties and the
 * historic counties they kept) that GeoNames no longer gives the places in them, by place
 * key: the areas GeoNames does give that lie wholly in them (`areas`, place keys of districts
 * or counties: Bury's "Borough of Bury" is in Lancashire; compared by the district's own key,
 * see isInFormerCounty), and the post towns of Greater London, whose GeoNames rows name no
 * borough, that they covered (`londonTowns`: Croydon was "Croydon, Surrey"), and likewise the
 * towns of Greater Manchester's split districts and its postal-only rows, which name no
 * district (`manchesterTowns`: Trafford south of the Mersey and Tameside's Hyde, Stalybridge
 * were Cheshire, Stretford and Ashton-under-Lyne Lancashire; each name is one place in Greater
 * Manchester). A town name two London places share
 * is given with the point of the one meant (`townPoints`, GeoNames rows; within
 * TOWN_POINT_METERS): "Hayes, Middlesex" is Hayes UB3 (GeoNames 2647261), "Hayes, Kent" Hayes
 * BR2, 31 km apart. A district split between two such counties is otherwise left out (Lisburn
 * and Castlereagh: Antrim and Down; Fermanagh and Omagh): its places keep the gazetteer's own
 * areas. Source: hand-known facts (Wikipedia, "Postal counties of the United Kingdom",
 * "Historic counties of England", "Trafford", "Tameside"); Belfast's postal county was County
 * Antrim; Stockport, Altrincham, Sale, Hyde were addressed "..., Cheshire".
 */
const FORMER_COUNTIES: Readonly<
  Record<
    string,
    {
      readonly name: string;
      readonly areas: readonly string[];
      readonly londonTowns?: readonly string[];
      readonly manchesterTowns?: readonly string[];
      readonly townPoints?: Readonly<Record<string, readonly [number, number]>>;
    }
  >
> = {
  lancashire: {
    name: 'Lancashire',
    areas: ['bolton', 'bury', 'manchester', 'oldham', 'rochdale', 'salford', 'wigan', 'liverpool', 'knowsley', 'sefton', 'st helens'],
    // Trafford north of the Mersey, Tameside's Ashton, Denton, Droylsden; postal-only rows of Manchester, Wigan, Rochdale, Bolton
    manchesterTowns: [
      ...['stretford', 'urmston', 'flixton', 'trafford park', 'old trafford'],
      ...['ashton under lyne', 'denton', 'droylsden', 'audenshaw', 'haughton green', 'hurst'],
      ...['withington', 'bryn', 'healey', 'marylebone', 'chapeltown'],
    ],
  },
  cheshire: {
    name: 'Cheshire',
    areas: ['stockport', 'wirral'],
    manchesterTowns: [
      ...['altrincham', 'sale', 'hale', 'hale barns', 'bowdon', 'timperley', 'partington', 'carrington', 'ashton upon mersey'],
      ...['hyde', 'dukinfield', 'stalybridge', 'mottram in longdendale', 'hollingworth', 'broadbottom', 'gee cross'],
      ...['romiley', 'cheadle', 'heald green', 'gatley', 'reddish', 'woodford', 'compstall'],
    ],
  },
  cleveland: { name: 'Cleveland', areas: ['middlesbrough', 'stockton on tees', 'hartlepool', 'redcar and cleveland'] },
  'county durham': { name: 'County Durham', areas: ['sunderland', 'gateshead', 'south tyneside', 'darlington', 'hartlepool'] },
  gwent: { name: 'Gwent', areas: ['newport', 'monmouthshire', 'torfaen', 'blaenau gwent'] },
  dyfed: { name: 'Dyfed', areas: ['carmarthenshire', 'ceredigion', 'pembrokeshire'] },
  clwyd: { name: 'Clwyd', areas: ['wrexham', 'flintshire', 'denbighshire'] },
  avon: { name: 'Avon', areas: ['bristol', 'bath and north east somerset', 'north somerset', 'south gloucestershire'] },
  humberside: { name: 'Humberside', areas: ['kingston upon hull', 'east riding of yorkshire', 'north lincolnshire', 'north east lincolnshire'] },
  'county antrim': { name: 'County Antrim', areas: ['belfast', 'antrim and newtownabbey', 'mid and east antrim'] },
  'county down': { name: 'County Down', areas: ['ards and north down'] },
  surrey: {
    name: 'Surrey',
    areas: [],
    londonTowns: ['croydon', 'kingston upon thames', 'sutton', 'mitcham', 'morden', 'wallington', 'purley', 'coulsdon', 'thornton heath', 'carshalton', 'surbiton', 'new malden', 'south croydon', 'chessington', 'worcester park'],
  },
  kent: {
    name: 'Kent',
    areas: [],
    londonTowns: ['bromley', 'beckenham', 'orpington', 'west wickham', 'chislehurst', 'sidcup', 'bexleyheath', 'welling', 'erith', 'keston', 'hayes'],
    townPoints: { hayes: [51.37786, 0.01682] },
  },
  essex: { name: 'Essex', areas: [], londonTowns: ['romford', 'ilford', 'hornchurch', 'upminster', 'dagenham', 'barking', 'woodford green', 'rainham'] },
  middlesex: {
    name: 'Middlesex',
    areas: [],
    londonTowns: ['harrow', 'wembley', 'uxbridge', 'hayes', 'southall', 'twickenham', 'hounslow', 'enfield', 'edgware', 'pinner', 'ruislip', 'northolt', 'greenford', 'feltham', 'isleworth', 'teddington', 'hampton', 'west drayton', 'northwood', 'stanmore'],
    townPoints: { hayes: [51.51579, -0.4234] },
  },
};

/**
 * Groups of countries people name as one area: Jersey and Guernsey are the Channel Islands
 * (GeoNames' postal rows give "Jersey Channel Islands" as Jersey's county), by ISO 3166-1 code.
 */
const COUNTRY_GROUPS: Readonly<Record<string, { readonly name: string; readonly keys: readonly string[] }>> = {
  JE: { name: 'Channel Islands', keys: ['channel islands', 'channel isles', 'ci', 'c i'] },
  GG: { name: 'Channel Islands', keys: ['channel islands', 'channel isles', 'ci', 'c i'] },
};

/** FORMER_COUNTIES by each key that names one: its own, its short forms ("middx"), and without "county" ("antrim"). */
const FORMER_BY_KEY: ReadonlyMap<string, (typeof FORMER_COUNTIES)[string]> = new Map(
  Object.entries(FORMER_COUNTIES).flatMap(([k, former]) => [k, k.replace(/^county /, ''), ...(SHORT_FORMS[k] ?? [])].map((key) => [key, former] as const)),
);

/** The FORMER_COUNTIES entry a qualifier key names, by its own key, a short form ("Middx") or after "Co."/"County" ("Co. Antrim"). */
function formerCounty(key: string, named: string | undefined): (typeof FORMER_COUNTIES)[string] | undefined {
  return FORMER_BY_KEY.get(key) ?? (named === undefined ? undefined : FORMER_BY_KEY.get(named));
}

/** Whether a qualifier key names a former county (FORMER_COUNTIES: "middlesex", "middx", "co antrim"), an area known by its table whatever places of it the gazetteer lists. */
export function isFormerCountyKey(key: string): boolean {
  return formerCounty(key, COUNTY_WORD.exec(key)?.[1]) !== undefined;
}

/**
 * The names of the towns a former county named by `key` covers by name (londonTowns,
 * manchesterTowns), lower-case letters only ("kingstonuponthames"); undefined when `key` names
 * no former county. A prefilter: an entry whose name is not among them is in the former county
 * by its areas alone (isInFormerCounty), whatever its name.
 */
export function formerCountyTownLetters(key: string): ReadonlySet<string> | undefined {
  const former = formerCounty(key, COUNTY_WORD.exec(key)?.[1]);
  if (former === undefined) return undefined;
  return new Set([...(former.londonTowns ?? []), ...(former.manchesterTowns ?? [])].map(nameLetters));
}

/** A name's lower-case letters only (formerCountyTownLetters' form). */
export const nameLetters = (name: string): string => name.toLowerCase().replace(/[^a-z]/g, '');

/** Whether an entry lies in a former county (FORMER_COUNTIES) by one of its areas, or as a Greater London post town it covered. */
function isInFormerCounty(e: GazetteerEntry, former: (typeof FORMER_COUNTIES)[string]): boolean {
  const counties = e.counties ?? [];
  // a district's own key, not one read by stripping "Greater": "Greater Manchester" is not the
  // City of Manchester (Altrincham, Stockport were Cheshire), "Belfast Greater" not Belfast (audit 66f F1, F4)
  const keysOf = (c: string): readonly string[] => (/^greater |\bgreater$/.test(placeKey(c)) ? [placeKey(c)] : areaKeys(c));
  if (counties.some((c) => keysOf(c).some((k) => former.areas.includes(k)))) return true;
  const name = placeKey(e.name);
  const point = former.townPoints?.[name];
  if (point !== undefined && distanceMeters(e.lat, e.lon, point[0], point[1]) > TOWN_POINT_METERS) return false;
  // "Greater Manchester" read as its stripped key 'manchester' here on purpose: any Greater Manchester place of the name
  if (former.manchesterTowns?.includes(name) === true && counties.some((c) => areaKeys(c).some((k) => MANCHESTER_KEYS.includes(k)))) return true;
  return former.londonTowns?.includes(name) === true && counties.some((c) => areaKeys(c).includes('london'));
}

/** A London town of a former county given with a point (townPoints) is the place within this distance of it (metres; Hayes UB8's row is 4.2 km from UB3's). */
const TOWN_POINT_METERS = 5000;
/** Area keys of Greater Manchester's places (the county, stripped of "Greater", and the districts manchesterTowns lie in). */
const MANCHESTER_KEYS: readonly string[] = ['manchester', 'trafford', 'tameside', 'stockport'];

/** Every area key a short form or former county reading is written for (tests: each is an area the gazetteer holds, or a former county). */
export const SHORT_FORM_AREAS: readonly string[] = Object.keys(SHORT_FORMS);
/** The former counties' keys (FORMER_COUNTIES). */
export const FORMER_COUNTY_KEYS: readonly string[] = Object.keys(FORMER_COUNTIES);

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
 * - a former postal or historic county the entry lies in (FORMER_COUNTIES: "Bury, Lancs",
 *   "Croydon, Surrey", "Belfast, Co. Antrim", "Middlesbrough, Cleveland"), named as such;
 * - "Channel Islands" for Jersey and Guernsey (COUNTRY_GROUPS);
 * - outside GB, the country's ISO 3166 code ("IM", "IE", "US") and the abbreviation of a US
 *   state, Canadian province or Australian state ("VA", "ON", "NSW").
 * The caller takes such a reading only when the places it matches are in one area
 * (DefaultPlaceResolver: "Richmond, CA" may be California or Canada). With `former` false the
 * former-county reading is left out: the caller tries the others first, as it tries an area's
 * own name before a former county's, so that "Thornton, Lancs" is "Thornton, Lancashire"
 * (Thornton-Cleveleys, not Thornton in Sefton: audit 66f F3).
 */
export function looseArea(e: GazetteerEntry, key: string, former = true): string | null {
  const named = COUNTY_WORD.exec(key)?.[1];
  for (const county of e.counties ?? []) {
    if (areaKeys(county).some((k) => k.endsWith(` ${key}`) || (named !== undefined && (k === named || k.endsWith(` ${named}`))))) return county;
    if (isShortFormOf(county, key)) return county;
  }
  if (e.nation !== undefined && isShortFormOf(e.nation, key)) return e.nation;
  const county = former ? formerCounty(key, named) : undefined;
  if (county !== undefined && isInFormerCounty(e, county)) return county.name;
  const group = COUNTRY_GROUPS[e.country];
  if (group?.keys.includes(key) === true) return group.name;
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
export function looseQualifier(e: GazetteerEntry, area: string, former = true): string | null {
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
    const name = looseArea(e, placeKey(part), former);
    if (name === null) return null;
    names.push(name);
    loose = true;
  }
  return loose ? names.join(', ') : null;
}
