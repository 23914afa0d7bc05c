/**
 * Cost of the response records (issue 16): each search workload timed at limit 20 and at
 * limit 1 in a steady loop; the difference is about 19 response records.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .tmp/bench-dist/bench/diag/response-records.js N [only]
 *
 * `only`: run only the workloads whose name contains it (e.g. PATH). Under the heavy lock from 100k.
 */
import { createEngine } from '../../src/engine.js';
import { benchVenues } from '../lib/dataset.js';
import { NOW, PREFS, cityRoutes, pathBody, pointBody, pointCentres } from '../lib/queries.js';

const n = Number(process.argv[2] ?? 100_000);
const only = process.argv[3];
const gen = benchVenues(n, 'spread');
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
const bodies: Array<readonly [string, object[]]> = [
  ['PATH 10 km / 200 m', cityRoutes().map((r) => pathBody(r, 200))],
  ['POINT 1 km', pointCentres().map((c) => pointBody(c, 1000))],
  ['POINT 1 km + preferences', pointCentres().map((c) => pointBody(c, 1000, PREFS))],
];
let sink = 0;

function median(name: string, limit: number, list: object[], iterations: number): number {
  const f = (k: number) => engine.search(list[k % list.length], { limit, now: NOW }).totalResults;
  for (let k = 0; k < 500; k++) sink += f(k);
  const s: number[] = [];
  for (let k = 0; k < iterations; k++) {
    const t = performance.now();
    sink += f(k);
    s.push(performance.now() - t);
  }
  s.sort((a, b) => a - b);
  const med = s[s.length >> 1]! * 1000;
  console.log(`${name.padEnd(28)} limit ${String(limit).padStart(2)}  median ${med.toFixed(1)} µs  p99 ${(s[Math.floor(s.length * 0.99)]! * 1000).toFixed(1)} µs`);
  return med;
}

for (const [name, list] of bodies) {
  if (only !== undefined && !name.includes(only)) continue;
  for (let round = 0; round < 2; round++) {
    const full = median(name, 20, list, 3000);
    const one = median(name, 1, list, 3000);
    console.log(`${name.padEnd(28)} ~${((full - one) / 19).toFixed(2)} µs per record`);
  }
}
console.log(`sink ${sink | 0}`);
