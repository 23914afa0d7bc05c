/**
 * Diagnosis of the live regime's tail (issue 16): the phases of a search (validation, rank,
 * the 20 response records) timed right after a full collection and normally.
 *
 *   node --expose-gc .tmp/bench-dist/bench/diag/after-gc-phases.js N [spread|town-centres] [point|soft|path]
 *
 * Environment, between gc() and the timed call: WAIT=ms busy-waits; PRIME=1 runs one find;
 * PRIME2=1 runs one other search of the same kind. TRASH=1 replaces gc() by a 64 MB pass
 * over an array, which evicts the CPU caches without collecting: where it costs the next
 * call about as much as gc(), a collection's cost to that call is its cache eviction.
 * Under the heavy lock from 100k.
 */
import { createEngine } from '../../src/engine.js';
import { checkSearchRequest } from '../../src/search/search-service.js';
import { benchVenues } from '../lib/dataset.js';
import { churn } from '../lib/measure.js';
import { NOW, PREFS, pointBody, pointCentres, cityRoutes, pathBody } from '../lib/queries.js';

const n = Number(process.argv[2] ?? 300_000);
const layout = (process.argv[3] ?? 'spread') as 'spread' | 'town-centres';
const kind = process.argv[4] ?? 'point';
const engine = createEngine(benchVenues(n, layout), { validate: false }).warm();
const trash = new Float64Array(8 << 20);
const gc = process.env.TRASH
  ? () => {
      for (let i = 0; i < trash.length; i += 8) {
        trash[i] = i;
        sink += trash[i]!;
      }
    }
  : (globalThis as { gc: () => void }).gc;
const svc = engine.searcher();
const bodies = kind === 'path' ? cityRoutes().map((r) => pathBody(r, 200)) : pointCentres().map((c) => pointBody(c, 1000, kind === 'soft' ? { ...PREFS, nonCompromise: [] } : PREFS));
let sink = 0;
let q = 0;
function phases(): number[] {
  const body = bodies[q++ % bodies.length];
  const t0 = performance.now();
  const req = checkSearchRequest(body, { limit: 20, now: NOW });
  const t1 = performance.now();
  const ranked = svc.rank(req, 20);
  const t2 = performance.now();
  for (let p = 0; p < ranked.slots.length; p++) sink += svc.establishment(ranked.slots[p]!, ranked.prefs, req).name.length;
  const t3 = performance.now();
  return [t1 - t0, t2 - t1, t3 - t2];
}
for (let k = 0; k < 500; k++) { phases(); sink += churn(k); }
const normal: number[][] = [];
const after: number[][] = [];
for (let r = 0; r < 30; r++) {
  for (let k = 0; k < 10; k++) { sink += churn(k); normal.push(phases()); }
  gc();
  if (process.env.WAIT) { const t = performance.now(); while (performance.now() - t < Number(process.env.WAIT)); }
  if (process.env.PRIME) sink += engine.find({ q: 'red', limit: 20 }, { now: NOW }).totalFound;
  if (process.env.PRIME2) sink += engine.search(bodies[(q + 7) % bodies.length], { limit: 20, now: NOW }).totalResults;
  after.push(phases());
}
const med = (a: number[][], j: number) => ([...a.map((x) => x[j]!)].sort((x, y) => x - y)[a.length >> 1]! * 1000).toFixed(0);
console.log(`${kind} ${layout} n=${n}: validate ${med(normal, 0)} / ${med(after, 0)} µs; rank ${med(normal, 1)} / ${med(after, 1)} µs; 20 records ${med(normal, 2)} / ${med(after, 2)} µs (normal / after ${process.env.TRASH ? 'a 64 MB pass' : 'gc'})`);
console.log(`sink ${sink}`);
