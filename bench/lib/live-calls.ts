import type { Engine } from '../../src/engine.js';
import { findQueries } from '../workloads/find.js';
import { NOW, PREFS, cityRoutes, longRoute, pathBody, pointBody, pointCentres } from './queries.js';

/**
 * One call of each search and find workload, cycling through its seeded queries: what the
 * deopt check (bench/children/deopt-child.ts) runs between full collections. Each returns a
 * number (folded into a sink).
 */
export function liveCalls(engine: Engine): Array<readonly [string, () => number]> {
  const centres = pointCentres();
  const prefs = centres.map((c) => pointBody(c, 1000, PREFS));
  const plain = centres.map((c) => pointBody(c, 1000));
  const city = cityRoutes().map((r) => pathBody(r, 200));
  const long = [0, 1, 2, 3].map((k) => pathBody(longRoute(k), 1000));
  const { partial: names, centres: near } = findQueries([...engine.store.records]);
  let a = 0;
  return [
    ['POINT 1 km + preferences', () => engine.search(prefs[a++ % prefs.length], { limit: 20, now: NOW }).totalResults],
    ['POINT 1 km', () => engine.search(plain[a++ % plain.length], { limit: 20, now: NOW }).totalResults],
    ['PATH 10 km / 200 m', () => engine.search(city[a++ % city.length], { limit: 20, now: NOW }).totalResults],
    ['PATH London - Manchester, 100 vertices, 1 km', () => engine.search(long[a++ % long.length], { limit: 20, now: NOW }).totalResults],
    ['find, no centre', () => engine.find({ q: names[a++ % names.length]!, limit: 20 }, { now: NOW }).totalFound],
    ['find, 5 km centre', () => { const k = a++ % names.length; const c = near[k]!; return engine.find({ q: names[k]!, lat: c.lat, lon: c.lon, maxDistanceMeters: 5000, limit: 20 }, { now: NOW }).totalFound; }],
  ];
}
