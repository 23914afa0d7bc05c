import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { coldStartWorkload } from '../workloads/cold-start.js';
import { deoptCheckWorkload } from '../workloads/deopt-check.js';
import { densePointWorkloads } from '../workloads/dense-point.js';
import { detailsWorkloads } from '../workloads/details.js';
import { fairWorkloads } from '../workloads/fair.js';
import { findWorkloads } from '../workloads/find.js';
import { httpLoadWorkload } from '../workloads/http-load.js';
import { liveWorkload } from '../workloads/live.js';
import { scaleOutWorkload } from '../workloads/scale-out.js';
import { sharedEnginesWorkload } from '../workloads/shared-engines.js';
import { memoryWorkload } from '../workloads/memory.js';
import { pathWorkloads } from '../workloads/path.js';
import { pointWorkloads } from '../workloads/point.js';
import { SCALING_TASKS, scalingResult, scalingTimings, type ScalingPoint } from '../workloads/scaling.js';
import { LIVE_GC_EVERY, loadContext, type BenchContext } from './context.js';
import { sizeLabel } from './dataset.js';
import { sink } from './measure.js';
import { repoPath } from './paths.js';
import { evaluateGoals } from './goals.js';
import { machine, printTable, printWorkload, writeResults, type WorkloadResult } from './report.js';
import { scalingSvg } from './scaling-chart.js';

/** Workload groups, selectable with `--only`. */
export const GROUPS = ['load', 'point', 'path', 'fair', 'find', 'details', 'cold', 'scaling', 'memory', 'http', 'deopt', 'dense', 'scaleout', 'live'] as const;
export type Group = (typeof GROUPS)[number];

export interface SuiteOptions {
  readonly quick: boolean;
  /** Sizes of the main workloads. */
  readonly sizes: readonly number[];
  /** Sizes of the scaling view. */
  readonly scalingSizes: readonly number[];
  /** Size of the fresh-process memory measurement. */
  readonly memorySize: number;
  /** Venues of the deopt check's child process. */
  readonly deoptSize?: number;
  /** Largest size Orama is built at (its build and queries are slow and heap-hungry). */
  readonly oramaMaxSize: number;
  readonly only: ReadonlySet<Group> | null;
  /** tinybench time budget per task, ms. */
  readonly timeMs: number;
  readonly httpSeconds: number;
  /** Venues of the shared-snapshot memory measurement (scale-out group); default 100k. */
  readonly sharedEnginesSize?: number;
  /** Venues of the live-data child (bench/live.ts); default the largest of `sizes`. */
  readonly liveSize?: number;
  /** Name of the results file (bench/results/latest-<label>.json); default `quick` or `full`. */
  readonly label?: string;
}

/**
 * Runs the selected workloads, one dataset size at a time (ascending; each size's venues and
 * engine are dropped before the next), prints a table per workload as it finishes, then
 * writes the JSON (and, with the scaling view, the SVG chart) to bench/results/.
 */
export async function runSuite(o: SuiteOptions): Promise<string> {
  const on = (g: Group) => o.only === null || o.only.has(g);
  const mode = o.quick ? 'quick' : 'full';
  const m = machine();
  const started = performance.now();
  const log = (s: string) => process.stdout.write(s);
  log(`# venue-search benchmarks (${mode})\n${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}\n`);
  const results: WorkloadResult[] = [];
  const emit = (r: WorkloadResult) => {
    printWorkload(r);
    results.push(r);
  };
  const main = new Set(o.sizes);
  const scaling = new Set(on('scaling') ? o.scalingSizes : []);
  const needsMain = (['load', 'point', 'path', 'fair', 'find', 'details', 'cold'] as const).some(on);
  const sizes = [...new Set([...(needsMain ? o.sizes : []), ...scaling])].sort((a, b) => a - b);
  const scalingPoints: ScalingPoint[] = [];
  for (const n of sizes) {
    const isMain = needsMain && main.has(n);
    log(`\n# ${sizeLabel(n)} venues: loading (${((performance.now() - started) / 1000).toFixed(0)} s into the run)\n`);
    let { ctx, result } = await loadContext(n, { fromFile: isMain && (on('load') || on('cold')), timeMs: o.timeMs, quick: o.quick });
    if (isMain) {
      if (on('load')) emit(result);
      if (on('point')) pointWorkloads(ctx, { orama: n <= o.oramaMaxSize }).forEach(emit);
      if (on('path')) pathWorkloads(ctx).forEach(emit);
      if (on('fair')) fairWorkloads(ctx).forEach(emit);
      if (on('details')) detailsWorkloads(ctx).forEach(emit);
      if (on('find')) findWorkloads(ctx).forEach(emit);
    }
    if (scaling.has(n)) {
      scalingPoints.push({ venues: n, timings: scalingTimings(ctx) });
      log(`  scaling at ${sizeLabel(n)}: done\n`);
    }
    if (isMain && on('cold')) emit(await coldStartWorkload(ctx));
    // Drop this size before loading the next (the loop's next pass reassigns both).
    // eslint-disable-next-line no-useless-assignment
    ctx = null as unknown as BenchContext;
    // eslint-disable-next-line no-useless-assignment
    result = null as unknown as WorkloadResult;
    (globalThis as { gc?: () => void }).gc?.();
  }
  if (scalingPoints.length > 0) {
    const r = scalingResult(scalingPoints);
    emit(r);
    const svg = scalingSvg(
      SCALING_TASKS.map((t) => ({ name: t, points: scalingPoints.map((p) => ({ venues: p.venues, us: p.timings.find((x) => x.name === t)!.medianUs })) })),
      'venue-search: median latency by dataset size',
      `${m.cpu}, ${m.cores} cores, Node ${m.node}; limit 20; ${mode} run ${new Date().toISOString().slice(0, 10)}`,
    );
    // The committed chart comes from the whole full run (label `full`); a quick or partial
    // run's goes to .tmp/bench/, beside nothing committed.
    const label = o.label ?? mode;
    const chart = pathToFileURL(label === 'full' ? repoPath('bench', 'results', 'scaling.svg') : repoPath('.tmp', 'bench', `scaling-${label}.svg`));
    mkdirSync(new URL('.', chart), { recursive: true });
    writeFileSync(chart, svg);
    log(`chart: ${chart.pathname}\n`);
  }
  if (on('dense') && o.sizes.length > 0) {
    const n = Math.max(...o.sizes);
    log(`\n# ${sizeLabel(n)} venues, town-centre layout: POINT like for like\n`);
    densePointWorkloads(n, { timeMs: o.timeMs, live: { calls: o.quick ? 400 : 1000, gcEvery: LIVE_GC_EVERY } }).forEach(emit);
    (globalThis as { gc?: () => void }).gc?.();
  }
  if (on('deopt')) {
    log(`\n# deopt check: child process with --trace-deopt, ${sizeLabel(o.deoptSize ?? 100_000)} venues\n`);
    emit(await deoptCheckWorkload(o.deoptSize ?? 100_000));
  }
  if (on('memory')) {
    log(`\n# memory: fresh process, ${sizeLabel(o.memorySize)} venues\n`);
    emit(await memoryWorkload(o.memorySize));
  }
  if (on('live')) {
    const n = o.liveSize ?? Math.max(100_000, ...o.sizes);
    const timeMs = o.quick ? 400 : 1000;
    log(`\n# live data: bench/live.ts in a child process, ${sizeLabel(n)} venues, ${timeMs} ms per search task and round\n`);
    emit(await liveWorkload(n, timeMs));
  }
  if (on('http')) {
    log(`\n# HTTP load: ${o.httpSeconds} s per route\n`);
    emit(await httpLoadWorkload({ seconds: o.httpSeconds, connections: 32 }));
  }
  if (on('scaleout')) {
    log(`\n# scale-out: 1 and 2 worker processes, 1 and 2 engine threads, ${o.httpSeconds} s each; PostgreSQL charges\n`);
    emit(await scaleOutWorkload({ seconds: o.httpSeconds, connections: 32, chargeSeconds: o.httpSeconds }));
    log(`\n# memory per worker: engine threads over one shared snapshot, ${sizeLabel(o.sharedEnginesSize ?? 100_000)} venues\n`);
    emit(await sharedEnginesWorkload(o.sharedEnginesSize ?? 100_000));
  }
  const seconds = (performance.now() - started) / 1000;
  const goalSize = sizeLabel(Math.max(0, ...o.sizes));
  const goals = evaluateGoals(results, goalSize);
  log(`\n## goals of issues 2, 4, 5, 6, 15, 16 and 17 (at ${goalSize} venues)\n`);
  printTable(['issue', 'goal', 'regime, data', 'measured', 'met'], goals.map((g) => [String(g.issue), g.goal, g.regime, g.measured, g.met === null ? 'not run' : g.met ? 'yes' : 'NO']), 5);
  const path = writeResults(o.label ?? mode, results, { sizes: o.sizes, scalingSizes: [...scaling], seed: 'BENCH_SEED in bench/lib/dataset.ts', runSeconds: Math.round(seconds), goalSize, goals });
  log(`\nrun took ${seconds.toFixed(0)} s; results: ${path}\n(sink ${sink.value})\n`);
  return path;
}
