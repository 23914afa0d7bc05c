import { describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';

/**
 * A place qualified by its Canadian province or Australian state, by name or abbreviation, on
 * the world gazetteer ("London, Ontario", "London, ON", "Perth, WA"); until 2026-11-30 only US
 * states were known, and "London, Ontario" was refused as "no London in Ontario". Oracle: each
 * area's capital or largest city at hand-known coordinates (degrees, from the cities' own
 * published positions), distances by GeographicLib; the abbreviations are ISO 3166-2's.
 */
const CITIES: readonly (readonly [city: string, area: string, abbreviation: string, lat: number, lon: number])[] = [
  ['Calgary', 'Alberta', 'AB', 51.05, -114.07],
  ['Vancouver', 'British Columbia', 'BC', 49.28, -123.12],
  ['Winnipeg', 'Manitoba', 'MB', 49.9, -97.14],
  ['Fredericton', 'New Brunswick', 'NB', 45.96, -66.64],
  ["St. John's", 'Newfoundland and Labrador', 'NL', 47.56, -52.71],
  ['Halifax', 'Nova Scotia', 'NS', 44.65, -63.57],
  ['Toronto', 'Ontario', 'ON', 43.65, -79.38],
  ['Charlottetown', 'Prince Edward Island', 'PE', 46.24, -63.13],
  ['Montreal', 'Quebec', 'QC', 45.5, -73.57],
  ['Regina', 'Saskatchewan', 'SK', 50.45, -104.61],
  ['Whitehorse', 'Yukon', 'YT', 60.72, -135.06],
  ['Yellowknife', 'Northwest Territories', 'NT', 62.45, -114.37],
  ['Iqaluit', 'Nunavut', 'NU', 63.75, -68.52],
  ['Canberra', 'Australian Capital Territory', 'ACT', -35.28, 149.13],
  ['Sydney', 'New South Wales', 'NSW', -33.87, 151.21],
  ['Darwin', 'Northern Territory', 'NT', -12.46, 130.84],
  ['Brisbane', 'Queensland', 'QLD', -27.47, 153.03],
  ['Adelaide', 'South Australia', 'SA', -34.93, 138.6],
  ['Hobart', 'Tasmania', 'TAS', -42.88, 147.33],
  ['Melbourne', 'Victoria', 'VIC', -37.81, 144.96],
  ['Perth', 'Western Australia', 'WA', -31.95, 115.86],
];

describe('Canadian provinces and Australian states after a place, on the world gazetteer', () => {
  const world = createDefaultPlaceResolver([], { countries: null });
  const metersFrom = (name: string, lat: number, lon: number) => {
    const p = world.resolve(name);
    return p === null ? Infinity : geodesic(p.lat, p.lon, lat, lon);
  };

  it('every area\'s capital or largest city resolves by the area\'s name and by its abbreviation', () => {
    for (const [city, area, abbreviation, lat, lon] of CITIES) {
      expect(metersFrom(`${city}, ${area}`, lat, lon), `${city}, ${area}`).toBeLessThan(10_000);
      expect(metersFrom(`${city}, ${abbreviation}`, lat, lon), `${city}, ${abbreviation}`).toBeLessThan(10_000);
    }
  });

  it('the area picks among places of the same name: London, Sydney, Perth, Melbourne', () => {
    expect(metersFrom('London, Ontario', 42.98, -81.25)).toBeLessThan(5000);
    expect(metersFrom('London, ON', 42.98, -81.25)).toBeLessThan(5000);
    expect(metersFrom('Sydney, Nova Scotia', 46.14, -60.18)).toBeLessThan(5000);
    expect(metersFrom('Perth, WA', -31.95, 115.86)).toBeLessThan(5000);
    expect(metersFrom('Melbourne, FL', 28.08, -80.61)).toBeLessThan(5000);
    expect(metersFrom('Melbourne, Victoria', -37.81, 144.96)).toBeLessThan(5000);
  });

  it('"Richmond, CA" stays ambiguous (California or Canada); "Richmond, BC" is Richmond, British Columbia', () => {
    expect(() => world.resolve('Richmond, CA')).toThrow(UnknownPlaceError);
    expect(metersFrom('Richmond, BC', 49.17, -123.14)).toBeLessThan(5000);
  });
});
