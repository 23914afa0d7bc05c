/**
 * Diagnosis of the live regime's tail (issue 16, docs/performance.md "Method"): each search
 * and find workload of bench/lib/live-calls.ts timed right after a full collection (gc()),
 * the call after that, and normal calls (each after the live regime's churn).
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc --max-old-space-size=12288 \
 *     .tmp/bench-dist/bench/diag/after-gc.js N [spread|town-centres] [hold] [workload-substring]
 *
 * `hold`: keep every record decoded (engine.store.records), as the bench's context did.
 * Environment: TRASH=1 replaces gc() by a 64 MB pass over an array (cold caches, no
 * collection); BOTH=1 alternates the two round by round in one process (a shared machine's
 * noise moves both alike) and prints the call after each; ALLOC=1 prints the heap allocated
 * per call; SEQ=1 prints every sample; MARK=1 prints markers around the timed call (for
 * node --trace-gc). Under the heavy lock from 100k.
 */
import { createEngine } from '../../src/engine.js';
import { benchVenues } from '../lib/dataset.js';
import { churn } from '../lib/measure.js';
import { liveCalls } from '../lib/live-calls.js';

const n = Number(process.argv[2] ?? 300_000);
const layout = (process.argv[3] ?? 'spread') as 'spread' | 'town-centres';
const hold = process.argv[4] === 'hold';
const only = process.argv[5];
let sink = 0;
const gen = benchVenues(n, layout);
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- held alive on purpose: the decoded records as a large live heap
const held = hold ? engine.store.records : null;
const realGc = (globalThis as { gc: () => void }).gc;
const trashBuf = new Float64Array(8 << 20);
const trash = () => { let s = 0; for (let i = 0; i < trashBuf.length; i += 8) { trashBuf[i] = i; s += trashBuf[i]!; } sink += s; };
const both = process.env.BOTH !== undefined;
/** What comes before the timed call in round r: gc(), or the 64 MB pass (TRASH), or (BOTH) gc() in even rounds and the pass in odd ones. */
const evictionOf = (r: number): 'gc' | 'trash' => (both ? (r % 2 === 0 ? 'gc' : 'trash') : process.env.TRASH ? 'trash' : 'gc');
const v8 = await import('node:v8');
realGc();
const mu = process.memoryUsage();
console.log(`# n=${n} layout=${layout} hold=${hold} heapUsed=${(mu.heapUsed / 1e6).toFixed(0)} MB heapTotal=${(mu.heapTotal / 1e6).toFixed(0)} MB ext=${(mu.external / 1e6).toFixed(0)} ab=${(mu.arrayBuffers / 1e6).toFixed(0)}`);
const calls = liveCalls(engine).filter(([name]) => only === undefined || name.includes(only));
for (const [, fn] of calls) for (let k = 0; k < 300; k++) sink += fn() + churn(k);
const marker = (s: string) => { if (process.env.MARK) console.log(s); };
for (const [name, fn] of calls) {
  /** The call right after the eviction and the one after it, by eviction (see evictionOf). */
  const after = { gc: [] as number[], trash: [] as number[] };
  const second = { gc: [] as number[], trash: [] as number[] };
  const normal: number[] = [];
  const faultsAfter: number[] = [];
  const faultsNormal: number[] = [];
  for (let r = 0; r < (both ? 40 : 20); r++) {
    for (let k = 0; k < 10; k++) {
      sink += churn(k);
      const f0 = process.resourceUsage().minorPageFault;
      const t0 = performance.now();
      sink += fn();
      normal.push(performance.now() - t0);
      faultsNormal.push(process.resourceUsage().minorPageFault - f0);
    }
    sink += churn(r);
    const eviction = evictionOf(r);
    if (eviction === 'gc') realGc();
    else trash();
    marker(`# ---- timed after ${eviction}: ${name}`);
    const f0 = process.resourceUsage().minorPageFault;
    let t0 = performance.now();
    sink += fn();
    after[eviction].push(performance.now() - t0);
    faultsAfter.push(process.resourceUsage().minorPageFault - f0);
    marker(`# ---- end`);
    t0 = performance.now();
    sink += fn();
    second[eviction].push(performance.now() - t0);
  }
  if (process.env.ALLOC) {
    realGc();
    const h0 = v8.getHeapStatistics().used_heap_size;
    for (let k = 0; k < 20; k++) sink += fn();
    console.log(`${name}: ~${((v8.getHeapStatistics().used_heap_size - h0) / 20 / 1024).toFixed(0)} KB allocated per call (heap growth / 20, no GC assumed)`);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  const max = (a: number[]) => Math.max(...a);
  const us = (ms: number) => (ms * 1000).toFixed(0);
  const label = { gc: 'after gc', trash: 'after a 64 MB pass' };
  const shown = both ? (['gc', 'trash'] as const) : ([evictionOf(0)] as const);
  if (process.env.SEQ) for (const e of shown) console.log(name, label[e], after[e].map(us).join(' '), '\n second', second[e].map(us).join(' '));
  if (process.env.SEQ) console.log(name, 'normal', normal.map(us).join(' '));
  const parts = shown.map((e) => `${label[e]} med ${us(med(after[e]))} max ${us(max(after[e]))}, the next call med ${us(med(second[e]))} µs`);
  console.log(`${name.padEnd(48)} normal med ${us(med(normal))} µs max ${us(max(normal))} | ${parts.join(' | ')} | page faults: normal med ${med(faultsNormal)}, after med ${med(faultsAfter)}`);
}
console.log(`sink ${sink | 0}`);
