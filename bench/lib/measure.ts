import { Bench } from 'tinybench';

/** Timings of one task, microseconds. */
export interface Timing {
  readonly name: string;
  readonly medianUs: number;
  readonly p99Us: number;
  /** p99.9, microseconds (with fewer than 1,000 samples: the slowest). */
  readonly p999Us: number;
  readonly meanUs: number;
  readonly samples: number;
}

export interface MeasureOptions {
  /** Time budget per task, ms (tinybench `time`). */
  readonly timeMs: number;
  /** Warm-up budget per task, ms. */
  readonly warmupMs?: number;
  readonly minIterations?: number;
  /**
   * Rounds (default 1). With more, each task's budget is split into that many blocks, run
   * in alternation (A B, then B A, ...), and the statistics are taken over all of a task's
   * samples: tasks whose ratio is a goal are then measured over the same stretch of time, so
   * a busy spell on a shared machine weighs on both rather than on whichever ran during it.
   */
  readonly rounds?: number;
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
  if ((options.rounds ?? 1) > 1) return measureAlternating(tasks, options);
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
      p999Us: r.latency.p999 * 1000,
      meanUs: r.latency.mean * 1000,
      samples: r.latency.samples?.length ?? Math.round(r.totalTime / r.period),
    };
  });
}

function measureAlternating(tasks: ReadonlyArray<readonly [string, () => number]>, options: MeasureOptions): Timing[] {
  const rounds = options.rounds!;
  const samples: number[][] = tasks.map(() => []);
  // One full collection before the first block only: after one, V8 sweeps the heap on a
  // background thread for a while, which on two cores would slow whichever block came next.
  collectGarbage();
  for (let round = 0; round < rounds; round++) {
    const order = tasks.map((_, k) => (round % 2 === 0 ? k : tasks.length - 1 - k));
    for (const k of order) {
      const [name, fn] = tasks[k]!;
      const bench = new Bench({
        time: options.timeMs / rounds,
        // A full warm-up before a task's first block; later blocks only re-touch the caches.
        warmupTime: round === 0 ? (options.warmupMs ?? Math.min(250, options.timeMs / 4)) : 25,
        iterations: Math.max(1, Math.ceil((options.minIterations ?? 10) / rounds)),
        throws: true,
        retainSamples: true,
      });
      bench.add(name, () => {
        sink.value = (sink.value + fn()) | 0;
      });
      bench.runSync();
      const r = bench.tasks[0]!.result;
      if (r.state !== 'completed') throw new Error(`benchmark task ${name} did not complete: ${r.state}`);
      // One push per sample: a fast task's block holds over 100,000 samples, more
      // arguments than a spread call may pass.
      const out = samples[k]!;
      for (const sample of r.latency.samples ?? []) out.push(sample);
    }
  }
  return tasks.map(([name], k) => timingOf(name, samples[k]!));
}

export interface LiveOptions {
  /** Timed calls per task (p99.9 needs at least 1,000). */
  readonly calls: number;
  /** A full collection before every `gcEvery`-th call. */
  readonly gcEvery: number;
  /** Untimed calls per task before the first timed one (default 200). */
  readonly warmup?: number;
}

/**
 * The live regime: each call is timed alone, as a service makes it, with a service's
 * allocation churn before it (parse a 2 KB JSON body, build and serialise a 20-record
 * response: {@link churn}) and a full (major) collection before every `gcEvery`-th call,
 * untimed, so the call right after it pays for what a collection leaves behind (swept
 * pages, cleared feedback, flushed code). Tasks alternate in 4 rounds (A B, B A, ...), like
 * measure's `rounds`. Needs node --expose-gc to collect; without it, only the churn.
 */
export function measureLive(tasks: ReadonlyArray<readonly [string, () => number]>, options: LiveOptions): Timing[] {
  const rounds = 4;
  const samples: number[][] = tasks.map(() => []);
  for (const [, fn] of tasks) for (let k = 0; k < (options.warmup ?? 200); k++) sink.value = (sink.value + fn() + churn(k)) | 0;
  let call = 0;
  for (let round = 0; round < rounds; round++) {
    const order = tasks.map((_, k) => (round % 2 === 0 ? k : tasks.length - 1 - k));
    for (const k of order) {
      const fn = tasks[k]![1];
      const out = samples[k]!;
      const n = Math.ceil(options.calls / rounds);
      for (let c = 0; c < n; c++) {
        sink.value = (sink.value + churn(call)) | 0;
        if (++call % options.gcEvery === 0) collectGarbage();
        const t0 = performance.now();
        sink.value = (sink.value + fn()) | 0;
        out.push(performance.now() - t0);
      }
    }
  }
  return tasks.map(([name], k) => timingOf(name, samples[k]!));
}

/** Statistics of samples in milliseconds, as a Timing in microseconds. */
function timingOf(name: string, samplesMs: number[]): Timing {
  const ms = samplesMs.sort((a, b) => a - b);
  return {
    name,
    medianUs: quantile(ms, 0.5) * 1000,
    p99Us: quantile(ms, 0.99) * 1000,
    p999Us: quantile(ms, 0.999) * 1000,
    meanUs: (ms.reduce((a, b) => a + b, 0) / ms.length) * 1000,
    samples: ms.length,
  };
}

/** A request body of about 2 KB, as a client would send it (parsed afresh per call). */
const BODY = JSON.stringify({
  locations: Array.from({ length: 12 }, (_, k) => ({ lat: 51.5 + k * 0.001, lon: -0.12 - k * 0.001, weight: 1 + (k % 3), label: `friend number ${k}` })),
  mode: { mode: 'POINT', maxDistance: 1000 },
  preferences: {
    establishmentFilters: ['restaurant', 'pub', 'freeWifi', 'outdoorSeating'],
    catersFilters: ['vegan', 'glutenFree'],
    vibes: ['cosy', 'conversation'],
    openingConditions: { state: 'OPEN', atTime: '2026-11-21T20:00:00Z' },
    chainPreference: 'PREFER_INDEPENDENT',
    nonCompromise: ['catersFilters'],
  },
  client: { app: 'venue-search bench', version: '1.0.0', session: 'x'.repeat(600) },
});

/**
 * A service's work around one call, untimed: parse the 2 KB body, build 20 response records
 * (fresh objects, strings and arrays, as a response holds) and serialise them. Returns a
 * number so nothing is optimised away.
 */
export function churn(seed: number): number {
  const body = JSON.parse(BODY) as { locations: unknown[] };
  const records: object[] = [];
  for (let k = 0; k < 20; k++) {
    records.push({
      id: `venue-${seed}-${k}`,
      name: `The ${k} Bells of ${seed}`,
      location: { lat: 51.5 + k * 1e-4, lon: -0.12 + seed * 1e-7 },
      distanceMeters: k * 17.5,
      establishmentFlags: ['freeWifi', 'servesFood'],
      travel: { a: { distanceMeters: 100 + k, durationMinutes: 1.5 } },
      regularOpeningHours: [{ days: ['Mon', 'Tue'], timeSlots: [{ open: '11:00', close: '23:00' }] }],
    });
  }
  return JSON.stringify({ establishments: records, totalResults: body.locations.length }).length;
}

/** Linear-interpolated quantile `q` of ascending `sorted` (as tinybench computes p50 and p99). */
function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
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
