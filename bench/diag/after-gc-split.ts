/**
 * The live regime's post-collection cost (issue 16), split by phase: a POINT 1 km search with
 * preferences timed as validation, rank and the 20 response records, in normal calls (after
 * the live regime's churn) and in the call right after (a) a full collection, gc(), and (b) a
 * 64 MB pass over an array, which evicts the CPU caches without collecting. Where (b) costs
 * about as much as (a), the collection's cost to the next call is its cache eviction.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc --max-old-space-size=12288 \
 *     .tmp/bench-dist/bench/diag/after-gc-split.js [N=1000000]
 *
 * Under the heavy lock from 100k.
 */
import { createEngine } from '../../src/engine.js';
import { checkSearchRequest } from '../../src/search/search-service.js';
import { benchVenues } from '../lib/dataset.js';
import { churn } from '../lib/measure.js';
import { NOW, PREFS, pointBody, pointCentres } from '../lib/queries.js';

const n = Number(process.argv[2] ?? 1_000_000);
const gen = benchVenues(n, 'spread');
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
const searcher = engine.searcher();
const bodies = pointCentres().map((c) => pointBody(c, 1000, PREFS));
let sink = 0;
let q = 0;

/** One search in its three phases: [validate, rank, records] in ms. */
function phases(): [number, number, number] {
  const body = bodies[q++ % bodies.length];
  const t0 = performance.now();
  const request = checkSearchRequest(body, { limit: 20, now: NOW });
  const t1 = performance.now();
  const ranked = searcher.rank(request, 20);
  const t2 = performance.now();
  for (let p = 0; p < ranked.slots.length; p++) sink += searcher.establishment(ranked.slots[p]!, ranked.prefs, request).name.length;
  const t3 = performance.now();
  return [t1 - t0, t2 - t1, t3 - t2];
}

const trash = new Float64Array(8 << 20);
const before: Record<string, () => void> = {
  gc: () => (globalThis as unknown as { gc: () => void }).gc(),
  trash: () => {
    for (let i = 0; i < trash.length; i += 8) {
      trash[i] = i;
      sink += trash[i]!;
    }
  },
};
for (let k = 0; k < 2000; k++) {
  sink += churn(k);
  phases();
}
const medianUs = (rows: Array<[number, number, number]>, j: number): string => ([...rows.map((r) => r[j]!)].sort((x, y) => x - y)[rows.length >> 1]! * 1000).toFixed(0);
for (const [name, run] of Object.entries(before)) {
  const normal: Array<[number, number, number]> = [];
  const after: Array<[number, number, number]> = [];
  for (let r = 0; r < 30; r++) {
    for (let k = 0; k < 10; k++) {
      sink += churn(k);
      normal.push(phases());
    }
    sink += churn(r);
    run();
    after.push(phases());
  }
  console.log(
    `${name.padEnd(6)} normal: validate ${medianUs(normal, 0)} rank ${medianUs(normal, 1)} records ${medianUs(normal, 2)} µs | right after: validate ${medianUs(after, 0)} rank ${medianUs(after, 1)} records ${medianUs(after, 2)} µs`,
  );
}
console.log(`sink ${sink | 0}`);
