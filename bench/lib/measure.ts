import { Bench } from 'tinybench';

/** Timings of one task, microseconds. */
export interface Timing {
  readonly name: string;
  readonly medianUs: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly samples: number;
}

export interface MeasureOptions {
  /** Time budget per task, ms (tinybench `time`). */
  readonly timeMs: number;
  /** Warm-up budget per task, ms. */
  readonly warmupMs?: number;
  readonly minIterations?: number;
}

/**
 * Results land here so no benchmarked call can be optimised away; `sink.value` is printed
 * at the end of a run.
 */
export const sink = { value: 0 };

/**
 * Runs the tasks with tinybench (warm-up, then repeated runs within the time budget) and
 * returns median and p99 per task. Tasks are synchronous functions returning a number that
 * is folded into the sink.
 */
export function measure(tasks: ReadonlyArray<readonly [string, () => number]>, options: MeasureOptions): Timing[] {
  const bench = new Bench({
    time: options.timeMs,
    warmupTime: options.warmupMs ?? Math.min(250, options.timeMs / 4),
    iterations: options.minIterations ?? 10,
    throws: true,
    // A full collection before each task's warm-up and run (when node runs with
    // --expose-gc, as `npm run bench` does), so one task's garbage is not billed to the next.
    setup: () => collectGarbage(),
  });
  for (const [name, fn] of tasks) {
    bench.add(name, () => {
      sink.value = (sink.value + fn()) | 0;
    });
  }
  bench.runSync();
  return bench.tasks.map((task) => {
    const r = task.result;
    if (r.state !== 'completed') throw new Error(`benchmark task ${task.name} did not complete: ${r.state}`);
    return {
      name: task.name,
      medianUs: r.latency.p50 * 1000,
      p99Us: r.latency.p99 * 1000,
      meanUs: r.latency.mean * 1000,
      samples: r.latency.samples?.length ?? Math.round(r.totalTime / r.period),
    };
  });
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A full garbage collection when node runs with --expose-gc; otherwise nothing. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Wall time of one call, milliseconds (for one-off costs such as building an index). */
export function timeOnce<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

export async function timeOnceAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}
