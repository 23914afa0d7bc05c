import geographiclib from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { geodesic, prng } from '../support/oracle.js';

const WGS84 = geographiclib.Geodesic.WGS84;

/** The point halfway along a route of WGS84 geodesic legs, by GeographicLib: the oracle of `centerPoint`. */
function halfway(route: ReadonlyArray<{ lat: number; lon: number }>): { lat: number; lon: number } {
  const legs = route.slice(1).map((b, k) => WGS84.InverseLine(route[k]!.lat, route[k]!.lon, b.lat, b.lon));
  let rest = legs.reduce((sum, leg) => sum + leg.s13!, 0) / 2;
  for (const leg of legs) {
    if (rest <= leg.s13!) {
      const p = leg.Position(rest);
      return { lat: p.lat2!, lon: p.lon2! };
    }
    rest -= leg.s13!;
  }
  return route.at(-1)!;
}

/**
 * Audit 71c F1: a PATH answer's `centerPoint` (the point halfway along the route) was placed
 * on each piece's lat/lon curve, which cannot follow a geodesic whose longitude swings past a
 * pole: for (89.95, -170) -> (89.95, 10) -> (89.92, 100) it was 465 m from the halfway point
 * and 346 m off the route.
 */
describe('PATH centerPoint: the point halfway along the route, against GeographicLib', () => {
  const engine = createEngine([{ id: 'v1', name: 'Far Away Arms', location: { type: 'Point', coordinates: [0, 0] } }], { places: null });
  const centre = (route: ReadonlyArray<{ lat: number; lon: number }>) => {
    const c = engine.search({ locations: route, mode: { mode: 'PATH', maxDistance: 1000 } }, { limit: 1 }).centerPoint;
    return { lat: c.Lat, lon: c.Lon };
  };
  const metresFromHalfway = (route: ReadonlyArray<{ lat: number; lon: number }>) => {
    const c = centre(route);
    const h = halfway(route);
    return geodesic(c.lat, c.lon, h.lat, h.lon);
  };

  it('near either pole, routes whose legs pass by it (the audit\'s, mirrored, and 200 random ones above 80 degrees): within 1 m', () => {
    expect(metresFromHalfway([{ lat: 89.95, lon: -170 }, { lat: 89.95, lon: 10 }, { lat: 89.92, lon: 100 }])).toBeLessThan(1);
    expect(metresFromHalfway([{ lat: -89.95, lon: -170 }, { lat: -89.95, lon: 10 }, { lat: -89.92, lon: 100 }])).toBeLessThan(1);
    const rnd = prng(7101);
    let worst = 0;
    for (let k = 0; k < 200; k++) {
      const sign = k % 2 === 0 ? 1 : -1;
      const n = 2 + Math.floor(rnd() * 4);
      const route = Array.from({ length: n }, () => ({ lat: sign * (80.5 + rnd() * 9.49), lon: -180 + rnd() * 360 }));
      worst = Math.max(worst, metresFromHalfway(route));
    }
    expect(worst).toBeLessThan(1);
  });

  it('elsewhere (London to Manchester, a route at 60 degrees, one across 180 degrees): within 1 m', () => {
    expect(metresFromHalfway([{ lat: 51.5074, lon: -0.1278 }, { lat: 52.4862, lon: -1.8904 }, { lat: 53.4808, lon: -2.2426 }])).toBeLessThan(1);
    expect(metresFromHalfway([{ lat: 60, lon: 10 }, { lat: 60.3, lon: 11 }, { lat: 59.8, lon: 12.5 }])).toBeLessThan(1);
    expect(metresFromHalfway([{ lat: -16.9, lon: 179.9 }, { lat: -16.82, lon: 180 }, { lat: -16.74, lon: -179.9 }])).toBeLessThan(1);
  });
});
