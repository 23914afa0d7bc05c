/**
 * Independent oracles for tests: exact WGS84 geodesics from GeographicLib (Karney), never
 * the code under test.
 */
import geographiclib from 'geographiclib-geodesic';

const wgs84 = geographiclib.Geodesic.WGS84;

/** Exact WGS84 geodesic distance, metres. */
export function geodesic(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return wgs84.Inverse(lat1, lon1, lat2, lon2).s12!;
}

/** The point `meters` from (lat, lon) along the WGS84 geodesic leaving at `azimuth` (degrees from north): [lat, lon]. */
export function geodesicDirect(lat: number, lon: number, azimuth: number, meters: number): [number, number] {
  const d = wgs84.Direct(lat, lon, azimuth, meters);
  return [d.lat2!, d.lon2!];
}

/**
 * Distance (metres) from a point to a route whose legs are WGS84 geodesics, and where along
 * the route (metres) the nearest point lies, by golden-section search along each leg (the
 * distance along one short leg is unimodal). Slow and exact: for tests only.
 */
export function routeDistance(route: ReadonlyArray<readonly [number, number]>, lat: number, lon: number): { distance: number; along: number } {
  let best = Number.POSITIVE_INFINITY;
  let bestAlong = 0;
  let along = 0;
  if (route.length === 1) return { distance: geodesic(route[0]![0], route[0]![1], lat, lon), along: 0 };
  for (let i = 0; i + 1 < route.length; i++) {
    const [aLat, aLon] = route[i]!;
    const [bLat, bLon] = route[i + 1]!;
    const line = wgs84.InverseLine(aLat, aLon, bLat, bLon);
    const len = line.s13!;
    const at = (s: number) => {
      const p = line.Position(s);
      return geodesic(p.lat2!, p.lon2!, lat, lon);
    };
    let lo = 0;
    let hi = len;
    const g = (Math.sqrt(5) - 1) / 2;
    let x1 = hi - g * (hi - lo);
    let x2 = lo + g * (hi - lo);
    let f1 = at(x1);
    let f2 = at(x2);
    for (let k = 0; k < 80 && hi - lo > 1e-4; k++) {
      if (f1 < f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = at(x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = at(x2);
      }
    }
    const candidates: Array<[number, number]> = [[0, at(0)], [len, at(len)], [(lo + hi) / 2, at((lo + hi) / 2)]];
    for (const [s, d] of candidates) {
      if (d < best - 1e-6) {
        best = d;
        bestAlong = along + s;
      }
    }
    along += len;
  }
  return { distance: best, along: bestAlong };
}

/** Seeded PRNG for reproducible test inputs (the fixtures' mulberry32). */
export { seededRandom as prng } from '../../scripts/fixtures/random.js';
