/**
 * A full refresh through live data (issue 17): every venue of an engine replaced by upserts
 * in batches (as an operator who re-sends the whole feed would), then `engine.compact()`
 * folds the runs, which then hold every current venue, into a new base. Prints the upserts'
 * total, median and largest batch, and the compaction's wall time. With a second argument,
 * another compiled tree's engine (a copy of .tmp/bench-dist made before a change) is built
 * and refreshed first in the same way, in the same process, for an A/B; compare runs in both
 * orders, the machine's speed drifts.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc --max-old-space-size=12288 .tmp/bench-dist/bench/diag/full-refresh.js [N=1000000] [batch=10000] [BASE_DIST|-]
 *
 * The venues are generated (seeded bench data) and held by the script, so the heap is larger
 * than a service's, and its collections cost more: compare trees, not absolute figures.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { BENCH_SEED } from '../lib/dataset.js';

interface Refreshable {
  upsert(records: readonly unknown[]): unknown;
  compact(): unknown;
  readonly size: number;
}
type Build = (venues: readonly VenueRecord[], options: { validate: boolean }) => Refreshable;

const n = Number(process.argv[2] ?? 1_000_000);
const batchSize = Number(process.argv[3] ?? 10_000);
const baseDir = process.argv[4] && process.argv[4] !== '-' ? resolve(process.argv[4]) : null;
const builds: Array<[string, Build]> = [];
if (baseDir !== null) {
  const base = (await import(pathToFileURL(`${baseDir}/src/engine.js`).href)) as { createEngine: Build };
  builds.push(['base', base.createEngine]);
}
builds.push(['this', createEngine]);
const venues = generateBenchVenues(n, BENCH_SEED);
const gc = (globalThis as { gc?: () => void }).gc;

for (const [name, build] of builds) {
  const engine = build(venues, { validate: false });
  gc?.();
  const times: number[] = [];
  const t0 = performance.now();
  for (let s = 0; s < n; s += batchSize) {
    // the same venues, renamed: every id replaced once
    const batch = venues.slice(s, s + batchSize).map((r) => ({ ...r, name: `${r.name} Bar` }));
    const t = performance.now();
    engine.upsert(batch);
    times.push(performance.now() - t);
  }
  const upsertMs = performance.now() - t0;
  const t1 = performance.now();
  engine.compact();
  const compactMs = performance.now() - t1;
  if (engine.size !== n) throw new Error(`${name}: ${engine.size} venues after the refresh, ${n} expected`);
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${name}: ${times.length} batches of ${batchSize}: ${(upsertMs / 1000).toFixed(1)} s in all, median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, ` +
      `largest ${sorted[sorted.length - 1]!.toFixed(0)} ms; compact() ${compactMs.toFixed(0)} ms`,
  );
  gc?.();
}
