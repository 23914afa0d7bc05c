/**
 * Diagnosis of POINT search cost (issue 16): validation, rank and the 20 response records
 * timed separately beside the like-for-like kdbush baseline, in the same process, alternated.
 *
 *   node --expose-gc .tmp/bench-dist/bench/diag/point-phases.js N [spread|town-centres] [soft|hard]
 *
 * Under the heavy lock from 100k.
 */
import { createEngine } from '../../src/engine.js';
import { checkSearchRequest } from '../../src/search/search-service.js';
import { catersMask } from '../../src/store/vocabulary.js';
import { LocalFrame } from '../../src/geo/distance.js';
import { Baselines } from '../lib/baselines.js';
import { benchVenues } from '../lib/dataset.js';
import { NOW, PREFS, pointBody, pointCentres } from '../lib/queries.js';

const n = Number(process.argv[2] ?? 300_000);
const layout = (process.argv[3] ?? 'town-centres') as 'spread' | 'town-centres';
const kind = process.argv[4] ?? 'soft';
const R = 1000;
const engine = createEngine(benchVenues(n, layout), { validate: false }).warm();
const svc = engine.searcher();
const store = engine.store;
const base = new Baselines(store.lat, store.lon);
const centres = pointCentres();
const bodies = centres.map((c) => pointBody(c, R, kind === 'soft' ? { ...PREFS, nonCompromise: [] } : PREFS));
const vegan = catersMask(['vegan']);
const { lat, lon, caters } = store;
function baseline(c: { lat: number; lon: number }): number {
  if (kind === 'soft') return base.kdbushRadius(c, R).length;
  const dLat = (R / 110_574) * 1.01;
  const dLon = (R / (111_320 * Math.cos((c.lat * Math.PI) / 180))) * 1.01;
  const frame = new LocalFrame(c.lat, c.lon);
  const out: number[] = [];
  for (const i of base.kd.range(c.lon - dLon, c.lat - dLat, c.lon + dLon, c.lat + dLat)) {
    if ((caters[i]! & vegan) === vegan && frame.ruledDistance(lat[i]!, lon[i]!) <= R) out.push(i);
  }
  return out.length;
}
let sink = 0;
let q = 0;
function phases(): number[] {
  const body = bodies[q % bodies.length];
  const t0 = performance.now();
  const req = checkSearchRequest(body, { limit: 20, now: NOW });
  const t1 = performance.now();
  const ranked = svc.rank(req, 20);
  const t2 = performance.now();
  for (let p = 0; p < ranked.slots.length; p++) sink += svc.establishment(ranked.slots[p]!, ranked.prefs, req).name.length;
  const t3 = performance.now();
  sink += ranked.count;
  const t4 = performance.now();
  sink += baseline(centres[q % centres.length]!);
  const t5 = performance.now();
  const t6 = performance.now();
  sink += engine.search(body, { limit: 20, now: NOW }).totalResults;
  const t7 = performance.now();
  q++;
  return [t1 - t0, t2 - t1, t3 - t2, t5 - t4, t7 - t6];
}
for (let k = 0; k < 2000; k++) phases();
const rows: number[][] = [];
for (let k = 0; k < 4000; k++) rows.push(phases());
const med = (j: number) => [...rows.map((x) => x[j]!)].sort((x, y) => x - y)[rows.length >> 1]! * 1000;
const [v, r, rec, b, whole] = [0, 1, 2, 3, 4].map(med) as [number, number, number, number, number];
console.log(`${kind} ${layout} n=${n}: validate ${v.toFixed(1)} µs, rank ${r.toFixed(1)} µs, 20 records ${rec.toFixed(1)} µs; whole search ${whole.toFixed(1)} µs; baseline ${b.toFixed(1)} µs; ratio ${(b / whole).toFixed(2)}`);
console.log(`sink ${sink}`);
