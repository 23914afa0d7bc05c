/**
 * Diagnosis of find's tail (issue 16): is a slow find call slow because of its query (how
 * many postings it enumerates) or because of the live regime (a collection before it)?
 * Each of the bench's 400 seeded partial-name queries (bench/workloads/find.ts) is timed
 * alone many times in the steady regime (no churn, no forced collection), and its work is
 * counted (candidates enumerated, matches); then the live regime's samples (measureLive's
 * loop: churn, a full collection before every 100th call) are tagged with their query and
 * with whether a collection preceded them, and the slowest are listed beside their query's
 * steady median.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc --max-old-space-size=12288 \
 *     .tmp/bench-dist/bench/diag/find-tail.js N [centre] [spread|town-centres]
 *
 * `centre`: the 5 km centre workload instead of no centre. Under the heavy lock from 100k.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { createEngine } from '../../src/engine.js';
import { benchVenues } from '../lib/dataset.js';
import { churn, collectGarbage } from '../lib/measure.js';
import { findQueries } from '../workloads/find.js';

const n = Number(process.argv[2] ?? 300_000);
const withCentre = process.argv[3] === 'centre';
const layout = (process.argv[4] ?? 'spread') as 'spread' | 'town-centres';
let sink = 0;
const gen = benchVenues(n, layout);
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
const { partial, centres } = findQueries([...engine.store.records]);
const Q = partial.length;
const call = (k: number): number => {
  const q = partial[k]!;
  if (!withCentre) return engine.find({ q, limit: 20 }, { now: 0 }).totalFound;
  const c = centres[k]!;
  return engine.find({ q, lat: c.lat, lon: c.lon, maxDistanceMeters: 5000, limit: 20 }, { now: 0 }).totalFound;
};
collectGarbage();
for (let r = 0; r < 3; r++) for (let k = 0; k < Q; k++) sink += call(k);

// Steady: each query's median of 9 calls.
const steady = new Float64Array(Q);
const found = new Float64Array(Q);
const cand = new Float64Array(Q);
const plan: string[] = [];
for (let k = 0; k < Q; k++) {
  const t: number[] = [];
  for (let r = 0; r < 9; r++) {
    const t0 = performance.now();
    found[k] = call(k);
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  steady[k] = t[4]!;
  const prepared = engine.finder().names.prepare(partial[k]!);
  cand[k] = prepared.estimatedCandidates;
  plan.push(engine.finder().lastPlan);
}
const q = (xs: ArrayLike<number>, p: number) => {
  const s = Array.from(xs).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
};
const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
console.log(`# n=${n} layout=${layout} centre=${withCentre}`);
console.log(`steady, per-query medians over ${Q} queries: p50 ${us(q(steady, 0.5))}, p90 ${us(q(steady, 0.9))}, p99 ${us(q(steady, 0.99))}, max ${us(q(steady, 1))}`);
const order = Array.from({ length: Q }, (_, k) => k).sort((a, b) => steady[b]! - steady[a]!);
console.log('slowest queries (steady median, rarest word postings, matches, words, plan):');
for (const k of order.slice(0, 12)) console.log(`  ${us(steady[k]!).padStart(9)}  ${String(cand[k]).padStart(7)} postings  ${String(found[k]).padStart(7)} found  ${JSON.stringify(partial[k])}  ${plan[k]}`);
// Cost per enumerated posting across the mix.
let sumT = 0;
let sumC = 0;
for (let k = 0; k < Q; k++) {
  sumT += steady[k]!;
  sumC += Math.min(cand[k]!, Number.MAX_SAFE_INTEGER);
}
console.log(`mean ${((sumT / sumC) * 1e6).toFixed(1)} ns per rarest-word posting (no centre: all are enumerated)`);

// Live: measureLive's loop over this workload alone, samples tagged.
const gcs: Array<{ start: number; end: number; kind: number }> = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind: (e as unknown as { detail: { kind: number } }).detail.kind });
});
obs.observe({ entryTypes: ['gc'] });
const N = 4000;
// The main thread's scheduler statistics (Linux): nanoseconds on a CPU and waiting in the run
// queue; their change over a call tells a preempted call (waiting) from a slow one (running).
const schedFd = openSync('/proc/thread-self/schedstat', 'r');
const schedBuf = Buffer.alloc(128);
const sched = (): [number, number] => {
  const len = readSync(schedFd, schedBuf, 0, 128, 0);
  const [run, wait] = schedBuf.toString('latin1', 0, len).split(' ');
  return [Number(run) / 1e6, Number(wait) / 1e6];
};
const live: Array<{ k: number; ms: number; afterGc: number; t0: number; t1: number; runMs: number; waitMs: number }> = [];
let sinceGc = 1000;
for (let c = 1; c <= N; c++) {
  const k = c % Q;
  if (!process.env.NOCHURN) sink += churn(c);
  if (c % 100 === 0 && !process.env.NOGC) {
    collectGarbage();
    sinceGc = 0;
  }
  if (process.env.MARK) console.log(`#> call ${c} ${JSON.stringify(partial[k])}`);
  const [run0, wait0] = sched();
  const t0 = performance.now();
  sink += call(k);
  const t1 = performance.now();
  const [run1, wait1] = sched();
  if (process.env.MARK) console.log(`#< call ${c} ${((t1 - t0) * 1000).toFixed(0)} us`);
  live.push({ k, ms: t1 - t0, afterGc: sinceGc++, t0, t1, runMs: run1 - run0, waitMs: wait1 - wait0 });
}
await new Promise((r) => setTimeout(r, 50));
obs.disconnect();
const liveMs = live.map((s) => s.ms);
console.log(`live (${N} calls): p50 ${us(q(liveMs, 0.5))}, p99 ${us(q(liveMs, 0.99))}, p99.9 ${us(q(liveMs, 0.999))}; ratio ${(q(liveMs, 0.99) / q(liveMs, 0.5)).toFixed(2)}`);
const ratioToSteady = live.map((s) => s.ms / steady[s.k]!);
console.log(`live / steady of the same query: p50 ${q(ratioToSteady, 0.5).toFixed(2)}, p99 ${q(ratioToSteady, 0.99).toFixed(2)}`);
const slow = [...live].sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(N / 100));
let inGc = 0;
let firstAfter = 0;
let heavy = 0;
const p90steady = q(steady, 0.9);
for (const s of slow) {
  const overlaps = gcs.some((g) => g.end > s.t0 && g.start < s.t1);
  if (overlaps) inGc++;
  if (s.afterGc === 0) firstAfter++;
  if (steady[s.k]! >= p90steady) heavy++;
}
console.log(`slowest 1 % (${slow.length}): ${heavy} are queries in the steady top 10 %, ${firstAfter} follow the forced collection, ${inGc} overlap a scavenge/mark inside the call`);
for (const s of slow.slice(0, 15)) {
  const g = gcs.filter((x) => x.end > s.t0 - 2 && x.start < s.t1).map((x) => `${x.kind === 1 ? 'scavenge' : x.kind === 2 ? 'mark' : x.kind === 4 ? 'incremental' : `kind${x.kind}`} ${((x.end - x.start) * 1000).toFixed(0)}µs at ${((x.start - s.t0) * 1000).toFixed(0)}µs`);
  console.log(`  ${us(s.ms).padStart(9)} on cpu ${us(s.runMs).padStart(9)} run-queue wait ${us(s.waitMs).padStart(9)} steady ${us(steady[s.k]!).padStart(9)}  calls since gc() ${String(s.afterGc).padStart(3)}  ${JSON.stringify(partial[s.k])} ${g.join(', ')}`);
}
closeSync(schedFd);
let waited = 0;
for (const s of slow) if (s.waitMs > s.ms / 2) waited++;
console.log(`of the slowest 1 %, ${waited} spent more than half their wall time waiting for a CPU (preempted)`);
const onCpu = live.map((s) => s.runMs);
console.log(`on-CPU time of the main thread per call: p50 ${us(q(onCpu, 0.5))}, p99 ${us(q(onCpu, 0.99))}, p99.9 ${us(q(onCpu, 0.999))}; ratio ${(q(onCpu, 0.99) / q(onCpu, 0.5)).toFixed(2)}`);
const buckets = [0, 1, 2, 5, 10, 100];
for (let b = 0; b < buckets.length - 1; b++) {
  const r = live.filter((s) => s.afterGc >= buckets[b]! && s.afterGc < buckets[b + 1]!).map((s) => s.ms / steady[s.k]!);
  console.log(`calls ${buckets[b]}..${buckets[b + 1]! - 1} after gc(): live/steady median ${q(r, 0.5).toFixed(2)}, p90 ${q(r, 0.9).toFixed(2)} (${r.length})`);
}
console.log(`# sink ${sink}`);
