import { describe, expect, it } from 'vitest';
import { Gazetteer, isInArea } from '../../src/places/gazetteer.js';
import { KnownAreas } from '../../src/places/known-areas.js';
import { looseArea } from '../../src/places/loose-area.js';
import { geodesic } from '../support/oracle.js';

/**
 * Audit 66f F7: KnownAreas.hasPlaceNear reads an area once per group of entries sharing their
 * areas (and by name only for the towns a former county covers by name), no longer per entry.
 * Oracle: a brute-force scan of every gazetteer entry (GeographicLib distance, then the area
 * read per entry as before), for areas of every kind and points by and away from their edges.
 */
const KEYS = ['kent', 'essex', 'surrey', 'middlesex', 'middx', 'lancs', 'lancashire', 'cheshire', 'co antrim', 'county down', 'greater london', 'london', 'west yorkshire', 'herts', 'trafford', 'wales', 'isle of man'];
/** Hand-known points: Covent Garden, Camden Town, Hayes (Middx), Hayes (Kent), Brentford, Staines, Altrincham, Hyde, Carryduff, Thornton-Cleveleys, Cardiff. */
const POINTS = [
  { lat: 51.5117, lon: -0.124 },
  { lat: 51.539, lon: -0.1426 },
  { lat: 51.5158, lon: -0.4234 },
  { lat: 51.3779, lon: 0.0168 },
  { lat: 51.4837, lon: -0.3062 },
  { lat: 51.4336, lon: -0.5118 },
  { lat: 53.3875, lon: -2.3485 },
  { lat: 53.4513, lon: -2.0794 },
  { lat: 54.518, lon: -5.8871 },
  { lat: 53.8752, lon: -3.0225 },
  { lat: 51.4816, lon: -3.1791 },
];

describe('KnownAreas.hasPlaceNear against a brute-force scan (audit 66f F7)', () => {
  it('agrees for every area and point, at 10 km and 3 km', () => {
    const g = Gazetteer.embedded(['GB', 'IM']);
    const entries = [...g.entries()];
    const known = new KnownAreas(g);
    let agreedTrue = 0;
    for (const meters of [10_000, 3000]) {
      for (const p of POINTS) {
        const near = entries.filter((e) => Math.abs(e.lat - p.lat) < 0.2 && Math.abs(e.lon - p.lon) < 0.35 && geodesic(p.lat, p.lon, e.lat, e.lon) <= meters);
        for (const key of KEYS) {
          const brute = near.some((e) => isInArea(e, key) || looseArea(e, key) !== null);
          expect(known.hasPlaceNear(key, [p], meters), `${key} ${meters} m of ${p.lat},${p.lon}`).toBe(brute);
          if (brute) agreedTrue++;
        }
      }
    }
    // both answers occur (the test is not all "false")
    expect(agreedTrue).toBeGreaterThan(20);
  });
});
