/**
 * Venues lying on a route leg, or half a metre beside it, in narrow corridors (audit 59d):
 * each must be found, at its true distance and along-route position. The chord's foot of a
 * point on a long piece lies up to the bulge's component along the chord from the curve's
 * (2.4 m on a 19.9 km leg at 40 degrees), which the narrow corridors' screen did not undo:
 * such venues were measured metres from the route and left out of a 2 m corridor.
 * Oracle: GeographicLib places the venues (Direct along the leg's geodesic, then 0.5 m
 * across it), so their true distance is 0 or 0.5 m and their position along is known.
 */
import geographiclib from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';

const wgs84 = geographiclib.Geodesic.WGS84;

describe('PATH: venues on a long leg, narrow corridors', () => {
  it('finds every venue on the leg or 0.5 m off it at its true distance and position (GeographicLib)', () => {
    let worstDistance = 0;
    let worstAlong = 0;
    let checked = 0;
    for (const lat0 of [0, 40, 51.5, 65]) {
      for (const azimuth of [0, 30, 60, 90, 135]) {
        for (const length of [5_000, 19_900]) {
          const end = wgs84.Direct(lat0, 0, azimuth, length);
          const line = wgs84.InverseLine(lat0, 0, end.lat2!, end.lon2!);
          const truth = new Map<string, { along: number; off: number }>();
          const venues = [];
          for (let k = 1; k < 10; k++) {
            for (const off of [0, 0.5]) {
              const along = (line.s13! * k) / 10;
              const p = line.Position(along);
              const q = wgs84.Direct(p.lat2!, p.lon2!, p.azi2! + 90, off);
              const id = `v${k}-${off}`;
              truth.set(id, { along, off });
              venues.push({ id, name: 'On the way', location: { type: 'Point' as const, coordinates: [q.lat2!, q.lon2!] as [number, number] } });
            }
          }
          const engine = createEngine(venues);
          for (const maxDistance of [2, 25]) {
            const where = `lat ${lat0}, azimuth ${azimuth}, ${length} m, corridor ${maxDistance} m`;
            const r = engine.search({ locations: [{ lat: lat0, lon: 0 }, { lat: end.lat2!, lon: end.lon2! }], mode: { mode: 'PATH', maxDistance } }, { limit: 100 });
            expect(r.totalResults, where).toBe(venues.length);
            for (const v of r.establishments) {
              const t = truth.get(v.id)!;
              worstDistance = Math.max(worstDistance, Math.abs(v.distanceMeters - t.off));
              worstAlong = Math.max(worstAlong, Math.abs(v.alongRouteMeters! - t.along));
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBe(4 * 5 * 2 * 2 * 18);
    // the quadratic fit of a 20 km piece is exact to centimetres; before the fix: 2.43 m
    expect(worstDistance).toBeLessThan(0.025);
    expect(worstAlong).toBeLessThan(0.05);
  });
});
