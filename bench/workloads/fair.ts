/**
 * Fair meeting points (issue 15): 4 people spread over London (on a 3.5 km circle around a
 * point near Charing Cross: neighbours ~5 km apart, opposites ~7 km, ~5.6 km on average),
 * mixed travel modes, maxDistance 4 km, MIN_MAX and MIN_TOTAL, limit 20, beside
 *   - a brute-force scan over every venue computing the same costs (same distance rule,
 *     same speed models) and keeping the best 20 and the count;
 *   - a CENTRE search around the group's weighted midpoint whose radius is chosen (untimed,
 *     by bisection) so that it returns the same number of venues as the fair search.
 * Untimed checks: the fair search's totalResults and first page equal the scan's.
 * Alone: `npm run bench -- --only fair --sizes 1m` (or `npx tsx bench/fair.ts`).
 */
import { frameDistance } from '../../src/geo/frame-distance.js';
import { LocalFrame } from '../../src/geo/distance.js';
import type { TravelMode } from '../../src/schema/search.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { modeMinutes } from '../../src/search/travel-modes.js';
import { Rng } from '../../scripts/fixtures/random.js';
import type { BenchContext } from '../lib/context.js';
import { measure } from '../lib/measure.js';
import { NOW, QUERIES, type LatLon } from '../lib/queries.js';
import type { WorkloadResult } from '../lib/report.js';

const MAX_DISTANCE = 4000;
const RING_METERS = 3500;
const LIMIT = 20;
const CHECKED = 20;
const MODES: ReadonlyArray<TravelMode | undefined> = [undefined, 'TRANSIT', 'BICYCLE', 'WALK'];

interface Person extends LatLon {
  readonly travelMode?: TravelMode;
}

/** Groups of 4 on a 3.5 km circle (random rotation) around points within ~2 km of Charing Cross. */
export function fairGroups(): Person[][] {
  const rng = new Rng(15);
  return Array.from({ length: QUERIES }, () => {
    const c = { lat: 51.5074 + ((rng.next() * 2 - 1) * 2000) / 111_000, lon: -0.1278 + ((rng.next() * 2 - 1) * 2000) / 69_000 };
    const turn = rng.next() * 2 * Math.PI;
    return MODES.map((mode, k) => {
      const a = turn + (k * Math.PI) / 2;
      const p = { lat: c.lat + (RING_METERS * Math.cos(a)) / 111_250, lon: c.lon + (RING_METERS * Math.sin(a)) / 69_300 };
      return mode === undefined ? p : { ...p, travelMode: mode };
    });
  });
}

function fairBody(group: readonly Person[], fairness: string): object {
  return { locations: group, mode: { mode: 'POINT', maxDistance: MAX_DISTANCE, fairness } };
}

/**
 * The brute-force baseline: every venue, each person's distance (frameDistance, as ours)
 * and minutes by their mode, the group cost (largest or sum), the 4 km rule; the best
 * `LIMIT` by (cost, id) by insertion, and the count.
 */
function scan(lat: Float64Array, lon: Float64Array, idOf: (i: number) => string, group: readonly Person[], sum: boolean): { count: number; best: number[] } {
  const frames = group.map((p) => new LocalFrame(p.lat, p.lon));
  const modes = group.map((p) => p.travelMode);
  const best: number[] = [];
  const bestCost: number[] = [];
  let count = 0;
  outer: for (let i = 0; i < lat.length; i++) {
    let cost = 0;
    for (let p = 0; p < frames.length; p++) {
      const d = frameDistance(frames[p]!, lat[i]!, lon[i]!);
      if (d > MAX_DISTANCE) continue outer;
      const c = modeMinutes(modes[p], d);
      cost = sum ? cost + c : Math.max(cost, c);
    }
    count++;
    if (best.length === LIMIT && (cost > bestCost[LIMIT - 1]! || (cost === bestCost[LIMIT - 1]! && idOf(i) > idOf(best[LIMIT - 1]!)))) continue;
    let j = best.length;
    if (j === LIMIT) j--;
    while (j > 0 && (bestCost[j - 1]! > cost || (bestCost[j - 1] === cost && idOf(best[j - 1]!) > idOf(i)))) {
      best[j] = best[j - 1]!;
      bestCost[j] = bestCost[j - 1]!;
      j--;
    }
    best[j] = i;
    bestCost[j] = cost;
  }
  return { count, best };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function fairWorkloads(ctx: BenchContext): WorkloadResult[] {
  const { engine } = ctx;
  const { lat, lon } = engine.store;
  const idOf = (i: number) => engine.store.id(i);
  const groups = fairGroups();
  const minMax = groups.map((g) => fairBody(g, 'MIN_MAX'));
  const minTotal = groups.map((g) => fairBody(g, 'MIN_TOTAL'));
  const hits = new HitBuffer();

  // ---- untimed: the CENTRE radius returning as many venues as each fair search, and the checks
  const centres: LatLon[] = [];
  const radii: number[] = [];
  const fairCounts: number[] = [];
  const centreCounts: number[] = [];
  let pairwise = 0;
  let pairs = 0;
  for (const [k, g] of groups.entries()) {
    for (let a = 0; a < g.length; a++) for (let b = a + 1; b < g.length; b++, pairs++) pairwise += frameDistance(new LocalFrame(g[a]!.lat, g[a]!.lon), g[b]!.lat, g[b]!.lon);
    const c = engine.search(fairBody(g, 'CENTRE'), { limit: 1, now: NOW }).centerPoint;
    centres.push({ lat: c.Lat, lon: c.Lon });
    const target = engine.search(minMax[k], { limit: LIMIT, now: NOW }).totalResults;
    fairCounts.push(target);
    let lo = 0;
    let hi = MAX_DISTANCE * 2;
    for (let it = 0; it < 40; it++) {
      const mid = (lo + hi) / 2;
      if (engine.spatial.withinRadius(c.Lat, c.Lon, mid, hits) < target) lo = mid;
      else hi = mid;
    }
    radii.push(hi);
    centreCounts.push(engine.spatial.withinRadius(c.Lat, c.Lon, hi, hits));
  }
  const centreBodies = groups.map((g, k) => ({ locations: g, mode: { mode: 'POINT', maxDistance: radii[k]! } }));
  let checkedVenues = 0;
  for (let k = 0; k < CHECKED; k++) {
    for (const [sum, bodies] of [[false, minMax], [true, minTotal]] as const) {
      const ours = engine.search(bodies[k], { limit: LIMIT, now: NOW });
      const theirs = scan(lat, lon, idOf, groups[k]!, sum);
      if (ours.totalResults !== theirs.count) throw new Error(`fair ${ctx.label}: totalResults ${ours.totalResults} vs the scan's ${theirs.count}`);
      const a = ours.establishments.map((e) => e.id).join();
      const b = theirs.best.map(idOf).join();
      if (a !== b) throw new Error(`fair ${ctx.label}: first page differs from the scan's: ${a} vs ${b}`);
      checkedVenues += theirs.count;
    }
  }

  let i = 0;
  const next = () => i++ % groups.length;
  const timings = measure(
    [
      ['ours: MIN_MAX, 4 people, 4 km, limit 20', () => engine.search(minMax[next()], { limit: LIMIT, now: NOW }).totalResults],
      ['ours: MIN_TOTAL, 4 people, 4 km, limit 20', () => engine.search(minTotal[next()], { limit: LIMIT, now: NOW }).totalResults],
      ['CENTRE search, radius giving the same number of venues, limit 20', () => engine.search(centreBodies[next()], { limit: LIMIT, now: NOW }).totalResults],
    ],
    { timeMs: ctx.timeMs, minIterations: 5, rounds: 4 },
  );
  // The scan takes tens of ms per call: timed on its own, fewer samples.
  let s = 0;
  timings.push(
    ...measure(
      [
        ['brute-force scan of every venue, same costs (MIN_MAX)', () => scan(lat, lon, idOf, groups[s++ % groups.length]!, false).count],
        ['brute-force scan of every venue, same costs (MIN_TOTAL)', () => scan(lat, lon, idOf, groups[s++ % groups.length]!, true).count],
      ],
      { timeMs: ctx.timeMs, minIterations: 5 },
    ),
  );
  return [
    {
      workload: 'fair meeting point, 4 people over London',
      params: {
        venues: ctx.label,
        maxDistanceMeters: MAX_DISTANCE,
        meanPairwiseMeters: Math.round(pairwise / pairs),
        meanQualifying: Math.round(mean(fairCounts)),
        meanCentreRadiusMeters: Math.round(mean(radii)),
        meanCentreVenues: Math.round(mean(centreCounts)),
      },
      timings,
      checks: {
        'totalResults and first page = brute-force scan': `${CHECKED} groups x MIN_MAX and MIN_TOTAL, ${checkedVenues} qualifying venues, identical`,
      },
    },
  ];
}
