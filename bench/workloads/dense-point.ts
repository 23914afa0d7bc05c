/**
 * POINT on data as dense as real town centres (issue 16): the `town-centres` bench layout
 * (scripts/fixtures/bench-venues.ts: 65 % of venues in their town's centre), 1 km circles
 * within 2 km of Charing Cross, like for like:
 *   soft preferences  our complete search (validation, scoring, ranking, 20 response
 *                     records) with PREFS as soft preferences, beside kdbush range + the
 *                     exact distance filter on the same circle;
 *   hard filter       the same with vegan non-compromise, beside kdbush range + the same
 *                     caters column filter + the exact distance filter.
 * And the 100-vertex London - Manchester PATH (1 km) on the same data, ours only.
 * Checked outside the timed loops: our totalResults equals the baseline's count on every
 * circle (soft: every venue in the circle; hard: the vegan ones). Timed in alternated
 * rounds; ours also in the live regime.
 */
import KDBush from 'kdbush';
import { LocalFrame, nearDistanceMeters } from '../../src/geo/distance.js';
import { createEngine } from '../../src/engine.js';
import { catersMask } from '../../src/store/vocabulary.js';
import { gbTowns } from '../../scripts/fixtures/gb-towns.js';
import { Baselines } from '../lib/baselines.js';
import type { LiveOptions } from '../lib/measure.js';
import { benchVenues, sizeLabel } from '../lib/dataset.js';
import { measure, measureLive, timeOnce } from '../lib/measure.js';
import { NOW, PREFS, longRoute, pathBody, pointBody, pointCentres } from '../lib/queries.js';
import type { WorkloadResult } from '../lib/report.js';

const R = 1000;
/** PREFS without non-compromise fields: every venue of the circle is a result. */
export const SOFT_PREFS = { ...PREFS, nonCompromise: [] };

export function densePointWorkloads(n: number, opts: { timeMs: number; live: LiveOptions }): WorkloadResult[] {
  const gen = timeOnce(() => benchVenues(n, 'town-centres'));
  const engine = createEngine(gen.value, { validate: false }).warm();
  gen.value.length = 0;
  const store = engine.store;
  const base = new Baselines(store.lat, store.lon);
  const vegan = catersMask(['vegan']);
  const caters = store.caters;
  const { lat, lon } = store;
  const centres = pointCentres();
  const soft = centres.map((c) => pointBody(c, R, SOFT_PREFS));
  const hard = centres.map((c) => pointBody(c, R, PREFS));
  /** kdbush range, the caters column, then the same distance rule as ours, one frame per query (the cheaper order for it). */
  const kdbushHard = (c: { lat: number; lon: number }): number[] => {
    const dLat = (R / 110_574) * 1.01;
    const dLon = (R / (111_320 * Math.cos((c.lat * Math.PI) / 180))) * 1.01;
    const frame = new LocalFrame(c.lat, c.lon);
    const out: number[] = [];
    for (const i of base.kd.range(c.lon - dLon, c.lat - dLat, c.lon + dLon, c.lat + dLat)) {
      if ((caters[i]! & vegan) === vegan && frame.ruledDistance(lat[i]!, lon[i]!) <= R) out.push(i);
    }
    return out;
  };

  // ---- checks, untimed
  let inCircle = 0;
  let minCircle = Infinity;
  let maxCircle = 0;
  let hardMatches = 0;
  for (let k = 0; k < centres.length; k++) {
    const c = centres[k]!;
    const all = base.kdbushRadius(c, R).length;
    const soft20 = engine.search(soft[k], { limit: 20, now: NOW });
    if (soft20.totalResults !== all) throw new Error(`dense POINT ${sizeLabel(n)}: soft totalResults ${soft20.totalResults} vs kdbush ${all}`);
    if (soft20.establishments.length !== Math.min(20, all)) throw new Error('dense POINT: a page of 20 records expected');
    const vegans = kdbushHard(c).length;
    const hard20 = engine.search(hard[k], { limit: 20, now: NOW });
    if (hard20.totalResults !== vegans) throw new Error(`dense POINT ${sizeLabel(n)}: hard totalResults ${hard20.totalResults} vs kdbush + caters ${vegans}`);
    inCircle += all;
    hardMatches += vegans;
    minCircle = Math.min(minCircle, all);
    maxCircle = Math.max(maxCircle, all);
  }
  // Share of venues within 2 km of a town centre (any GB town of the gazetteer).
  const towns = gbTowns();
  const townTree = new KDBush(towns.length, 16, Float64Array);
  for (const t of towns) townTree.add(t.lon, t.lat);
  townTree.finish();
  let nearCentre = 0;
  for (let i = 0; i < n; i++) {
    const y = lat[i]!;
    const x = lon[i]!;
    const dLon = 2000 / (111_320 * Math.cos((y * Math.PI) / 180)) * 1.01;
    for (const t of townTree.range(x - dLon, y - 0.0182, x + dLon, y + 0.0182)) {
      if (nearDistanceMeters(y, x, towns[t]!.lat, towns[t]!.lon) <= 2000) {
        nearCentre++;
        break;
      }
    }
  }

  let a = 0;
  const next = () => a++ % centres.length;
  const softTasks: Array<readonly [string, () => number]> = [
    ['ours: POINT 1 km, soft preferences, limit 20 (complete search, 20 records)', () => engine.search(soft[next()], { limit: 20, now: NOW }).totalResults],
    ['kdbush range + exact distance filter, same circle', () => base.kdbushRadius(centres[next()]!, R).length],
  ];
  const hardTasks: Array<readonly [string, () => number]> = [
    ['ours: POINT 1 km, vegan non-compromise + soft preferences, limit 20 (complete search, 20 records)', () => engine.search(hard[next()], { limit: 20, now: NOW }).totalResults],
    ['kdbush range + caters column filter + exact distance filter, same circle', () => kdbushHard(centres[next()]!).length],
  ];
  const softTimings = measure(softTasks, { timeMs: opts.timeMs, minIterations: 5, rounds: 4 });
  const hardTimings = measure(hardTasks, { timeMs: opts.timeMs, minIterations: 5, rounds: 4 });
  const live = measureLive([softTasks[0]!, hardTasks[0]!], opts.live);
  const params = { venues: sizeLabel(n), data: 'town-centres', radiusMeters: R };
  // The long driver's route on the same data: ours only (turf runs on it with spread data).
  const routes = [0, 1, 2, 3].map((k) => pathBody(longRoute(k), 1000));
  let corridor = 0;
  for (const body of routes) corridor += engine.search(body, { limit: 20, now: NOW }).totalResults;
  let b = 0;
  const pathTask: readonly [string, () => number] = ['ours: PATH 1000 m either side, limit 20', () => engine.search(routes[b++ % routes.length], { limit: 20, now: NOW }).totalResults];
  const pathSteady = measure([pathTask], { timeMs: opts.timeMs, minIterations: 5 });
  const pathLive = measureLive([pathTask], opts.live);
  const data = {
    'venues within 2 km of a town centre (%)': (100 * nearCentre) / n,
    'venues in a 1 km circle: mean': Math.round(inCircle / centres.length),
    'venues in a 1 km circle: min': minCircle,
    'venues in a 1 km circle: max': maxCircle,
  };
  return [
    {
      workload: 'POINT 1 km, town-centre data, soft preferences',
      params: { ...params, meanVenuesInCircle: Math.round(inCircle / centres.length) },
      timings: softTimings,
      live: [live[0]!],
      figures: data,
      checks: { 'totalResults = kdbush + distance count': `${centres.length} circles, identical; 20 records each` },
    },
    {
      workload: 'POINT 1 km, town-centre data, hard filter',
      params: { ...params, meanMatches: Math.round(hardMatches / centres.length) },
      timings: hardTimings,
      live: [live[1]!],
      checks: { 'totalResults = kdbush + caters + distance count': `${centres.length} circles, identical` },
    },
    {
      workload: 'PATH London - Manchester, 100 vertices, 1 km, town-centre data',
      params: { venues: sizeLabel(n), data: 'town-centres', halfWidthMeters: 1000, meanVenuesInCorridor: Math.round(corridor / routes.length) },
      timings: pathSteady,
      live: pathLive,
    },
  ];
}
