/**
 * Where a PATH 10 km / 200 m search spends its time (issue 16): the corridor walk alone (a
 * prepared route, then with the route's preparation), and the whole search at limit 1 and
 * at limit 20 (the difference is about 19 response records and a larger top-k), in
 * alternated rounds of the 200 seeded routes, CPU time per call (the shared machine's load
 * inflates wall time).
 *
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-dist/bench/diag/path-split.js N
 *
 * Under the heavy lock from 100k.
 */
import { createEngine } from '../../src/engine.js';
import { PreparedRoute } from '../../src/geo/polyline.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { benchVenues } from '../lib/dataset.js';
import { NOW, cityRoutes, pathBody } from '../lib/queries.js';
const n = Number(process.argv[2] ?? 100_000);
const gen = benchVenues(n, 'spread');
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
const routes = cityRoutes();
const city = routes.map((r) => pathBody(r, 200));
const prepared = routes.map((r) => new PreparedRoute(r.map((p) => p.lat), r.map((p) => p.lon)));
const hits = new HitBuffer();
let sink = 0;
const ways: Array<readonly [string, (k: number) => number]> = [
  ['withinCorridor (prepared route)', (k) => engine.spatial.withinCorridor(prepared[k % 200]!, 200, hits)],
  ['new PreparedRoute + withinCorridor', (k) => { const r = routes[k % 200]!; return engine.spatial.withinCorridor(new PreparedRoute(r.map((p) => p.lat), r.map((p) => p.lon)), 200, hits); }],
  ['search limit 1', (k) => engine.search(city[k % 200], { limit: 1, now: NOW }).totalResults],
  ['search limit 20', (k) => engine.search(city[k % 200], { limit: 20, now: NOW }).totalResults],
];
const samples = ways.map(() => [] as number[]);
for (let round = 0; round < 30; round++) {
  ways.forEach(([, f], w) => {
    const c = process.cpuUsage();
    for (let k = 0; k < 200; k++) sink += f(k);
    const u = process.cpuUsage(c);
    samples[w]!.push((u.user + u.system) / 200);
  });
}
ways.forEach(([name], w) => {
  const s = samples[w]!.slice(5).sort((a, b) => a - b);
  console.log(`${name.padEnd(40)} median ${s[s.length >> 1]!.toFixed(1)} µs per call (CPU time)`);
});
console.log(`sink ${sink}`);
