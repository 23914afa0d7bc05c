/**
 * POINT workloads (issue 4): 1 km around points of central London with and without
 * preferences, beside raw kdbush, flatbush, geokdbush, Orama and turf brute force; a
 * group of 4 weighted locations; and a page deep in the results (offset 80).
 * Result sets are checked outside the timed loops: exact baselines (kdbush, flatbush: the
 * same WGS84 distance filter) must be equal; spherical ones (geokdbush, turf, Orama:
 * haversine on a sphere) differ at the circle's edge, and the differing venues are counted.
 */
import { nearDistanceMeters } from '../../src/geo/distance.js';
import type { SearchResponse } from '../../src/schema/search.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { symmetricDifference } from '../lib/baselines.js';
import type { BenchContext } from '../lib/context.js';
import { measure, measureLive } from '../lib/measure.js';
import { NOW, PREFS, groupBody, pointBody, pointCentres, weightedGroups, type LatLon } from '../lib/queries.js';
import type { WorkloadResult } from '../lib/report.js';

const R = 1000;
const CHECKED = 50;

export function pointWorkloads(ctx: BenchContext, opts: { orama: boolean }): WorkloadResult[] {
  return [pointRadius(ctx, opts.orama), weightedPoint(ctx), deepPage(ctx)];
}

function sortedEqual(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((v, i) => v === y[i]);
}

function pointRadius(ctx: BenchContext, withOrama: boolean): WorkloadResult {
  const { engine } = ctx;
  const base = ctx.baselines();
  const centres = pointCentres();
  const withPrefs = centres.map((c) => pointBody(c, R, PREFS));
  const noPrefs = centres.map((c) => pointBody(c, R));
  const figures: Record<string, number> = {};

  // ---- checks, untimed
  const hits = new HitBuffer();
  let candidates = 0;
  let matches = 0;
  let geoDiff = 0;
  let turfDiff = 0;
  let oramaDiff = 0;
  const turfChecked = Math.min(CHECKED, ctx.n >= 1_000_000 ? 10 : CHECKED);
  for (let k = 0; k < CHECKED; k++) {
    const c = centres[k]!;
    const raw = base.kdbushRadius(c, R);
    const n = engine.spatial.withinRadius(c.lat, c.lon, R, hits);
    const ours = Array.from(hits.idx.subarray(0, n));
    if (!sortedEqual(ours, raw)) throw new Error(`POINT ${ctx.label}: our circle differs from raw kdbush at ${c.lat},${c.lon}: ${ours.length} vs ${raw.length}`);
    const total = engine.search(noPrefs[k], { limit: 20, now: NOW }).totalResults;
    if (total !== raw.length) throw new Error(`POINT ${ctx.label}: totalResults ${total} vs raw kdbush ${raw.length}`);
    if (!sortedEqual(base.flatbushRadius(c, R), raw)) throw new Error(`POINT ${ctx.label}: flatbush differs from raw kdbush`);
    geoDiff += symmetricDifference(base.geokdbushRadius(c, R), raw).length;
    if (k < turfChecked) turfDiff += symmetricDifference(base.turfBruteRadius(c, R), raw).length;
    candidates += raw.length;
    matches += engine.search(withPrefs[k], { limit: 20, now: NOW }).totalResults;
  }

  let a = 0;
  const next = () => a++ % centres.length;
  const tasks: Array<readonly [string, () => number]> = [
    ['ours: POINT 1 km + preferences, limit 20', () => engine.search(withPrefs[next()], { limit: 20, now: NOW }).totalResults],
    ['ours: POINT 1 km, no preferences, limit 20', () => engine.search(noPrefs[next()], { limit: 20, now: NOW }).totalResults],
    ['ours: spatial index only, withinRadius (all, unordered)', () => { const c = centres[next()]!; return engine.spatial.withinRadius(c.lat, c.lon, R, hits); }],
    ['raw kdbush range + WGS84 distance filter (all, unordered)', () => base.kdbushRadius(centres[next()]!, R).length],
    ['flatbush search + WGS84 distance filter (all, unordered)', () => base.flatbushRadius(centres[next()]!, R).length],
    ['geokdbush around, all within 1 km (sorted)', () => base.geokdbushRadius(centres[next()]!, R).length],
    ['geokdbush around, nearest 20 within 1 km', () => base.geokdbushRadius(centres[next()]!, R, 20).length],
  ];
  const timings = measure(tasks, { timeMs: ctx.timeMs, minIterations: 5, rounds: 4 });
  const live = measureLive(tasks.slice(0, 2), ctx.live);
  // Timed after the alternated rows, on its own: each call builds a million turf points that
  // outlive a young collection, and the old-generation work that follows (on the background
  // threads of a 2-core machine) would otherwise land in its neighbours' blocks.
  timings.push(...measure([['turf.distance over every venue (brute force)', () => base.turfBruteRadius(centres[next()]!, R).length]], { timeMs: ctx.timeMs, minIterations: 5 }));
  if (withOrama) {
    // Built, checked and timed last, then freed: its heap must not weigh on the other rows.
    figures['Orama build (ms)'] = base.buildOrama();
    for (let k = 0; k < turfChecked; k++) {
      const c = centres[k]!;
      oramaDiff += symmetricDifference(base.oramaRadius(c, R, 100_000).ids, base.kdbushRadius(c, R)).length;
    }
    timings.push(...measure([['Orama geosearch radius, limit 20', () => base.oramaRadius(centres[next()]!, R).count]], { timeMs: ctx.timeMs, minIterations: 5 }));
    base.dropOrama();
  }
  const checks: Record<string, string> = {
    'ours = raw kdbush = flatbush (same venues)': `${CHECKED} circles, ${candidates} venues, identical`,
    'geokdbush (spherical) differing venues': `${geoDiff} of ${candidates}`,
    'turf brute force (spherical) differing venues': `${turfDiff} in ${turfChecked} circles`,
  };
  if (withOrama) checks['Orama (haversine) differing venues'] = `${oramaDiff} in ${turfChecked} circles`;
  else checks['Orama'] = `not run at ${ctx.label} venues (build time and heap; see docs/performance.md)`;
  return {
    workload: 'POINT 1 km, central London',
    params: { venues: ctx.label, radiusMeters: R, meanVenuesInCircle: Math.round(candidates / CHECKED), meanPreferenceMatches: Math.round(matches / CHECKED) },
    timings,
    live,
    figures,
    checks,
  };
}

function weightedPoint(ctx: BenchContext): WorkloadResult {
  const { engine } = ctx;
  const base = ctx.baselines();
  const groups = weightedGroups();
  const withPrefs = groups.map((g) => groupBody(g, R, PREFS));
  const noPrefs = groups.map((g) => groupBody(g, R));
  // The weighted centre, as our search reports it, for the baseline (computed untimed).
  const centres: LatLon[] = noPrefs.map((b) => {
    const c = (engine.search(b, { limit: 1, now: NOW }) as SearchResponse).centerPoint;
    return { lat: c.Lat, lon: c.Lon };
  });
  let candidates = 0;
  for (let k = 0; k < CHECKED; k++) {
    const raw = base.kdbushRadius(centres[k]!, R);
    const total = engine.search(noPrefs[k], { limit: 20, now: NOW }).totalResults;
    if (total !== raw.length) throw new Error(`weighted POINT ${ctx.label}: totalResults ${total} vs raw kdbush ${raw.length}`);
    candidates += raw.length;
  }
  let a = 0;
  const next = () => a++ % groups.length;
  const tasks: Array<readonly [string, () => number]> = [
    ['ours: 4 weighted locations + preferences, limit 20', () => engine.search(withPrefs[next()], { limit: 20, now: NOW }).totalResults],
    ['ours: 4 weighted locations, no preferences, limit 20', () => engine.search(noPrefs[next()], { limit: 20, now: NOW }).totalResults],
    ['raw kdbush + filter around the same centre (precomputed)', () => base.kdbushRadius(centres[next()]!, R).length],
  ];
  const timings = measure(tasks, { timeMs: ctx.timeMs });
  const live = measureLive(tasks.slice(0, 2), ctx.live);
  return {
    workload: 'POINT, 4 weighted locations, 1 km',
    params: { venues: ctx.label, radiusMeters: R, meanVenuesInCircle: Math.round(candidates / CHECKED) },
    timings,
    live,
    checks: { 'totalResults = raw kdbush count around the weighted centre': `${CHECKED} groups, identical` },
  };
}

function deepPage(ctx: BenchContext): WorkloadResult {
  const { engine, venues } = ctx;
  const base = ctx.baselines();
  const centres = pointCentres();
  const bodies = centres.map((c) => pointBody(c, R));
  const lat = engine.store.lat;
  const lon = engine.store.lon;
  /** What a user writes: range + filter, sort by distance then id, slice the page. */
  const rawPage = (c: LatLon, offset: number, limit: number): number[] => {
    const ids = base.kdbushRadius(c, R);
    const d = new Map(ids.map((i) => [i, nearDistanceMeters(c.lat, c.lon, lat[i]!, lon[i]!)]));
    ids.sort((x, y) => d.get(x)! - d.get(y)! || (venues[x]!.id < venues[y]!.id ? -1 : 1));
    return ids.slice(offset, offset + limit);
  };
  let differing = 0;
  let compared = 0;
  for (let k = 0; k < CHECKED; k++) {
    const ours = engine.search(bodies[k], { limit: 20, offset: 80, now: NOW }).establishments.map((e) => e.id);
    const theirs = rawPage(centres[k]!, 80, 20).map((i) => venues[i]!.id);
    compared += theirs.length;
    for (let p = 0; p < Math.max(ours.length, theirs.length); p++) if (ours[p] !== theirs[p]) differing++;
  }
  let a = 0;
  const next = () => a++ % centres.length;
  const tasks: Array<readonly [string, () => number]> = [
    ['ours: POINT 1 km, offset 80, limit 20', () => engine.search(bodies[next()], { limit: 20, offset: 80, now: NOW }).totalResults],
    ['ours: POINT 1 km, offset 0, limit 20 (first page)', () => engine.search(bodies[next()], { limit: 20, offset: 0, now: NOW }).totalResults],
    ['kdbush + filter + sort by distance + slice(80, 100)', () => rawPage(centres[next()]!, 80, 20).length],
  ];
  const timings = measure(tasks, { timeMs: ctx.timeMs });
  const live = measureLive(tasks.slice(0, 1), ctx.live);
  return {
    workload: 'POINT 1 km, a page deep in the results',
    params: { venues: ctx.label, offset: 80, limit: 20 },
    timings,
    live,
    checks: { 'page = kdbush sorted by distance then id': `${CHECKED} pages, ${compared} slots, ${differing} differ` },
  };
}
