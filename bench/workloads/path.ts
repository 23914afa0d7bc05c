/**
 * PATH workloads (issue 4): a 10 km / 200 m corridor through central London, a 290 km /
 * 1 km corridor London - Birmingham - Manchester (3 vertices), and the same trip as a
 * driver's route of 100 vertices (issue 16: about 52,000 venues at 1M), limit 20, beside turf.buffer +
 * booleanPointInPolygon over the kdbush candidates of the buffer's box.
 * Untimed checks: our totalResults equals our corridor's venue count; the venues where
 * turf's polygonal buffer disagrees with ours are counted, and a sample of them is settled
 * by the exact WGS84 distance from the route (GeographicLib, test/support/oracle.ts).
 * Ours and turf are timed in alternated rounds (measure's `rounds`), so their ratio, the
 * goal, is taken over the same stretch of time.
 */
import { PreparedRoute } from '../../src/geo/polyline.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { routeDistance } from '../../test/support/oracle.js';
import { symmetricDifference } from '../lib/baselines.js';
import type { BenchContext } from '../lib/context.js';
import { measure, measureLive } from '../lib/measure.js';
import { NOW, cityRoutes, intercityRoutes, longRoute, pathBody, type LatLon } from '../lib/queries.js';
import type { WorkloadResult } from '../lib/report.js';

export function pathWorkloads(ctx: BenchContext): WorkloadResult[] {
  return [
    corridor(ctx, 'PATH 10 km / 200 m, through London', cityRoutes(), 200, 20),
    corridor(ctx, 'PATH 290 km / 1 km, London - Manchester', intercityRoutes(), 1000, ctx.quick ? 4 : 10),
    corridor(ctx, 'PATH London - Manchester, 100 vertices, 1 km', [0, 1, 2, 3].map((k) => longRoute(k)), 1000, 2),
  ];
}

function corridor(ctx: BenchContext, name: string, routes: LatLon[][], width: number, checked: number): WorkloadResult {
  const { engine } = ctx;
  const base = ctx.baselines();
  const bodies = routes.map((r) => pathBody(r, width));
  const hits = new HitBuffer();
  const lat = engine.store.lat;
  const lon = engine.store.lon;
  let results = 0;
  let differing = 0;
  let sampled = 0;
  let oursRight = 0;
  for (let k = 0; k < checked; k++) {
    const route = routes[k]!;
    const n = engine.spatial.withinCorridor(new PreparedRoute(route.map((p) => p.lat), route.map((p) => p.lon)), width, hits);
    const total = engine.search(bodies[k], { limit: 1, now: NOW }).totalResults;
    if (total !== n) throw new Error(`${name} ${ctx.label}: totalResults ${total} differs from the corridor's ${n} venues`);
    const ours = Array.from(hits.idx.subarray(0, n));
    const oursSet = new Set(ours);
    const diff = symmetricDifference(ours, base.turfCorridor(route, width));
    results += n;
    differing += diff.length;
    for (const i of diff.slice(0, 10)) {
      const exact = routeDistance(route.map((p) => [p.lat, p.lon] as const), lat[i]!, lon[i]!).distance;
      sampled++;
      if (exact <= width === oursSet.has(i)) oursRight++;
    }
  }
  let a = 0;
  const next = () => a++ % routes.length;
  const timings = measure(
    [
      [`ours: PATH ${width} m either side, limit 20`, () => engine.search(bodies[next()], { limit: 20, now: NOW }).totalResults],
      ['turf.buffer + booleanPointInPolygon on kdbush box candidates', () => base.turfCorridor(routes[next()]!, width).length],
    ],
    { timeMs: ctx.timeMs, minIterations: 5, rounds: 4 },
  );
  const live = measureLive([[`ours: PATH ${width} m either side, limit 20`, () => engine.search(bodies[next()], { limit: 20, now: NOW }).totalResults]], ctx.live);
  return {
    workload: name,
    params: { venues: ctx.label, halfWidthMeters: width, meanVenuesInCorridor: Math.round(results / checked) },
    timings,
    live,
    checks: {
      'totalResults = corridor venue count': `${checked} routes, identical`,
      "venues where turf's buffer differs": `${differing} of ${results}; exact WGS84 distance of ${sampled} of them: ours right for ${oursRight}`,
    },
  };
}
