import { nearDistanceMeters } from '../geo/distance.js';
import { MIN_METERS_PER_DEG_LAT } from '../geo/ellipsoid.js';
import { countryName, embeddedGbOutcode, embeddedGbOutcodes, firstLevelArea, isInArea, type GazetteerEntry } from './gazetteer.js';
import { NON_GEOGRAPHIC_OUTCODES } from './non-geographic-outcodes.js';
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
  huntingdonshire: ['hunts'],
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
  yorkshire: ['yorks'],
};

/**
 * Counties people still write on addresses (Royal Mail's former postal counties and the
 * historic counties they kept) that GeoNames no longer gives the places in them, by place
 * key: the areas GeoNames does give that lie wholly in them (`areas`, place keys of districts
 * or counties: Liverpool's district is in Lancashire; compared by the district's own key, see
 * isInFormerCounty), and, for a place of a county split between former counties
 * (POINT_DECIDED_COUNTIES: Greater Manchester, Greater London, ...), the outward postcodes they
 * covered (`outcodes`: a postcode area's letters, "BL", or a district, "SK4", which also
 * covers its sub-districts, "SW1A"; the longest code matching the place's district decides, so
 * "OL3" (Saddleworth, Yorkshire) overrides "OL" (Lancashire)). A district split between two such
 * counties and not point-decided is left out (Lisburn and Castlereagh: Antrim and Down;
 * Fermanagh and Omagh): its places keep the gazetteer's own areas. Codes whose places straddle
 * a boundary (SE8, SE14, SE20, SE23, SE26, EN4, E20, EC2-EC4, LA6, OL5, B64, B65) are left out:
 * their places are in no former county by this table. Sources: hand-known facts (Wikipedia,
 * "Postal counties of the United Kingdom", "Historic counties of England"; the Mersey and Tame
 * as the Lancashire-Cheshire boundary ("Trafford", "Tameside", "Reddish", "Heaton Norris");
 * Saddleworth (OL3) and Sedbergh (LA10) in the West Riding; Wythenshawe (M22, M23) Cheshire
 * until 1931; the County of London's parishes north of the Thames and west of the Lea taken
 * from Middlesex in 1889, the City of London (EC2-EC4) a county of its own; Furness and Cartmel
 * (LA11-LA17, LA20, LA21) "Lancashire over Sands", Millom (LA18, LA19) Cumberland; King's
 * Norton, Northfield (with Bartley Green, B32, and Rednal and Rubery, B45) and Yardley
 * Worcestershire until 1911, Quinton (B32) until 1909, Handsworth and Perry Barr
 * Staffordshire; Huntingdonshire until 1965); Belfast's postal county was County Antrim;
 * Stockport, Altrincham, Sale, Hyde were addressed "..., Cheshire".
 */
const FORMER_COUNTIES: Readonly<Record<string, { readonly name: string; readonly areas: readonly string[]; readonly outcodes?: readonly string[] }>> = {
  lancashire: {
    name: 'Lancashire',
    areas: ['liverpool', 'knowsley', 'sefton', 'st helens'],
    // Greater Manchester north and west of the Mersey and Tame; Furness and Cartmel (Cumbria)
    outcodes: ['BL', 'WN', 'OL', 'M', 'PR', 'SK4', 'SK5', 'WA3', 'WA11', 'WA12', 'LA11', 'LA12', 'LA13', 'LA14', 'LA15', 'LA16', 'LA17', 'LA20', 'LA21'],
  },
  cheshire: {
    name: 'Cheshire',
    areas: ['wirral'],
    // Greater Manchester south and east of the Mersey and Tame
    outcodes: ['SK', 'M22', 'M23', 'M31', 'M33', 'M90', 'WA13', 'WA14', 'WA15', 'WA16'],
  },
  yorkshire: { name: 'Yorkshire', areas: [], outcodes: ['OL3', 'LA10'] },
  westmorland: { name: 'Westmorland', areas: [], outcodes: ['LA7', 'LA8', 'LA9', 'LA22', 'LA23', 'CA10', 'CA16', 'CA17'] },
  cumberland: { name: 'Cumberland', areas: [], outcodes: ['CA', 'LA18', 'LA19'] },
  huntingdonshire: { name: 'Huntingdonshire', areas: [], outcodes: ['PE19', 'PE26', 'PE27', 'PE28', 'PE29'] },
  warwickshire: { name: 'Warwickshire', areas: [], outcodes: ['CV', 'B'] },
  staffordshire: { name: 'Staffordshire', areas: [], outcodes: ['WV', 'WS', 'B20', 'B21', 'B42', 'B43', 'B44', 'B66', 'B67', 'B70', 'B71', 'DY3', 'DY4', 'DY5', 'DY6'] },
  worcestershire: { name: 'Worcestershire', areas: [], outcodes: ['B13', 'B14', 'B25', 'B27', 'B28', 'B29', 'B30', 'B31', 'B32', 'B38', 'B45', 'B62', 'B63', 'B68', 'B69', 'DY1', 'DY2', 'DY8', 'DY9'] },
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
    // south of the Thames (SW2-SW20 but SW3, SW5-SW7, SW10; SE but Kent's and the straddling), Kingston, Croydon, Sutton, Richmond
    outcodes: [
      ...['CR', 'KT', 'SM', 'TW9', 'TW10', 'SW2', 'SW4', 'SW8', 'SW9', 'SW11', 'SW12', 'SW13', 'SW14', 'SW15', 'SW16', 'SW17', 'SW18', 'SW19', 'SW20'],
      ...['SE1', 'SE5', 'SE11', 'SE15', 'SE16', 'SE17', 'SE19', 'SE21', 'SE22', 'SE24', 'SE25', 'SE27'],
    ],
  },
  kent: { name: 'Kent', areas: [], outcodes: ['BR', 'DA', 'SE2', 'SE3', 'SE4', 'SE6', 'SE7', 'SE9', 'SE10', 'SE12', 'SE13', 'SE18', 'SE28'] },
  essex: { name: 'Essex', areas: [], outcodes: ['IG', 'RM', 'E4', 'E6', 'E7', 'E10', 'E11', 'E12', 'E13', 'E15', 'E16', 'E17', 'E18'] },
  // Barnet (Chipping Barnet, Arkley, New Barnet, Monken Hadley: EN5) until 1965
  hertfordshire: { name: 'Hertfordshire', areas: [], outcodes: ['EN5'] },
  middlesex: {
    name: 'Middlesex',
    areas: [],
    // north of the Thames and west of the Lea, without the City; Twickenham, Hounslow, Brentford, Feltham (TW1-TW8, TW11-TW14)
    outcodes: [
      ...['N', 'NW', 'W', 'WC', 'HA', 'UB', 'EN1', 'EN2', 'EN3', 'EC1', 'E1', 'E2', 'E3', 'E5', 'E8', 'E9', 'E14', 'SW1', 'SW3', 'SW5', 'SW6', 'SW7', 'SW10'],
      ...['TW1', 'TW2', 'TW3', 'TW4', 'TW5', 'TW6', 'TW7', 'TW8', 'TW11', 'TW12', 'TW13', 'TW14'],
    ],
  },
};
/**
 * Counties GeoNames gives that are split between former counties (by place key, with the
 * keys of their districts, for rows that name only the district): a place in one is in the
 * former county of its postcode district (formerCountyOfPlace: FORMER_COUNTIES, DISTRICT_SPLITS)
 * and in no other; its districts are not read as wholly in one.
 */
const POINT_DECIDED_COUNTIES: readonly string[] = [
  ...['greater manchester', 'bolton', 'bury', 'manchester', 'oldham', 'rochdale', 'salford', 'stockport', 'tameside', 'trafford', 'wigan'],
  ...['greater london', 'london'],
  ...['west midlands', 'birmingham', 'coventry', 'dudley', 'sandwell', 'solihull', 'walsall', 'wolverhampton'],
  ...['cumbria', 'cambridgeshire'],
];

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

/** Whether an entry's former county is decided by its postcode district (it lies in a POINT_DECIDED_COUNTIES county), not by its areas. */
export function isFormerCountyByPoint(e: GazetteerEntry): boolean {
  return (e.counties ?? []).some((c) => districtKeys(c).some((k) => POINT_DECIDED_COUNTIES.includes(k)));
}

/** districtKeys by county name: a few hundred names, read for every entry near a refused qualifier (known-areas.ts). */
const districtKeysMemo = new Map<string, readonly string[]>();

/** A county's own keys, not one read by stripping "Greater": "Greater Manchester" is not the City of Manchester, "Belfast Greater" not Belfast (audit 66f F1, F4). */
function districtKeys(c: string): readonly string[] {
  let keys = districtKeysMemo.get(c);
  if (keys === undefined) {
    const key = placeKey(c);
    districtKeysMemo.set(c, (keys = /^greater |\bgreater$/.test(key) ? [key] : areaKeys(c)));
  }
  return keys;
}

/**
 * Whether an entry lies in a former county (FORMER_COUNTIES): in a point-decided county
 * (isFormerCountyByPoint) when its postcode districts put it there (formerCountyOfPlace), else
 * by one of its areas.
 */
function isInFormerCounty(e: GazetteerEntry, former: (typeof FORMER_COUNTIES)[string]): boolean {
  if (isFormerCountyByPoint(e)) return formerCountyOfPlace(e) === former;
  return (e.counties ?? []).some((c) => districtKeys(c).some((k) => former.areas.includes(k)));
}

/** The former county whose `outcodes` hold the longest match of an outward code ("OL3": Yorkshire, over Lancashire's "OL"), or undefined. */
function formerCountyOfDistrict(code: string | undefined): (typeof FORMER_COUNTIES)[string] | undefined {
  if (code === undefined || STRADDLING_OUTCODES.has(code)) return undefined;
  if (formerByDistrict.has(code)) return formerByDistrict.get(code);
  let best: (typeof FORMER_COUNTIES)[string] | undefined;
  let bestLength = 0;
  for (const former of Object.values(FORMER_COUNTIES)) {
    for (const prefix of former.outcodes ?? []) if (prefix.length > bestLength && outcodeMatches(code, prefix)) [best, bestLength] = [former, prefix.length];
  }
  formerByDistrict.set(code, best);
  return best;
}

/** formerCountyOfDistrict by outward code (about 3,000 codes at most). */
const formerByDistrict = new Map<string, (typeof FORMER_COUNTIES)[string] | undefined>();

/**
 * Districts whose places straddle a former counties' boundary, in none of them although a
 * postcode area's letters in FORMER_COUNTIES would cover them ("OL" Lancashire: Mossley, OL5,
 * lay in Lancashire, Cheshire and Yorkshire; "B" Warwickshire: Cradley Heath and Rowley Regis,
 * B64, B65, Staffordshire and Worcestershire). Codes no entry covers need no listing (SE8, EC2).
 */
const STRADDLING_OUTCODES: ReadonlySet<string> = new Set(['OL5', 'B64', 'B65']);

/** Whether an outward code is in a table's code: its area ("M" for "M20", not "ME4"), or its district with any sub-district letter ("SW1" for "SW1A", not "SW10"). */
function outcodeMatches(code: string, prefix: string): boolean {
  if (code === prefix) return true;
  if (/^[A-Z]+$/.test(prefix)) return /^[A-Z]+/.exec(code)?.[0] === prefix;
  return code.startsWith(prefix) && /^[A-Z]$/.test(code.charAt(prefix.length));
}

/**
 * Places of districts that straddle a former counties' boundary, by outward code and place
 * key: the FORMER_COUNTIES key of the county each lay in, or null for one in a county the
 * table does not hold (Bedfordshire, Cambridgeshire, Derbyshire); the
 * district's other places keep its reading by the table. Only places of point-decided
 * counties are read so. Hand-known facts (audit 67f F1; the parishes' histories):
 * - Cumbria: Leath Ward's villages of CA10 (Lazonby, Kirkoswald, Renwick, Melmerby, ...) were
 *   Cumberland, Patterdale and Glenridding (CA11) Westmorland; Arnside (LA5) and Lonsdale
 *   Ward's villages of LA6 (Kirkby Lonsdale, Casterton, Barbon, Killington, ...) Westmorland;
 *   Meathop and Witherslack (LA11) Westmorland; Ulpha (LA20) Cumberland; Hawkshead, Claife
 *   and Grizedale (LA22) Lancashire.
 * - Greater Manchester: Grasscroft (OL4) Saddleworth, Yorkshire; Hadfield and Chisworth
 *   (GeoNames files them under SK14) Derbyshire (Glossop's). Mellor (SK6), Derbyshire's until
 *   1936, is left Cheshire's, the county of its postal address since ("Stockport, Cheshire";
 *   audit 68h F2).
 * - West Midlands: Streetly and Little Aston (B74) Staffordshire; Wordsley and Amblecote (DY8)
 *   Staffordshire.
 * - Cambridgeshire: Eaton Socon, Eaton Ford and Duloe (PE19) Bedfordshire, Eltisley and
 *   Croxton Cambridgeshire; Peterborough's parishes south of the Nene (PE2, PE7, PE8:
 *   Fletton, the Ortons, Stanground, Yaxley, Stilton, Conington, Holme, Elton, ...)
 *   Huntingdonshire (audit 68h F1: Conington, Holme, Denton, Caldecote, Chesterton).
 * - Greater London: North Woolwich (E16) Kent, part of Woolwich parish; Shoreditch, whose
 *   nearest own district is the City's EC2 (EC2A reaches north of the City into it), Middlesex;
 *   Totteridge (N20) and
 *   East Barnet (EN4, N14) Hertfordshire until 1965 (audit 68b F6); Cockfosters, Hadley Wood and Trent Park (EN4) Enfield parish,
 *   Middlesex.
 */
const DISTRICT_SPLITS: Readonly<Record<string, Readonly<Record<string, string | null>>>> = {
  CA10: countyOf('cumberland', [
    ...['blencarn', 'culgaith', 'gamblesby', 'glassonby', 'haresceugh', 'hunsonby', 'kirkland', 'kirkoswald', 'langwathby'],
    ...['lazonby', 'little salkeld', 'melmerby', 'ousby', 'renwick', 'scale houses', 'skirwith', 'staffield', 'winskill'],
  ]),
  CA11: countyOf('westmorland', ['patterdale', 'glenridding']),
  LA5: countyOf('westmorland', ['arnside']),
  LA6: countyOf('westmorland', ['barbon', 'burton in kendal', 'casterton', 'farleton', 'holme', 'killington', 'kirkby lonsdale', 'lupton', 'mansergh', 'middleton']),
  LA11: countyOf('westmorland', ['meathop', 'witherslack']),
  LA20: countyOf('cumberland', ['ulpha']),
  LA22: countyOf('lancashire', ['hawkshead', 'near sawrey', 'outgate', 'high wray', 'grizedale']),
  OL4: countyOf('yorkshire', ['grasscroft']),
  SK14: countyOf(null, ['hadfield', 'chisworth']),
  B74: countyOf('staffordshire', ['streetly', 'little aston']),
  DY8: countyOf('staffordshire', ['wordsley', 'amblecote']),
  PE19: countyOf(null, ['eaton socon', 'eaton ford', 'duloe', 'eltisley', 'croxton']),
  PE2: countyOf('huntingdonshire', ['old fletton', 'orton longueville', 'orton waterville', 'woodston', 'alwalton', 'stanground']),
  PE7: countyOf('huntingdonshire', ['stilton', 'yaxley', 'farcet', 'folksworth', 'haddon', 'morborne', 'norman cross', 'conington', 'holme', 'denton', 'caldecote', 'chesterton']),
  PE8: countyOf('huntingdonshire', ['elton', 'water newton']),
  E16: countyOf('kent', ['north woolwich']),
  EC2: countyOf('middlesex', ['shoreditch']),
  N14: countyOf('hertfordshire', ['east barnet']),
  N20: countyOf('hertfordshire', ['totteridge']),
  EN4: { ...countyOf('middlesex', ['cockfosters', 'hadley wood', 'trent park', 'enfield chase']), ...countyOf('hertfordshire', ['east barnet']) },
};

/** A DISTRICT_SPLITS entry: each place key in one county (a FORMER_COUNTIES key, or null: one the table does not hold). */
function countyOf(county: string | null, keys: readonly string[]): Readonly<Record<string, string | null>> {
  return Object.fromEntries(keys.map((key) => [key, county]));
}

/** formerCountyOfPlace by entry, once (read for every entry near a refused qualifier). */
const formerOfPlace = new WeakMap<GazetteerEntry, (typeof FORMER_COUNTIES)[string] | undefined>();

/**
 * The former county of a point-decided place (isFormerCountyByPoint), by its postcode
 * district: the one of its own (GeoNames' postal rows naming it, `districts`) whose point is
 * nearest its point, else (a GeoNames town no postal row names, or a custom gazetteer's
 * place) the district whose point is nearest; read by DISTRICT_SPLITS when it names the
 * place there, else by the table (formerCountyOfDistrict). A place with several districts is
 * read by the nearest only, even when that one is in no former county: a farther one may lie
 * across the boundary. Until 2026-11-30 every place
 * went by the nearest district's point: Tebay (CA10) lay nearer Sedbergh's LA10 and was
 * "Tebay, Yorkshire" (audit 67f F1).
 */
function formerCountyOfPlace(e: GazetteerEntry): (typeof FORMER_COUNTIES)[string] | undefined {
  if (formerOfPlace.has(e)) return formerOfPlace.get(e);
  const code = postcodeDistrict(e);
  const split = code === undefined ? undefined : DISTRICT_SPLITS[code]?.[placeKey(e.name)];
  const former = split === undefined ? formerCountyOfDistrict(code) : split === null ? undefined : FORMER_COUNTIES[split];
  formerOfPlace.set(e, former);
  return former;
}

/**
 * The postcode district of towns no GeoNames postal row names (their `districts` empty) whose
 * nearest district point lies across a former counties' boundary, by hand (Royal Mail's
 * addresses): Kimbolton (nearest point MK44, Bedfordshire) and Sawtry (nearest PE7) are
 * PE28, Huntingdonshire's. A place of the name with districts of its own (Kimbolton, HR6) is
 * read by those.
 */
const UNNAMED_TOWN_DISTRICTS: Readonly<Record<string, string>> = { kimbolton: 'PE28', sawtry: 'PE28' };

/**
 * An entry's postcode district: of its own geographic districts with a point, the one whose
 * point is nearest its point; else the geographic district of the embedded GB file whose point
 * is nearest (EC50's PO boxes lie by Angel, in no area).
 */
function postcodeDistrict(e: GazetteerEntry): string | undefined {
  const own = e.districts === undefined ? [] : e.districts.split(',').filter((code) => !NON_GEOGRAPHIC_OUTCODES.has(code));
  const byHand = own.length === 0 ? UNNAMED_TOWN_DISTRICTS[placeKey(e.name)] : undefined;
  if (byHand !== undefined) return byHand;
  const points = own.flatMap((code) => embeddedGbOutcode(code) ?? []);
  let code: string | undefined;
  let best = Infinity;
  for (const o of points.length > 0 ? points : embeddedGbOutcodes()) {
    // the latitude difference alone is a lower bound of the distance: most codes end here
    if (Math.abs(o.lat - e.lat) * MIN_METERS_PER_DEG_LAT >= best || NON_GEOGRAPHIC_OUTCODES.has(o.code)) continue;
    const d = nearDistanceMeters(e.lat, e.lon, o.lat, o.lon);
    if (d < best) [best, code] = [d, o.code];
  }
  return code;
}

/** Every area key a short form or former county reading is written for (tests: each is an area the gazetteer holds, or a former county). */
export const SHORT_FORM_AREAS: readonly string[] = Object.keys(SHORT_FORMS);
/** The former counties' keys (FORMER_COUNTIES). */
export const FORMER_COUNTY_KEYS: readonly string[] = Object.keys(FORMER_COUNTIES);

/** "Co. Durham", "County Down": the word people put before an Irish or British county's name. */
const COUNTY_WORD = /^(?:co|county) (.+)$/;

/** Whether `key` is a short form (SHORT_FORMS) of the area `name`. */
const isShortFormOf = (name: string, key: string): boolean => areaKeys(name).some((k) => SHORT_FORMS[k]?.includes(key) === true);

/** The long forms a short form stands for ("yorks": "yorkshire"), to read "Yorks" as "Yorkshire" is read: a whole-word suffix of "North Yorkshire". */
const LONG_FORMS = new Map<string, string[]>();
for (const [long, shorts] of Object.entries(SHORT_FORMS)) for (const short of shorts) LONG_FORMS.set(short, [...(LONG_FORMS.get(short) ?? []), long]);

/**
 * The area a qualifier part (`key`, a place key) names for an entry when it is not an area's
 * own name (isInArea), or null. Looser readings, each naming one area, whose full name is
 * returned:
 * - a whole-word suffix of a county's name: "Lanarkshire" for "South Lanarkshire",
 *   "Yorkshire" for "North Yorkshire" (counties only: "Ireland" is not Northern Ireland), or
 *   a short form of one ("Yorks" for "West Yorkshire");
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
  // only then a short form as its long form's suffix: "Herts" stays Hertfordshire, not the
  // district East Hertfordshire GeoNames may list first
  const longForms = LONG_FORMS.get(key) ?? [];
  for (const county of longForms.length === 0 ? [] : (e.counties ?? [])) {
    if (areaKeys(county).some((k) => longForms.some((long) => k.endsWith(` ${long}`)))) return county;
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
