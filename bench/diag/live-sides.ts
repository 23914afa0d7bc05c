/**
 * Where a search with ~50,000 pending changes spends its time (issue 17): the live engine of
 * bench/live.ts's search part (45 batches of 1,000 upserts, 5,000 removals). Per query, in
 * turn: the whole live search, the compacted one, the sides' ranks (the base, then each run)
 * with bare hidden bytes (every venue of the circle measured and ranked: before the
 * tombstone counts), the same with tombstones and the merge's shared bound (each side timed),
 * and the compacted engine's rank. Repeated; medians per query set.
 *
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-dist/bench/diag/live-sides.js [N=300000] [reps=5]
 *
 * Under the heavy lock from 100k.
 */
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { seededRandom } from '../../scripts/fixtures/random.js';
import { createEngine, type Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { checkSearchRequest } from '../../src/search/search-service.js';
import type { Tombstones } from '../../src/spatial/tombstones.js';
import { WorstOfBest } from '../../src/spatial/worst-of-best.js';
import { BENCH_SEED } from '../lib/dataset.js';
import { median } from '../lib/measure.js';
import { cityRoutes, NOW, pathBody, pointBody, pointCentres, PREFS } from '../lib/queries.js';

const n = Number(process.argv[2] ?? 300_000);
const reps = Number(process.argv[3] ?? 5);
const venues = generateBenchVenues(n, BENCH_SEED);
const rnd = seededRandom(17);
let nextId = 0;
function changed(r: VenueRecord, id: string, k: number): VenueRecord {
  const [lat, lon] = r.location.coordinates;
  return { ...r, id, name: `${r.name} ${k % 7 === 0 ? 'Tap' : 'House'}`, location: { type: 'Point', coordinates: [lat + ((k % 13) - 6) * 1e-4, lon + ((k % 11) - 5) * 1e-4] }, catersFlags: k % 3 === 0 ? ['vegan'] : [] };
}
function batch(): VenueRecord[] {
  const out: VenueRecord[] = [];
  const used = new Set<string>();
  while (out.length < 1000) {
    const r = venues[Math.floor(rnd() * venues.length)]!;
    if (out.length % 2 === 0) {
      if (used.has(r.id)) continue;
      used.add(r.id);
      out.push(changed(r, r.id, out.length));
    } else out.push(changed(r, `live-${nextId++}`, out.length));
  }
  return out;
}
const engine = createEngine(venues, { validate: false }).warm();
const upsertMs: number[] = [];
for (let b = 0; b < 45; b++) {
  const x = batch();
  const t0 = performance.now();
  engine.upsert(x);
  upsertMs.push(performance.now() - t0);
}
const removeIds = new Set<string>();
while (removeIds.size < 5000) removeIds.add(venues[Math.floor(rnd() * venues.length)]!.id);
engine.remove([...removeIds]);
const compacted = createEngine([...engine.currentRecords()], { validate: false }).warm();
const live = (engine as unknown as { live: { sides: Array<{ engine: Engine; live: number; tombstones: Tombstones }> } }).live;
const sides = live.sides;
console.log(`pending ${engine.pendingChanges}; upsert median ${median(upsertMs.slice(1)).toFixed(2)} ms; sides: ${sides.map((s) => `${s.engine.store.size}/${s.live}`).join(' ')}`);
const sets = {
  pointPrefs: pointCentres().map((c) => pointBody(c, 1000, PREFS)),
  point: pointCentres().map((c) => pointBody(c, 1000)),
  path: cityRoutes().map((r) => pathBody(r, 100)),
};
let sink = 0;
for (const [name, list] of Object.entries(sets)) {
  const tLive: number[] = [];
  const tComp: number[] = [];
  const tBytes: number[] = [];
  const tMerged: number[] = [];
  const tSideBound: number[][] = sides.map(() => []);
  const tCompRank: number[] = [];
  const bound = new WorstOfBest();
  for (let r = 0; r < reps; r++) {
    for (const body of list) {
      let t0 = performance.now();
      sink += engine.search(body, { now: NOW, limit: 20 }).totalResults;
      tLive.push(performance.now() - t0);
      t0 = performance.now();
      sink += compacted.search(body, { now: NOW, limit: 20 }).totalResults;
      tComp.push(performance.now() - t0);
      const req = checkSearchRequest(body, { now: NOW, limit: 20 });
      // before: bare bytes, each side ranked alone (every venue of the circle measured and ranked)
      for (const s of sides) s.engine.searcher().hide(s.tombstones.bytes);
      let t3 = performance.now();
      for (const s of sides) sink += s.engine.searcher().rank(req, 20, false).count;
      tBytes.push(performance.now() - t3);
      // after: tombstones and the shared bound (as LiveChanges.search ranks)
      for (const s of sides) s.engine.searcher().hide(s.tombstones);
      t3 = performance.now();
      bound.reset(20);
      sides.forEach((s, k) => {
        const t4 = performance.now();
        sink += s.engine.searcher().rank(req, 20, false, bound).count;
        tSideBound[k]!.push(performance.now() - t4);
      });
      tMerged.push(performance.now() - t3);
      t3 = performance.now();
      sink += compacted.searcher().rank(req, 20, false).count;
      tCompRank.push(performance.now() - t3);
    }
  }
  const us = (xs: number[]) => (median(xs) * 1000).toFixed(1);
  console.log(`${name}: live ${us(tLive)} us, compacted ${us(tComp)} us (${(median(tLive) / median(tComp)).toFixed(3)}x); sides' rank with bare bytes ${us(tBytes)} us; with tombstones and the shared bound ${us(tMerged)} us (${tSideBound.map(us).join(' + ')}), compacted rank ${us(tCompRank)} us`);
}
console.log(`sink ${sink}`);
