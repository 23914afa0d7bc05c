/**
 * Scaling view: our main workloads (POINT 1 km with preferences, PATH 10 km / 200 m, find
 * without a centre, find within 5 km) at every dataset size of the run, same seeded
 * queries, so the cost's growth with data can be read as a table and a log-log chart.
 */
import type { BenchContext } from '../lib/context.js';
import { sizeLabel } from '../lib/dataset.js';
import { measure, type Timing } from '../lib/measure.js';
import { NOW, PREFS, cityRoutes, pathBody, pointBody, pointCentres } from '../lib/queries.js';
import type { WorkloadResult } from '../lib/report.js';
import { FIND_RADIUS, findQueries } from './find.js';

export const SCALING_TASKS = ['POINT 1 km + preferences', 'PATH 10 km / 200 m', 'find, no centre', 'find, 5 km centre'] as const;

/** Median and p99 of the scaling tasks at the context's size. */
export function scalingTimings(ctx: BenchContext): Timing[] {
  const { engine } = ctx;
  const points = pointCentres().map((c) => pointBody(c, 1000, PREFS));
  const paths = cityRoutes().map((r) => pathBody(r, 200));
  const { partial, centres } = findQueries(ctx.venues);
  let a = 0;
  return measure(
    [
      [SCALING_TASKS[0], () => engine.search(points[a++ % points.length], { limit: 20, now: NOW }).totalResults],
      [SCALING_TASKS[1], () => engine.search(paths[a++ % paths.length], { limit: 20, now: NOW }).totalResults],
      [SCALING_TASKS[2], () => engine.find({ q: partial[a++ % partial.length]!, limit: 20 }, { now: NOW }).totalFound],
      [
        SCALING_TASKS[3],
        () => {
          const k = a++ % partial.length;
          return engine.find({ q: partial[k]!, lat: centres[k]!.lat, lon: centres[k]!.lon, maxDistanceMeters: FIND_RADIUS, limit: 20 }, { now: NOW }).totalFound;
        },
      ],
    ],
    { timeMs: ctx.timeMs, minIterations: 20 },
  );
}

export interface ScalingPoint {
  readonly venues: number;
  readonly timings: Timing[];
}

/** The scaling table: one row per task, one column per size (median µs; p99 in the JSON). */
export function scalingResult(points: readonly ScalingPoint[]): WorkloadResult {
  const sorted = [...points].sort((x, y) => x.venues - y.venues);
  const fmt = (us: number) => (us >= 100 ? us.toFixed(0) : us.toFixed(1));
  return {
    workload: 'scaling: median µs by dataset size (ours)',
    params: { sizes: sorted.map((p) => sizeLabel(p.venues)).join(' ') },
    timings: [],
    table: {
      header: ['task', ...sorted.map((p) => `${sizeLabel(p.venues)} median µs`)],
      rows: SCALING_TASKS.map((t) => [t, ...sorted.map((p) => fmt(p.timings.find((x) => x.name === t)!.medianUs))]),
      data: sorted,
    },
  };
}
