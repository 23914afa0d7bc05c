import type { Timing } from './measure.js';
import { CHILD_BUILD, CHILD_HUGE_BUILD, HUGE_PAGES_SETTING } from './huge-pages.js';
import { SERVE_START_FIGURE, SERVE_START_HUGE_FIGURE } from './serve-start.js';
import { PARSE_FLOOR_DROPPED, PARSE_FLOOR_KEPT } from './parse-floor.js';
import { LIVE_FIGURES, LIVE_SEARCHES } from './live-figures.js';
import type { WorkloadResult } from './report.js';

/** One goal of issues 2, 4, 5, 6, 15, 16, 17 and 18, with the figure measured in this run. */
export interface GoalStatus {
  readonly issue: number;
  readonly goal: string;
  /** How it was measured: the regime (steady, alternated rounds; live; one-off) and the data. */
  readonly regime: string;
  readonly measured: string;
  /** null when the run did not include the workload. */
  readonly met: boolean | null;
}

const ms = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`);
const s = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`;

/** Names of the workloads the goals read (the workloads' own `workload` strings). */
export const W = {
  load: 'load + build',
  coldStart: 'cold start from the data file',
  point: 'POINT 1 km, central London',
  city: 'PATH 10 km / 200 m, through London',
  intercity: 'PATH 290 km / 1 km, London - Manchester',
  long: 'PATH London - Manchester, 100 vertices, 1 km',
  longDense: 'PATH London - Manchester, 100 vertices, 1 km, town-centre data',
  findNoCentre: 'find by partial name, no centre',
  findCentre: 'find by partial name, 5 km centre',
  denseSoft: 'POINT 1 km, town-centre data, soft preferences',
  denseHard: 'POINT 1 km, town-centre data, hard filter',
  deopt: 'deopt check: search and find, a full collection before each call',
  fair: 'fair meeting point, 4 people over London',
  http: 'HTTP load, loopback',
  live: 'live data: upserts, search with changes pending, compaction',
  sharedEngines: 'Memory per worker: engine threads over one shared snapshot',
} as const;

const STEADY = 'steady, alternated rounds';
const SPREAD = 'spread data';
const DENSE = 'town-centre data';

/**
 * The stall of the same compaction with the node flag docs/updates.md advises on two cores:
 * `--single-threaded-gc` in runs from 2026-11-28 12:00 UTC on, `--v8-pool-size=1` before.
 */
function advisedFlagStall(lf: Readonly<Record<string, number>>): string {
  const own = lf[LIVE_FIGURES.largestStallSingleThreadedGc];
  if (own !== undefined) return `with node --single-threaded-gc: ${own.toFixed(1)} ms`;
  return `with node --v8-pool-size=1: ${(lf[LIVE_FIGURES.largestStallOnePool] ?? Number.NaN).toFixed(1)} ms`;
}

/**
 * The goals stated in issues 2, 4, 5, 6, 15, 16, 17 and 18, checked against the workloads at
 * `size` venues (the goals are stated for 1M generated venues; the live-data and
 * memory-per-worker workloads state their own size). Each names its regime and data.
 */
export function evaluateGoals(results: readonly WorkloadResult[], size: string): GoalStatus[] {
  const at = (name: string) => results.find((r) => r.workload === name && (r.params.venues === size || name.startsWith('HTTP')));
  const row = (r: WorkloadResult | undefined, task: string): Timing | undefined => r?.timings.find((t) => t.name.startsWith(task));
  const liveRow = (r: WorkloadResult | undefined): Timing | undefined => r?.live?.[0];
  const median = (r: WorkloadResult | undefined, task: string) => row(r, task)?.medianUs;
  const out: GoalStatus[] = [];
  const push = (issue: number, goal: string, regime: string, value: number | undefined, test: (v: number) => boolean, show: (v: number) => string) =>
    out.push({ issue, goal, regime, measured: value === undefined ? 'not run' : show(value), met: value === undefined ? null : test(value) });
  const ratio = (r: WorkloadResult | undefined, oursTask: string, theirsTask: string) => {
    const o = median(r, oursTask);
    const t = median(r, theirsTask);
    return o !== undefined && t !== undefined ? { v: t / o, text: (v: number) => `${v.toFixed(2)}x (ours ${ms(o)}, baseline ${ms(t)})` } : undefined;
  };

  const load = at(W.load);
  const f = load?.figures ?? {};
  push(
    2,
    `load + build of ${size} venues under 2 s (from a snapshot)`,
    `one-off, fresh process; ${SPREAD}`,
    f['snapshot: load + first POINT search (ms)'],
    (v) => v < 2000,
    (v) => `${s(v)} to load a snapshot and answer the first search`,
  );
  push(2, 'search-path store + index under 150 bytes per venue', `one-off; ${SPREAD}`, f['search-path bytes per venue (store columns + index)'], (v) => v < 150, (v) => `${v.toFixed(1)} B`);
  // Runs since the huge-pages child (bench/lib/huge-pages.ts) also name the cold start's fresh-process builds.
  const child = at(W.coldStart)?.figures ?? {};
  const withFreshBuilds = (v: number) =>
    child[CHILD_HUGE_BUILD] === undefined || child[CHILD_BUILD] === undefined
      ? s(v)
      : `${s(v)} (first build in a fresh process, after readVenues: ${s(child[CHILD_BUILD]!)}; the same with huge pages, ${HUGE_PAGES_SETTING}: ${s(child[CHILD_HUGE_BUILD]!)})`;
  push(16, 'createEngine from records: at most 1.5 s', `one-off, in the bench process, one thread (the engine is synchronous: the same figure at 1 and 2 threads); ${SPREAD}`, f['build store + spatial index (ms)'], (v) => v <= 1500, withFreshBuilds);
  // Runs since the parse floor (bench/lib/parse-floor.ts) also name it: JSON.parse of the same lines alone.
  const withFloor = (figure: string) => (v: number) => (f[figure] === undefined ? s(v) : `${s(v)} (floor, JSON.parse of the same lines alone, objects ${figure === PARSE_FLOOR_KEPT ? 'kept' : 'dropped'}: ${s(f[figure]!)})`);
  push(16, 'readVenues of NDJSON, validated (default: 1 thread): at most 5 s', `one-off, in the bench process, after a full collection; ${SPREAD}`, f['read + validate NDJSON (ms)'], (v) => v <= 5000, withFloor(PARSE_FLOOR_KEPT));
  push(16, 'readVenues of NDJSON, validated, 2 threads (a worker validates while the reader parses): at most 5 s', `one-off, in the bench process, after a full collection; ${SPREAD}`, f['read + validate NDJSON, 2 threads (ms)'], (v) => v <= 5000, withFloor(PARSE_FLOOR_KEPT));
  const fromFile = 'createEngineFromFile: read + validate + build NDJSON';
  push(16, 'createEngineFromFile of NDJSON (read, validated, and the engine built; the records never kept as objects), 1 thread: at most 5 s', `mean of two runs in the bench process (threads 2, 1, 1, 2), each after a full collection; ${SPREAD}`, f[`${fromFile}, 1 thread (ms)`], (v) => v <= 5000, withFloor(PARSE_FLOOR_DROPPED));
  push(16, 'createEngineFromFile of NDJSON, 2 threads (a worker parses, validates and encodes blocks of lines while the reader encodes others and builds): at most 5 s', `mean of two runs in the bench process (threads 2, 1, 1, 2), each after a full collection; ${SPREAD}`, f[`${fromFile}, 2 threads (ms)`], (v) => v <= 5000, withFloor(PARSE_FLOOR_DROPPED));
  push(16, 'writeSnapshot: at most 3 s', `one-off; ${SPREAD}`, f['snapshot: write, once (ms)'], (v) => v <= 3000, s);
  // Runs before the serve figure existed measured readSnapshot in a bare child instead.
  if (f[SERVE_START_FIGURE] !== undefined) {
    const withHugeStart = (v: number) => (f[SERVE_START_HUGE_FIGURE] === undefined ? s(v) : `${s(v)} (with huge pages, ${HUGE_PAGES_SETTING}: ${s(f[SERVE_START_HUGE_FIGURE]!)})`);
    push(16, 'from spawning `venue-search serve` on a snapshot to answering a find and a search: at most 1 s', `one-off, fresh process: \`serve --data <snapshot> --workers 1 --dev\` spawned, polled over HTTP until GET /v1/find and POST /v1/search/ answer; ${SPREAD}`, f[SERVE_START_FIGURE], (v) => v <= 1000, withHugeStart);
  } else {
    push(16, 'from spawning a process on a snapshot to answering a find and a search: at most 1 s', `one-off, fresh process (readSnapshot, search, find; not through the HTTP serve command); ${SPREAD}`, f['snapshot: fresh process, start -> a search and a find answered (ms)'], (v) => v <= 1000, s);
  }

  const point = at(W.point);
  const prefs = median(point, 'ours: POINT 1 km + preferences');
  const kd = median(point, 'raw kdbush');
  push(4, 'POINT 1 km + preferences, limit 20: median under 0.2 ms', `${STEADY}; ${SPREAD}`, prefs, (v) => v < 200, ms);
  push(4, 'POINT 1 km + preferences (vegan hard) no slower than raw kdbush + distance filter (not like for like: the hard filter drops venues before they are measured)', `${STEADY}; ${SPREAD}`, prefs !== undefined && kd !== undefined ? kd / prefs : undefined, (v) => v >= 1, (v) => `kdbush/ours ${v.toFixed(2)} (ours ${ms(prefs!)}, kdbush ${ms(kd!)})`);
  const soft = ratio(at(W.denseSoft), 'ours', 'kdbush');
  push(16, 'POINT 1 km, soft preferences, complete search with 20 records: at least 2x faster than kdbush range + exact distance filter', `${STEADY}; ${DENSE}`, soft?.v, (v) => v >= 2, soft?.text ?? String);
  const hard = ratio(at(W.denseHard), 'ours', 'kdbush');
  push(16, 'POINT 1 km, hard filter, complete search with 20 records: at least 2x faster than kdbush range + caters column + exact distance filter', `${STEADY}; ${DENSE}`, hard?.v, (v) => v >= 2, hard?.text ?? String);
  for (const [name, label] of [
    [W.city, 'PATH 10 km / 200 m'],
    [W.intercity, 'PATH 290 km / 1 km'],
  ] as const) {
    const r = ratio(at(name), 'ours', 'turf');
    push(4, `${label}: at least 20x faster than turf.buffer + point-in-polygon`, `${STEADY}; ${SPREAD}`, r?.v, (v) => v >= 20, r?.text ?? String);
    push(16, `${label}: at least 40x faster than turf.buffer + point-in-polygon`, `${STEADY}; ${SPREAD}`, r?.v, (v) => v >= 40, r?.text ?? String);
  }
  for (const [name, data] of [
    [W.long, SPREAD],
    [W.longDense, DENSE],
  ] as const) {
    const r = at(name);
    const long = liveRow(r);
    push(16, `PATH London - Manchester, 100 vertices, 1 km (${r?.params.meanVenuesInCorridor ?? '?'} venues in the corridor; the issue's route held 52,000): p50 under 5 ms and p99 under 10 ms`, `live; ${data}`, long ? Math.max(long.medianUs / 5000, long.p99Us / 10_000) : undefined, (v) => v < 1, () => `p50 ${ms(long!.medianUs)}, p99 ${ms(long!.p99Us)}, p99.9 ${ms(long!.p999Us)}`);
  }
  for (const [name, label] of [
    [W.point, 'POINT 1 km + preferences'],
    [W.denseSoft, 'POINT 1 km, soft preferences (town-centre data)'],
    [W.city, 'PATH 10 km / 200 m'],
    [W.long, 'PATH London - Manchester, 100 vertices'],
    [W.findNoCentre, 'find, no centre'],
    [W.findCentre, 'find, 5 km centre'],
  ] as const) {
    const t = liveRow(at(name));
    push(16, `${label}: p99 / p50 at most 2`, `live; ${name === W.denseSoft ? DENSE : SPREAD}`, t ? t.p99Us / t.medianUs : undefined, (v) => v <= 2, (v) => `${v.toFixed(2)} (p50 ${ms(t!.medianUs)}, p99 ${ms(t!.p99Us)}, p99.9 ${ms(t!.p999Us)})`);
  }
  const deopt = results.find((r) => r.workload === W.deopt);
  push(16, 'no deopt repeats on the query paths', `deopt check: a full collection before each call; ${SPREAD}${deopt ? `, ${String(deopt.params.venues)} venues` : ''}`, deopt?.figures?.['functions deoptimised in 2+ rounds'], (v) => v === 0, (v) => `${v} functions deoptimised in two or more rounds (${deopt?.figures?.['deopts after the build']} deopts after the build in all)`);
  // measured at its own size (the run's sharedEnginesSize), not the goal size
  const engines = results.find((r) => r.workload === W.sharedEngines);
  const threadRows = engines?.table?.data as { rows: Array<{ rssBytes: number }> } | undefined;
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  push(
    18,
    'each extra engine thread (`serve --engine-threads`) over one shared snapshot adds less than 20 % of the one-thread process',
    `one-off, a fresh process per configuration: whole-process VmRSS after 300 searches and 300 finds per thread; ${SPREAD}${engines ? `, ${String(engines.params.venues)} venues` : ''}`,
    engines?.figures?.['extra memory of a second engine thread / one thread, shared snapshot (goal < 0.2)'],
    (v) => v < 0.2,
    (v) => `+${(v * 100).toFixed(1)} % (1 thread ${mib(threadRows!.rows[0]!.rssBytes)}, 2 threads ${mib(threadRows!.rows[1]!.rssBytes)})`,
  );
  const fair = at(W.fair);
  for (const f of ['MIN_MAX', 'MIN_TOTAL'] as const) {
    const ours = median(fair, `ours: ${f}`);
    const scanned = median(fair, `brute-force scan of every venue, same costs (${f})`);
    const centre = median(fair, 'CENTRE search');
    push(15, `${f}, 4 people, 4 km: at least 50x faster than a brute-force scan`, `${STEADY}; ${SPREAD}`, ours !== undefined && scanned !== undefined ? scanned / ours : undefined, (v) => v >= 50, (v) => `${v.toFixed(0)}x (ours ${ms(ours!)}, scan ${ms(scanned!)})`);
    push(15, `${f}: no slower than 1.5x a CENTRE search returning as many venues`, `${STEADY}; ${SPREAD}`, ours !== undefined && centre !== undefined ? ours / centre : undefined, (v) => v <= 1.5, (v) => `${v.toFixed(2)}x (ours ${ms(ours!)}, CENTRE ${ms(centre!)})`);
  }
  push(5, 'find without a centre: median under 2 ms', `steady; ${SPREAD}`, median(at(W.findNoCentre), 'find, no centre'), (v) => v < 2000, ms);
  push(5, 'find with a 5 km centre: median under 0.5 ms', `steady; ${SPREAD}`, median(at(W.findCentre), 'find, 5 km centre'), (v) => v < 500, ms);
  const http = at(W.http);
  const rows = http?.table?.data as Array<{ requestsPerSecond: number; p99Ms: number }> | undefined;
  push(6, "HTTP POST /v1/search/ at least half the bare route's req/s", 'loopback, 32 connections, alternated rounds; the 3,000 bundled fixtures', rows ? rows[1]!.requestsPerSecond / rows[0]!.requestsPerSecond : undefined, (v) => v >= 0.5, (v) => `${(v * 100).toFixed(0)} % (${rows![1]!.requestsPerSecond} vs ${rows![0]!.requestsPerSecond} req/s)`);
  const live = results.find((r) => r.workload === W.live);
  const lf = live?.figures ?? {};
  const liveData = `${SPREAD}, ${String(live?.params.venues ?? size)} venues; bench/live.ts in a child process`;
  push(17, 'upsert of 1,000 venues: median at most 20 ms', `one batch after another (500 replacements, 500 new), 1,000 to 30,000 changes pending; ${liveData}`, lf[LIVE_FIGURES.upsertMedian], (v) => v <= 20, (v) => `${v.toFixed(1)} ms (p99 ${(lf[LIVE_FIGURES.upsertP99] ?? Number.NaN).toFixed(1)} ms)`);
  for (const name of Object.values(LIVE_SEARCHES)) {
    push(17, `${name}, ~50,000 changes pending: at most 1.3x the same records compacted`, `${STEADY} (the live engine and its twin after compact(), same queries), 45 batches of 1,000 upserts + 5,000 removals pending; ${liveData}`, lf[LIVE_FIGURES.ratio(name)], (v) => v <= 1.3, (v) => `${v.toFixed(2)}x`);
  }
  const cpu = lf[LIVE_FIGURES.compactionCpu];
  push(17, 'compaction: at most 3 s off the query path (worker: fold ~50,000 changes into a new base, write the snapshot, hand it over)', `one-off, a worker thread at the lowest priority while the main thread searches without pause; ${liveData}`, lf[LIVE_FIGURES.compactionWorker], (v) => v <= 3000, (v) => `${s(v)} worker wall${cpu !== undefined ? ` (CPU ${s(cpu)})` : ''}, ${s(lf[LIVE_FIGURES.compactionTotal] ?? Number.NaN)} start to swap`);
  push(17, 'largest query stall during a compaction: under 5 ms', `a query loop (search, then yield) on the main thread during the compaction, beside the same loop without one; ${liveData}`, lf[LIVE_FIGURES.largestStall], (v) => v < 5, (v) => `${v.toFixed(1)} ms (without a compaction: ${(lf[LIVE_FIGURES.quietStall] ?? Number.NaN).toFixed(1)} ms; largest swap step ${(lf[LIVE_FIGURES.largestSwapStep] ?? Number.NaN).toFixed(1)} ms; ${advisedFlagStall(lf)})`);
  return out;
}
