import { createEngineFromFile } from '../../src/data/read-engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine, type Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { Baselines } from './baselines.js';
import { benchVenueFile, benchVenueFilePath, benchVenues, sizeLabel } from './dataset.js';
import { PARSE_FLOOR_DROPPED, PARSE_FLOOR_KEPT, parseFloor } from './parse-floor.js';
import { collectGarbage, timeOnce, timeOnceAsync, type LiveOptions } from './measure.js';
import type { WorkloadResult } from './report.js';
import { SERVE_START_FIGURE, SERVE_START_HUGE_FIGURE } from './serve-start.js';
import { snapshotFigures } from './snapshot-load.js';

function progress(s: string): void {
  process.stdout.write(`  ${s}\n`);
}

/** The live regime's full collection comes before every LIVE_GC_EVERY-th call (1 % of calls). */
export const LIVE_GC_EVERY = 100;

/** One dataset size, loaded once and shared by every workload at that size. */
export interface BenchContext {
  readonly n: number;
  readonly label: string;
  /**
   * The venues in the engine's dense order (`engine.store.records`: the engine numbers venues
   * in kd-tree order), so an index from the engine's spatial queries or the baselines (built
   * over `engine.store.lat/lon`) names the same venue here. Decoded afresh from the engine's
   * compact records on every read and not kept: a service holds no such array, and 1M
   * decoded records (about 520 MB of JavaScript heap) would lengthen every full collection
   * of the live regime and the background sweeping after it. Read it into a workload's
   * local, after that workload's live measurement.
   */
  readonly venues: readonly VenueRecord[];
  /** Built and warmed (search and find structures ready). */
  readonly engine: Engine;
  /** tinybench time budget per task, ms. */
  readonly timeMs: number;
  readonly quick: boolean;
  /** The live regime's parameters (measureLive). */
  readonly live: LiveOptions;
  /** Baseline indexes over the same coordinates, built at first use. */
  baselines(): Baselines;
}

/** The runs of createEngineFromFile, by threads: each count twice, in alternated order (figures: the mean of the two). */
const FROM_FILE_THREAD_ORDER = [2, 1, 1, 2] as const;

/**
 * Loads the `n` bench venues and builds the engine. `fromFile`: read and validate the NDJSON
 * file (written once into .tmp/bench/), timing read, build and warm-up: the "load + build"
 * workload. Otherwise the venues are generated in memory (scaling-only sizes).
 */
export async function loadContext(n: number, opts: { fromFile: boolean; timeMs: number; quick: boolean }): Promise<{ ctx: BenchContext; result: WorkloadResult }> {
  let venues: VenueRecord[];
  let readMs = Number.NaN;
  const readByThreads: Record<number, number> = {};
  const fromFileByThreads: Record<number, number> = {};
  /** The parse floor (parse-floor.ts): JSON.parse of every line alone, the objects dropped and kept. */
  const floorMs = { dropped: Number.NaN, kept: Number.NaN };
  let file = 'generated in memory';
  if (opts.fromFile) {
    const path = await benchVenueFile(n);
    file = 'NDJSON';
    // createEngineFromFile (read + validate + build, never holding the records as objects) at
    // 2, 1, 1 and 2 threads, the engines dropped (each figure the mean of its two runs: one run
    // of ~5 s moved by +-0.35 s between full runs, and the first in a process may pay for fresh
    // memory, dear on this machine: docs/performance.md); then readVenues at 2 threads (the
    // venues dropped), then with its default, 1 thread (the venues kept); each after a full
    // collection.
    for (const threads of FROM_FILE_THREAD_ORDER) {
      collectGarbage();
      const ms = (await timeOnceAsync(() => createEngineFromFile(path, { threads }))).ms;
      fromFileByThreads[threads] = (fromFileByThreads[threads] ?? 0) + ms / 2;
      progress(`createEngineFromFile (read + validate + build) at ${threads} thread${threads > 1 ? 's' : ''} in ${(ms / 1000).toFixed(1)} s`);
    }
    collectGarbage();
    readByThreads[2] = (await timeOnceAsync(() => readVenues(path, { threads: 2 }))).ms;
    progress(`read + validated at 2 threads in ${(readByThreads[2]! / 1000).toFixed(1)} s`);
    // The floor under both: the same lines given to JSON.parse alone, dropped, then kept.
    for (const keep of [false, true]) {
      collectGarbage();
      const floor = await timeOnceAsync(() => parseFloor(path, keep));
      if (floor.value !== n) throw new Error(`parse floor: ${floor.value} lines parsed of ${n}`);
      floorMs[keep ? 'kept' : 'dropped'] = floor.ms;
      progress(`JSON.parse of every line alone, objects ${keep ? 'kept' : 'dropped'}, in ${(floor.ms / 1000).toFixed(1)} s`);
    }
    collectGarbage();
    const read = await timeOnceAsync(() => readVenues(path));
    venues = read.value.venues;
    readMs = read.ms;
    readByThreads[1] = readMs;
  } else {
    const gen = timeOnce(() => benchVenues(n));
    venues = gen.value;
    progress(`generated in ${(gen.ms / 1000).toFixed(1)} s`);
  }
  if (opts.fromFile) progress(`read + validated in ${(readMs / 1000).toFixed(1)} s (1 thread, the default)`);
  const build = timeOnce(() => createEngine(venues, { validate: false }));
  const engine = build.value;
  // Let the caller's records go, as a service does once its engine is built (the engine keeps
  // its own compact copy). `venues` is captured by the build closure above, so without this
  // the closure's context (kept by `baselines` below) would hold them for every workload at
  // this size: at 1M, about 880 MB of objects for each full collection to mark.
  venues = [];
  progress(`engine built in ${(build.ms / 1000).toFixed(1)} s`);
  const warm = timeOnce(() => engine.warm());
  progress(`warmed in ${(warm.ms / 1000).toFixed(1)} s`);
  let baselines: Baselines | null = null;
  const ctx: BenchContext = {
    n,
    label: sizeLabel(n),
    get venues() {
      return [...engine.store.records];
    },
    engine,
    timeMs: opts.timeMs,
    quick: opts.quick,
    live: { calls: opts.quick ? 400 : 1000, gcEvery: LIVE_GC_EVERY },
    baselines: () => (baselines ??= new Baselines(engine.store.lat, engine.store.lon)),
  };
  const figures: Record<string, number> = {};
  if (opts.fromFile) {
    figures['read + validate NDJSON (ms)'] = readMs;
    figures['read + validate NDJSON, 1 thread (ms)'] = readByThreads[1]!;
    figures['read + validate NDJSON, 2 threads (ms)'] = readByThreads[2]!;
    figures['createEngineFromFile: read + validate + build NDJSON, 1 thread (ms)'] = fromFileByThreads[1]!;
    figures['createEngineFromFile: read + validate + build NDJSON, 2 threads (ms)'] = fromFileByThreads[2]!;
    figures[PARSE_FLOOR_DROPPED] = floorMs.dropped;
    figures[PARSE_FLOOR_KEPT] = floorMs.kept;
  }
  figures['build store + spatial index (ms)'] = build.ms;
  if (opts.fromFile) figures['load + build total (ms)'] = readMs + build.ms;
  figures['warm: search + find structures (ms)'] = warm.ms;
  figures['search-path bytes per venue (store columns + index)'] = engine.searchPathBytes / n;
  if (opts.fromFile) {
    const snap = await snapshotFigures(engine, benchVenueFilePath(n).replace(/\.ndjson$/, '.vsnap'), opts.quick ? 1 : 3);
    progress(`snapshot written in ${(snap.writeMs / 1000).toFixed(1)} s, loaded in a fresh process in ${(snap.loadMs / 1000).toFixed(2)} s`);
    figures['snapshot: write, once (ms)'] = snap.writeMs;
    figures['snapshot: load, fresh process (ms)'] = snap.loadMs;
    figures['snapshot: load + first POINT search (ms)'] = snap.loadAndFirstSearchMs;
    figures['snapshot: restart, spawn -> first answer (ms)'] = snap.spawnToAnswerMs;
    figures['snapshot: fresh process, start -> a search and a find answered (ms)'] = snap.startToSearchAndFindMs;
    figures[SERVE_START_FIGURE] = snap.serveSpawnToFindAndSearchMs;
    if (!Number.isNaN(snap.serveWithHugePagesSpawnToFindAndSearchMs)) figures[SERVE_START_HUGE_FIGURE] = snap.serveWithHugePagesSpawnToFindAndSearchMs;
    for (const [phase, at] of Object.entries(snap.servePhases)) figures[`snapshot: serve --workers 1, child's ${phase} at (ms since its start)`] = at;
    figures['snapshot: file size (MB)'] = snap.fileMegabytes;
    figures['snapshot: searches checked equal to the records engine'] = snap.checkedSearches;
  }
  return { ctx, result: { workload: 'load + build', params: { venues: ctx.label, source: file }, timings: [], figures } };
}
