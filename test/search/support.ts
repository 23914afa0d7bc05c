// Independent oracles and data adapters for the search tests. Nothing here imports
// src/search: each function restates the contract (docs/search.md) in the most naive way.
import tzLookup from '@photostructure/tz-lookup';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VenueRecord } from '../../src/schema/venue.js';
import { bruteForceWeek } from '../hours/oracles.js';
import { sharedFile } from '../support/real-data.js';

export const FIXTURES_PATH = fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url));
export const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
export const VEGGIE_GB = 'osm-veggie-gb/veggiekarte_gb_2022-12-02.geojson';

export function loadFixtureVenues(): VenueRecord[] {
  return readFileSync(FIXTURES_PATH, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as VenueRecord);
}

/** OSM London pubs: pub, chain when branded, caters from the diet:* tags (yes / only). */
export function loadLondonPubs(): VenueRecord[] {
  const out: VenueRecord[] = [];
  for (const line of readFileSync(sharedFile(LONDON_PUBS), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const o = JSON.parse(line) as { osm_id: string; lat: number; lon: number; tags: Record<string, string> };
    const t = o.tags;
    const caters: string[] = [];
    const yes = (v: string | undefined) => v === 'yes' || v === 'only';
    if (yes(t['diet:vegan'])) caters.push('vegan');
    if (yes(t['diet:vegetarian'])) caters.push('vegetarian');
    if (yes(t['diet:gluten_free'])) caters.push('glutenFree');
    const r: VenueRecord = {
      id: o.osm_id,
      name: t.name ?? o.osm_id,
      location: { type: 'Point', coordinates: [o.lat, o.lon] },
      primaryGenre: 'pub',
      catersFlags: caters,
    };
    if (t.brand !== undefined) r.isChain = true;
    if (t.internet_access === 'wlan' || t.internet_access === 'yes') r.establishmentFlags = ['freeWifi'];
    out.push(r);
  }
  return out;
}

/** Veggiekarte GB: genre from the icon, caters from the category. */
export function loadVeggieGb(): VenueRecord[] {
  const json = JSON.parse(readFileSync(sharedFile(VEGGIE_GB), 'utf8')) as {
    features: Array<{ geometry: { coordinates: [number, number] }; properties: Record<string, string | number> }>;
  };
  const genreOfIcon: Record<string, string> = { restaurant: 'restaurant', cafe: 'cafe', fast_food: 'fast_food', pub: 'pub', bar: 'bar' };
  const catersOf: Record<string, string[]> = {
    vegan_only: ['vegan'],
    vegan_friendly: ['vegan'],
    vegetarian_only: ['vegetarian'],
    vegetarian_friendly: ['vegetarian'],
    vegan_limited: [],
  };
  return json.features.map((f) => {
    const p = f.properties;
    const [lon, lat] = f.geometry.coordinates;
    const r: VenueRecord = {
      id: `${String(p._type)}/${String(p._id)}`,
      name: String(p.name),
      location: { type: 'Point', coordinates: [lat, lon] },
      catersFlags: catersOf[String(p.category)] ?? [],
    };
    const genre = genreOfIcon[String(p.icon)];
    if (genre !== undefined) r.primaryGenre = genre;
    return r;
  });
}

// ---------------------------------------------------------------- centre

/** Weighted mean of unit vectors, back to degrees (the contract's POINT centre). */
export function oracleCentre(locations: ReadonlyArray<{ lat: number; lon: number; weight?: number }>): { lat: number; lon: number } {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const l of locations) {
    const w = l.weight ?? 1;
    const phi = (l.lat * Math.PI) / 180;
    const lam = (l.lon * Math.PI) / 180;
    x += w * Math.cos(phi) * Math.cos(lam);
    y += w * Math.cos(phi) * Math.sin(lam);
    z += w * Math.sin(phi);
  }
  return { lat: (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI, lon: (Math.atan2(y, x) * 180) / Math.PI };
}

// ---------------------------------------------------------------- preferences

/** Comparison form of a vocabulary word: lower case letters and digits only. */
export function squash(word: string): string {
  return word.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const IMPLIES: Record<string, string[]> = {
  vegan: ['vegetarian', 'dairyfree', 'eggfree'],
  glutenfree: ['wheatfree'],
};

export interface OraclePrefs {
  establishmentFilters?: string[];
  catersFilters?: string[];
  vibes?: string[];
  chainPreference?: 'PREFER_INDEPENDENT' | 'PREFER_CHAIN' | 'NO_PREFERENCE';
  openingConditions?: { state: 'OPEN' | 'CLOSED'; atTime?: string };
  nonCompromise?: string[];
}

export const STATIC_KINDS = ['restaurant', 'coffee_shop', 'cafe', 'pub', 'bar', 'fast_food', 'bakery'];

/** The words used as kinds (primary or additional genres) in a data set, squashed. */
export function kindWords(venues: readonly VenueRecord[]): Set<string> {
  const kinds = new Set(STATIC_KINDS.map(squash));
  for (const v of venues) {
    if (v.primaryGenre) kinds.add(squash(v.primaryGenre));
    for (const g of v.additionalGenres ?? []) kinds.add(squash(g));
  }
  return kinds;
}

const WEIGHTS = { genre: 1, establishment: 2, caters: 2, opening: 2, vibes: 1, chain: 1 };

export interface OracleMatch {
  parts: { genre: number; establishment: number; caters: number; opening: number; vibes: number; chain: number };
  asked: Set<string>;
  total: number;
  passes: boolean;
}

/**
 * The documented formula, restated: parts, total (weighted mean of the asked parts) and
 * whether the venue passes the non-compromise ones. `open` is the venue's state at the
 * instant ('open' | 'closed' | 'unknown').
 */
export function oracleMatch(v: VenueRecord, prefs: OraclePrefs, kinds: Set<string>, open: 'open' | 'closed' | 'unknown'): OracleMatch {
  const parts = { genre: 1, establishment: 1, caters: 1, opening: 1, vibes: 1, chain: 1 };
  const asked = new Set<string>();
  const uniq = (xs: string[] | undefined) => [...new Set((xs ?? []).map(squash))];
  const est = uniq(prefs.establishmentFilters);
  if (est.length > 0) {
    const venueTerms = new Set([v.primaryGenre ?? '', ...(v.additionalGenres ?? []), ...(v.establishmentFlags ?? [])].map(squash));
    const askedKinds = est.filter((w) => kinds.has(w));
    const askedFlags = est.filter((w) => !kinds.has(w));
    let met = 0;
    if (askedKinds.length > 0) {
      asked.add('genre');
      const primary = squash(v.primaryGenre ?? '');
      parts.genre = askedKinds.includes(primary) ? 1 : askedKinds.some((k) => venueTerms.has(k)) ? 0.5 : 0;
      if (parts.genre > 0) met++;
    }
    met += askedFlags.filter((f) => venueTerms.has(f)).length;
    parts.establishment = met / ((askedKinds.length > 0 ? 1 : 0) + askedFlags.length);
    asked.add('establishment');
  }
  const caters = uniq(prefs.catersFilters);
  if (caters.length > 0) {
    const has = new Set<string>();
    for (const c of v.catersFlags ?? []) {
      has.add(squash(c));
      for (const i of IMPLIES[squash(c)] ?? []) has.add(i);
    }
    parts.caters = caters.filter((c) => has.has(c)).length / caters.length;
    asked.add('caters');
  }
  if (prefs.openingConditions) {
    const want = prefs.openingConditions.state === 'OPEN' ? 'open' : 'closed';
    parts.opening = open === want ? 1 : open === 'unknown' ? 0.5 : 0;
    asked.add('opening');
  }
  const vibes = uniq(prefs.vibes);
  if (vibes.length > 0) {
    const has = new Set((v.vibes ?? []).map(squash));
    parts.vibes = vibes.filter((x) => has.has(x)).length / vibes.length;
    asked.add('vibes');
  }
  if (prefs.chainPreference && prefs.chainPreference !== 'NO_PREFERENCE') {
    const wantChain = prefs.chainPreference === 'PREFER_CHAIN';
    parts.chain = v.isChain === undefined ? 0.5 : v.isChain === wantChain ? 1 : 0;
    asked.add('chain');
  }
  let sum = 0;
  let weight = 0;
  for (const p of asked) {
    sum += WEIGHTS[p as keyof typeof WEIGHTS] * parts[p as keyof typeof parts];
    weight += WEIGHTS[p as keyof typeof WEIGHTS];
  }
  const total = weight === 0 ? 1 : sum / weight;
  const fieldPart: Record<string, keyof typeof parts> = {
    establishmentFilters: 'establishment',
    catersFilters: 'caters',
    openingConditions: 'opening',
    vibes: 'vibes',
    chainPreference: 'chain',
  };
  let passes = true;
  for (const f of prefs.nonCompromise ?? []) {
    const part = fieldPart[f]!;
    if (asked.has(part) && parts[part] < 1) passes = false;
  }
  return { parts, asked, total, passes };
}

// ---------------------------------------------------------------- opening hours

const weekCache = new Map<string, boolean[] | null>();
const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

/** Local minute of the week in `zone` at `instantMs`, read from Intl.formatToParts. */
export function localMinuteOfWeek(zone: string, instantMs: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(instantMs).map((p) => [p.type, p.value]));
  return WEEKDAY[parts.weekday!]! * 1440 + Number(parts.hour) * 60 + Number(parts.minute);
}

/** 'open' | 'closed' | 'unknown' of a venue at an instant, in its own time zone. */
export function oracleOpenState(v: VenueRecord, instantMs: number): 'open' | 'closed' | 'unknown' {
  const key = JSON.stringify(v.regularOpeningHours ?? null);
  let week = weekCache.get(key);
  if (week === undefined) {
    week = bruteForceWeek(v.regularOpeningHours);
    weekCache.set(key, week);
  }
  if (week === null) return 'unknown';
  const zone = v.timeZone ?? tzLookup(v.location.coordinates[0], v.location.coordinates[1]);
  return week[localMinuteOfWeek(zone, instantMs)] ? 'open' : 'closed';
}

// ---------------------------------------------------------------- order

export interface Ranked {
  id: string;
  distanceMeters: number;
  matchScore: { total: number };
}

/** The index of the first pair out of the contract's order, or -1. */
export function firstOrderViolation(list: readonly Ranked[]): number {
  for (let k = 1; k < list.length; k++) {
    const a = list[k - 1]!;
    const b = list[k]!;
    if (a.matchScore.total > b.matchScore.total) continue;
    if (a.matchScore.total < b.matchScore.total) return k;
    if (a.distanceMeters < b.distanceMeters) continue;
    if (a.distanceMeters > b.distanceMeters) return k;
    if (!(a.id < b.id)) return k;
  }
  return -1;
}
