/**
 * Live-data benchmark (issue 17), runnable alone:
 *   npm run bench:live [-- --size 1m] [-- --quick] [-- --time-ms 2000] [-- --only upsert|search|compaction] [-- --out NAME.json]
 * On the seeded bench venues (BENCH_SEED, default 1M):
 * 1. upsert of 1,000 venues (500 replacements, 500 new): median and p99 over 30 batches
 *    while the pending changes grow from 0 to 30,000, and over 10 batches at ~50,000;
 * 2. search with 50,000 pending changes (20,000 replaced, 25,000 new, 5,000 removed) against
 *    the same engine compacted (a twin after `compact()`; and an engine rebuilt from scratch
 *    over the current records, for reference): POINT 1 km with preferences, POINT 1 km
 *    without, PATH city route 100 m; alternated rounds, median and p99; answers checked
 *    equal outside the timing;
 * 3. compaction off the query path: LiveVenues (as `serve --admin-token-file` runs it) over a
 *    snapshot of the base and a change log of the 50,000 changes; a worker builds the new
 *    base while the main thread keeps searching; reported: the compaction's wall time, the
 *    worker's build time, the swap on the main thread, and the largest gap between two
 *    consecutive searches of the query loop (the largest query stall) beside its median.
 * Writes bench/results/live-<size>.json (or `--out`'s name there).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generateBenchVenues } from '../scripts/fixtures/bench-venues.js';
import { seededRandom } from '../scripts/fixtures/random.js';
import { ChangeLog } from '../src/changelog/change-log.js';
import { LiveVenues } from '../src/changelog/live-venues.js';
import { createEngine } from '../src/engine.js';
import type { VenueRecord } from '../src/schema/venue.js';
import { readSnapshot } from '../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../src/snapshot/write-snapshot.js';
import { BENCH_SEED, parseSize, sizeLabel } from './lib/dataset.js';
import { collectGarbage, measure, median, sink, type Timing } from './lib/measure.js';
import { cityRoutes, NOW, pathBody, pointBody, pointCentres, PREFS } from './lib/queries.js';
import { repoPath } from './lib/paths.js';
import { machine } from './lib/report.js';

const { values } = parseArgs({ options: { size: { type: 'string' }, quick: { type: 'boolean', default: false }, only: { type: 'string' }, 'time-ms': { type: 'string' }, out: { type: 'string' } } });
/** `--only upsert|search|compaction`: run one part (iterating on it; the JSON then holds that part only). */
const only = values.only;
if (only !== undefined && !['upsert', 'search', 'compaction'].includes(only)) throw new Error(`--only ${only}: expected upsert, search or compaction`);
const runs = (part: string) => only === undefined || only === part;
const n = parseSize(values.size ?? (values.quick ? '100k' : '1m'));
/** Per task and round of the search comparison (`--time-ms`; the full run passes its own). */
const timeMs = values['time-ms'] !== undefined ? Number(values['time-ms']) : values.quick ? 400 : 2000;
const log = (s: string) => process.stderr.write(`${s}\n`);

let nextId = 0;
/** A changed copy of `r` (moved a little, renamed, other caters), under `id`. */
function changed(r: VenueRecord, id: string, k: number): VenueRecord {
  const [lat, lon] = r.location.coordinates;
  return {
    ...r,
    id,
    name: `${r.name} ${k % 7 === 0 ? 'Tap' : 'House'}`,
    location: { type: 'Point', coordinates: [lat + ((k % 13) - 6) * 1e-4, lon + ((k % 11) - 5) * 1e-4] },
    catersFlags: k % 3 === 0 ? ['vegan'] : [],
  };
}

/** 1,000 changes: 500 replacements of random base venues, 500 new venues near others. */
function upsertBatch(base: readonly VenueRecord[], rnd: () => number, size = 1000): VenueRecord[] {
  const out: VenueRecord[] = [];
  const used = new Set<string>();
  while (out.length < size) {
    const r = base[Math.floor(rnd() * base.length)]!;
    if (out.length % 2 === 0) {
      if (used.has(r.id)) continue;
      used.add(r.id);
      out.push(changed(r, r.id, out.length));
    } else out.push(changed(r, `live-${nextId++}`, out.length));
  }
  return out;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))]!;
};

log(`live bench: ${sizeLabel(n)} venues (seed ${BENCH_SEED})${only !== undefined ? `, only ${only}` : ''}`);
let venues = generateBenchVenues(n, BENCH_SEED);
const rnd = seededRandom(17);
type Change = { op: 'upsert'; records: VenueRecord[] } | { op: 'remove'; ids: string[] };

/** 1. upsert of 1,000 (pending changes growing from 0 to ~30,000, then at ~50,000). */
function upsertPart() {
  const engine = createEngine(venues, { validate: false }).warm();
  const upsertMs: number[] = [];
  for (let b = 0; b < 30; b++) {
    const batch = upsertBatch(venues, rnd);
    const t0 = performance.now();
    engine.upsert(batch);
    upsertMs.push(performance.now() - t0);
  }
  while (engine.pendingChanges < 50_000) engine.upsert(upsertBatch(venues, rnd));
  const upsertAt50kMs: number[] = [];
  for (let b = 0; b < 10; b++) {
    const batch = upsertBatch(venues, rnd);
    const t0 = performance.now();
    engine.upsert(batch);
    upsertAt50kMs.push(performance.now() - t0);
  }
  // The first upsert after a compaction sets the live state up again, over the new base (a
  // service pays it once per compaction cycle, on the thread that serves queries).
  engine.compact();
  const batch = upsertBatch(venues, rnd);
  const t0 = performance.now();
  engine.upsert(batch);
  const firstAfterCompactionMs = performance.now() - t0;
  const firstUpsertMs = upsertMs[0]!;
  log(`upsert 1,000: first ${firstUpsertMs.toFixed(1)} ms (sets up the live state: the base's term and vibe counts, the tombstones), median ${median(upsertMs.slice(1)).toFixed(2)} ms, p99 ${quantile(upsertMs.slice(1), 0.99).toFixed(2)} ms; at ~50k pending median ${median(upsertAt50kMs).toFixed(2)} ms; first after a compaction ${firstAfterCompactionMs.toFixed(1)} ms`);
  return {
    firstMs: firstUpsertMs,
    firstAfterCompactionMs,
    medianMs: median(upsertMs.slice(1)),
    p99Ms: quantile(upsertMs.slice(1), 0.99),
    pendingRange: '1,000 to 30,000',
    at50kPendingMedianMs: median(upsertAt50kMs),
  };
}

/** The 50,000 changes of parts 2 and 3: 45 batches of 1,000 upserts, then 5,000 removals of distinct base venues. */
function pendingChanges(): Change[] {
  const changes: Change[] = [];
  for (let b = 0; b < 45; b++) changes.push({ op: 'upsert', records: upsertBatch(venues, rnd) });
  const removeIds = new Set<string>();
  while (removeIds.size < 5000) removeIds.add(venues[Math.floor(rnd() * venues.length)]!.id);
  changes.push({ op: 'remove', ids: [...removeIds] });
  return changes;
}

const centres = pointCentres();
const routes = cityRoutes();
const bodies = {
  pointPrefs: centres.map((c) => pointBody(c, 1000, PREFS)),
  point: centres.map((c) => pointBody(c, 1000)),
  path: routes.map((r) => pathBody(r, 100)),
};

/**
 * 2. search with 50,000 pending changes against the same engine compacted: a twin of the
 * live engine (same base, same changes) after `compact()`, which is what a service searches
 * once it compacted; and, for reference, an engine built from scratch over the current
 * records (the two search alike; they did not while the fold left the kd-tree's leaves
 * unsorted, docs/updates.md).
 */
function searchPart(changes: readonly Change[]) {
  const withChanges = () => {
    const e = createEngine(venues, { validate: false }).warm();
    for (const c of changes) {
      if (c.op === 'upsert') e.upsert(c.records);
      else e.remove(c.ids);
    }
    return e;
  };
  const engine = withChanges();
  const pending = engine.pendingChanges;
  const compacted = withChanges().compact().warm();
  const rebuilt = createEngine([...engine.currentRecords()], { validate: false }).warm();
  for (const [name, list] of Object.entries(bodies)) {
    for (let k = 0; k < 20; k++) {
      const a = JSON.stringify(engine.search(list[k], { now: NOW, limit: 20 }));
      for (const [other, e] of [['compacted', compacted], ['rebuilt', rebuilt]] as const) {
        if (JSON.stringify(e.search(list[k], { now: NOW, limit: 20 })) !== a) throw new Error(`live bench: ${name} query ${k} differs between the live and the ${other} engine`);
      }
    }
  }
  const searchRows: Array<{ workload: string; live: Timing; compacted: Timing; rebuilt: Timing; ratio: number }> = [];
  for (const [name, list] of Object.entries(bodies)) {
    const next = [0, 0, 0];
    const [live, comp, reb] = measure(
      ([['live', engine], ['compacted', compacted], ['rebuilt', rebuilt]] as const).map(([label, e], k) => [`${name} ${label}`, () => e.search(list[next[k]!++ % list.length], { now: NOW, limit: 20 }).totalResults] as const),
      { timeMs, rounds: 4 },
    );
    searchRows.push({ workload: name, live: live!, compacted: comp!, rebuilt: reb!, ratio: live!.medianUs / comp!.medianUs });
    log(`search ${name}: live ${live!.medianUs.toFixed(1)} us (p99 ${live!.p99Us.toFixed(1)}), compacted ${comp!.medianUs.toFixed(1)} us (p99 ${comp!.p99Us.toFixed(1)}): ${(live!.medianUs / comp!.medianUs).toFixed(3)}x; rebuilt from scratch ${reb!.medianUs.toFixed(1)} us (${(live!.medianUs / reb!.medianUs).toFixed(3)}x)`);
  }
  return {
    pending,
    rows: searchRows.map((r) => ({
      workload: r.workload,
      liveMedianUs: r.live.medianUs,
      liveP99Us: r.live.p99Us,
      compactedMedianUs: r.compacted.medianUs,
      compactedP99Us: r.compacted.p99Us,
      ratio: r.ratio,
      rebuiltMedianUs: r.rebuilt.medianUs,
      ratioToRebuilt: r.live.medianUs / r.rebuilt.medianUs,
    })),
  };
}

const upsert1000 = runs('upsert') ? upsertPart() : undefined;
let changes = pendingChanges();
const searchWithPending = runs('search') ? searchPart(changes) : undefined;

/** How long the compaction part's query loop serves before the compaction starts (unmeasured), ms. */
const SERVING_BEFORE_MS = 3000;

/** Searches the compaction's query loop can time (it runs ~100,000 in 15 s at 1M venues). */
const SEARCH_TIMES_CAPACITY = 4_000_000;

/** 3. compaction off the query path. */
async function compactionPart(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'live-bench-'));
  let compaction: Record<string, number>;
  try {
    const basePath = join(dir, 'base.input.snapshot');
    writeSnapshot(createEngine(venues, { validate: false }), basePath);
    const liveDir = join(dir, 'live');
    mkdirSync(liveDir);
    const { log: changeLog } = await ChangeLog.open(join(liveDir, 'changes.log'));
    for (const c of changes) await changeLog.append(c);
    await changeLog.close();
    // Free the records, changes and engines of parts 1 and 2: the service process holds only its own
    // (a large unrelated heap would lengthen the collector's pauses measured below).
    const loggedChanges = changes.reduce((n, c) => n + (c.op === 'upsert' ? c.records.length : c.ids.length), 0);
    venues = [];
    changes = [];
    collectGarbage();
    const live = await LiveVenues.open({ dataPath: basePath, dir: liveDir, compactAfter: 0, load: async (p) => readSnapshot(p) });
    live.engine.warm();
    // A service compacts long after it started: its compaction worker has loaded the base by
    // then, and applied each batch once it was logged (in the background, beside queries).
    // Measured here, apart: the worker applies the log's batches after loading the base.
    const workerStart = await live.compactorReady;
    const workerLoadMs = workerStart.loadMs;
    log(`compaction worker: base loaded in ${(workerLoadMs / 1000).toFixed(2)} s (once, at start); then the log's ${workerStart.entries} batches (${loggedChanges} changes) applied in ${(workerStart.logMs / 1000).toFixed(2)} s (as a service applies them once logged)`);
    const qs = bodies.point;
    for (let k = 0; k < 200; k++) live.engine.search(qs[k % qs.length], { now: NOW, limit: 20 });
    // A query loop on the main thread: each search, then yield (setImmediate). The largest
    // gap between two searches is the largest stall a query could see; measured for as long
    // without a compaction first (the machine's own noise: other processes, GC), then during one.
    // Each search's time in a typed array (off the JS heap: a growing array would be copied
    // by the young-generation collections these loops measure), allocated once, before the
    // first loop, and reused by each. Allocated at each loop's start until 2026-11-28, its
    // 32 MB, counted as external memory, made V8 collect within the window being measured:
    // the loop without a compaction then had a largest gap of 2.4 to 3.0 ms at 1M, and 0.7
    // to 2.3 ms since (default flags, 6 runs).
    const searchTimesBuffer = new Float64Array(SEARCH_TIMES_CAPACITY);
    const loopWhile = async <T>(during: () => Promise<T>) => {
      // The main thread's garbage-collection pauses meanwhile (kind as perf_hooks.constants numbers it: 1 minor (scavenge), 4 major (mark-compact), 8 incremental marking, 16 weak callbacks).
      const gcs: Array<[number, number, number]> = [];
      const gcObserver = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) gcs.push([e.startTime, e.duration, ((e as { detail?: { kind?: number } }).detail?.kind ?? 0)]);
      });
      gcObserver.observe({ entryTypes: ['gc'] });
      const searchTimes = searchTimesBuffer;
      let searches = 0;
      const events: Array<[number, number]> = [];
      let maxGap = 0;
      let maxSearch = 0;
      let last = performance.now();
      let running = true;
      let q = 0;
      const loop = () => {
        if (!running) return;
        const t0 = performance.now();
        maxGap = Math.max(maxGap, t0 - last);
        if (t0 - last > 3) events.push([last, t0 - last]);
        sink.value += live.engine.search(qs[q++ % qs.length], { now: NOW, limit: 20 }).totalResults;
        last = performance.now();
        if (searches < SEARCH_TIMES_CAPACITY) searchTimes[searches++] = last - t0;
        maxSearch = Math.max(maxSearch, last - t0);
        if (last - t0 > 3) events.push([t0, -(last - t0)]);
        setImmediate(loop);
      };
      setImmediate(loop);
      const value = await during();
      running = false;
      gcObserver.disconnect();
      if (searches === SEARCH_TIMES_CAPACITY) throw new Error(`the query loop ran more than ${SEARCH_TIMES_CAPACITY} searches: raise SEARCH_TIMES_CAPACITY`);
      return { value, searchMs: Array.from(searchTimes.subarray(0, searches)), maxGap, maxSearch, events, gcs };
    };
    const pendingBefore = live.engine.pendingChanges;
    // The same loop first runs unmeasured for a while, as a service serves queries long
    // before it compacts: the start-up's garbage (the log's 46 batches replayed by
    // LiveVenues.open, ~70 MB at 1M) is collected then, in the course of things. Measured
    // right after the start-up, a major collection of it landed ~40 ms into the compaction
    // (pauses of 5 to 11 ms); after a forced full collection instead, V8 began another major
    // collection at once, which landed there too (pauses of 5 to 16 ms).
    await loopWhile(() => new Promise((res) => setTimeout(res, SERVING_BEFORE_MS)));
    const t0 = performance.now();
    const during = await loopWhile(async () => {
      const r = await live.compact();
      // Keep querying a little after the swap (the old base's garbage is collected then).
      await new Promise((res) => setTimeout(res, 1500));
      return r;
    });
    const duringMs = performance.now() - t0;
    const quiet = await loopWhile(() => new Promise((res) => setTimeout(res, duringMs)));
    const report = during.value;
    const searchMs = during.searchMs;
    const maxGap = during.maxGap;
    compaction = {
      pendingBefore,
      workerLoadMs,
      workerLogApplyMs: workerStart.logMs,
      workerLogEntries: workerStart.entries,
      venues: report.venues,
      totalMs: report.totalMs,
      workerBuildMs: report.buildMs,
      swapMs: report.swapMs,
      queries: searchMs.length,
      queryMedianMs: median(searchMs),
      largestQueryStallMs: maxGap,
      largestSearchMs: during.maxSearch,
      largestMainGcPauseMs: Math.max(0, ...during.gcs.map(([, ms]) => ms)),
      quietLargestMainGcPauseMs: Math.max(0, ...quiet.gcs.map(([, ms]) => ms)),
      quietLargestGapMs: quiet.maxGap,
      quietLargestSearchMs: quiet.maxSearch,
      quietQueryMedianMs: median(quiet.searchMs),
      ...Object.fromEntries(Object.entries(report.phases).map(([k, v]) => [`phase.${k}`, v])),
    };
    log(`compaction phases (ms): ${Object.entries(report.phases).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
    log(`slow events during (over 3 ms; gap > 0, search < 0; ms after start): ${during.events.map(([at, ms]) => `${(at - t0).toFixed(0)}:${ms.toFixed(1)}`).join(' ')}`);
    log(`main-thread GC pauses > 2 ms during (at:ms:kind): ${during.gcs.filter(([, ms]) => ms > 2).map(([at, ms, kind]) => `${(at - t0).toFixed(0)}:${ms.toFixed(1)}:${kind}`).join(' ')}`);
    log(`compaction: ${report.venues} venues, ${(report.totalMs / 1000).toFixed(2)} s wall (worker ${(report.buildMs / 1000).toFixed(2)} s), swap ${report.swapMs.toFixed(1)} ms; ${searchMs.length} searches meanwhile, median ${median(searchMs).toFixed(3)} ms, largest stall ${maxGap.toFixed(1)} ms, largest search ${during.maxSearch.toFixed(1)} ms (the same loop without a compaction: largest gap ${quiet.maxGap.toFixed(1)} ms, search ${quiet.maxSearch.toFixed(1)} ms)`);
    await live.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return compaction;
}
const compaction = runs('compaction') ? await compactionPart() : undefined;

const result = {
  label: `live-${sizeLabel(n)}`,
  date: new Date().toISOString(),
  machine: machine(),
  venues: n,
  ...(only !== undefined ? { only } : {}),
  upsert1000,
  searchWithPending,
  compaction,
  sink: sink.value,
};
const resultsDir = repoPath('bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const outFile = join(resultsDir, values.out ?? `live-${sizeLabel(n)}.json`);
writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${outFile}`);
