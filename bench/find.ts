/**
 * Find bench: name search at 1M venues, with and without a 5 km centre, beside MiniSearch
 * (prefix search, AND) and two naive baselines, in one run. `npx tsx bench/find.ts`
 * (env VENUES=200000 for a quicker run). Prints a table; writes bench/results/find.json.
 *
 * Workloads (seeded): 400 partial-name queries taken from venue names ("red li": a whole
 * word plus a prefix of the next, or one word prefix of 3+ letters), 200 typo queries
 * (one letter of a 6+ letter word dropped), centres at random venues (so density follows
 * the venues). Results are checked against the naive scans OUTSIDE the timed loops.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import MiniSearch from 'minisearch';
import { Bench } from 'tinybench';
import { createEngine } from '../src/engine.js';
import { createFindService } from '../src/find/find.js';
import { OPTIONAL_QUERY_WORDS, nameTokens } from '../src/find/normalize-name.js';
import { HitBuffer } from '../src/spatial/hit-buffer.js';
import { Rng } from '../scripts/fixtures/random.js';
import { benchVenues } from './find/bench-venues.js';

const N = Number(process.env.VENUES ?? 1_000_000);
const RADIUS = 5000;
const log = (s: string) => process.stdout.write(`${s}\n`);

let t = performance.now();
const venues = benchVenues(N, 42);
log(`generated ${N} venues in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const engine = createEngine(venues, { validate: false });
t = performance.now();
const find = createFindService(engine.store, engine.spatial, { places: null });
const buildMs = performance.now() - t;
const bytesPerVenue = find.byteSize / N;
log(`find index build ${buildMs.toFixed(0)} ms, ${bytesPerVenue.toFixed(1)} bytes/venue, ${find.names.tokens.length} distinct words`);

// ---- baselines
// Naive: names pre-normalised into " word word" strings once; a query word matches a name
// word prefix when " " + word occurs in it. Same normaliser as the index (fair semantics).
const padded = venues.map((v) => ` ${nameTokens(v.name).join(' ')}`);
function queryWords(q: string): string[] {
  const w = nameTokens(q);
  const s = w.filter((x) => !OPTIONAL_QUERY_WORDS.has(x));
  return [...new Set(s.length > 0 ? s : w)].map((x) => ` ${x}`);
}
function naiveScan(q: string): number[] {
  const words = queryWords(q);
  const out: number[] = [];
  for (let i = 0; i < padded.length; i++) {
    const s = padded[i]!;
    let ok = true;
    for (const w of words) if (!s.includes(w)) { ok = false; break; }
    if (ok) out.push(i);
  }
  return out;
}
const hits = new HitBuffer();
/** Location first, then names (the 3.4 ms baseline): radius query, test each name, sort by distance. */
function locationFirst(q: string, lat: number, lon: number): { i: number; d: number }[] {
  const words = queryWords(q);
  const n = engine.spatial.withinRadius(lat, lon, RADIUS, hits);
  const out: { i: number; d: number }[] = [];
  for (let h = 0; h < n; h++) {
    const s = padded[hits.idx[h]!]!;
    let ok = true;
    for (const w of words) if (!s.includes(w)) { ok = false; break; }
    if (ok) out.push({ i: hits.idx[h]!, d: hits.dist[h]! });
  }
  out.sort((a, b) => a.d - b.d || (venues[a.i]!.id < venues[b.i]!.id ? -1 : 1));
  return out;
}
t = performance.now();
const fold = (term: string) => term.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const mini = new MiniSearch<{ id: number; name: string }>({ fields: ['name'], idField: 'id', processTerm: fold, searchOptions: { processTerm: fold } });
mini.addAll(venues.map((v, i) => ({ id: i, name: v.name })));
const miniBuildMs = performance.now() - t;
log(`MiniSearch build ${miniBuildMs.toFixed(0)} ms`);

// ---- workloads
const rng = new Rng(7);
const partial: string[] = [];
const typos: string[] = [];
while (partial.length < 400) {
  const words = nameTokens(venues[Math.floor(rng.next() * N)]!.name).filter((w) => !OPTIONAL_QUERY_WORDS.has(w));
  if (words.length === 0) continue;
  if (words.length >= 2 && rng.chance(0.5)) partial.push(`${words[0]} ${words[1]!.slice(0, 2 + Math.floor(rng.next() * (words[1]!.length - 1)))}`);
  else {
    const w = words[Math.floor(rng.next() * words.length)]!;
    if (w.length >= 3) partial.push(w.slice(0, 3 + Math.floor(rng.next() * (w.length - 2))));
  }
}
while (typos.length < 200) {
  const words = nameTokens(venues[Math.floor(rng.next() * N)]!.name).filter((w) => w.length >= 6);
  if (words.length === 0) continue;
  const w = words[0]!;
  const k = 1 + Math.floor(rng.next() * (w.length - 1));
  typos.push(w.slice(0, k) + w.slice(k + 1));
}
const centres = Array.from({ length: 400 }, () => {
  const v = venues[Math.floor(rng.next() * N)]!;
  return { lat: v.location.coordinates[0], lon: v.location.coordinates[1] };
});

// ---- correctness, outside the timed loops
let checked = 0;
for (let k = 0; k < partial.length; k++) {
  const q = partial[k]!;
  const expected = naiveScan(q);
  const got = find.find({ q, limit: 20 }, 0);
  if (got.totalFound !== expected.length) throw new Error(`no-centre total differs for ${JSON.stringify(q)}: ${got.totalFound} vs naive ${expected.length}`);
  const set = new Set(expected.map((i) => venues[i]!.id));
  for (const e of got.establishments) if (!set.has(e.id)) throw new Error(`${e.id} is not a naive match of ${JSON.stringify(q)}`);
  const c = centres[k]!;
  const near = locationFirst(q, c.lat, c.lon);
  const gotNear = find.find({ q, lat: c.lat, lon: c.lon, maxDistanceMeters: RADIUS, limit: 20 }, 0);
  if (gotNear.totalFound !== near.length) throw new Error(`centre total differs for ${JSON.stringify(q)}: ${gotNear.totalFound} vs ${near.length}`);
  const ids = near.slice(0, 20).map((h) => venues[h.i]!.id);
  if (JSON.stringify(ids) !== JSON.stringify(gotNear.establishments.map((e) => e.id))) throw new Error(`centre page differs for ${JSON.stringify(q)}`);
  checked++;
}
let typoFound = 0;
for (const q of typos) if (find.find({ q }, 0).totalFound > 0) typoFound++;
log(`checked ${checked} queries against the naive scans (totals and pages equal); typo queries with results: ${typoFound}/${typos.length}`);

// ---- timed
let sink = 0;
let a = 0;
let b = 0;
let c = 0;
let d = 0;
let e = 0;
let f = 0;
let g = 0;
let h = 0;
const bench = new Bench({ time: 2000, warmupTime: 300 });
bench
  .add('find, no centre (ours)', () => { sink += find.find({ q: partial[a++ % partial.length]!, limit: 20 }, 0).totalFound; })
  .add('MiniSearch prefix AND, no centre', () => { sink += mini.search(partial[b++ % partial.length]!, { prefix: true, combineWith: 'AND' }).length; })
  .add('naive scan, no centre', () => { sink += naiveScan(partial[c++ % partial.length]!).length; })
  .add('find, 5 km centre (ours)', () => {
    const k = d++ % partial.length;
    const ce = centres[k]!;
    sink += find.find({ q: partial[k]!, lat: ce.lat, lon: ce.lon, maxDistanceMeters: RADIUS, limit: 20 }, 0).totalFound;
  })
  .add('location first then names, 5 km', () => {
    const k = e++ % partial.length;
    sink += locationFirst(partial[k]!, centres[k]!.lat, centres[k]!.lon).length;
  })
  .add('MiniSearch then distance filter, 5 km', () => {
    const k = f++ % partial.length;
    const ce = centres[k]!;
    let n = 0;
    for (const r of mini.search(partial[k]!, { prefix: true, combineWith: 'AND' })) {
      const v = venues[r.id as number]!;
      if (Math.abs(v.location.coordinates[0] - ce.lat) < 0.05 && Math.abs(v.location.coordinates[1] - ce.lon) < 0.08) n++;
    }
    sink += n;
  })
  .add('find, typo (ours)', () => { sink += find.find({ q: typos[g++ % typos.length]!, limit: 20 }, 0).totalFound; })
  .add('MiniSearch fuzzy 0.2, typo', () => { sink += mini.search(typos[h++ % typos.length]!, { prefix: true, fuzzy: 0.2, combineWith: 'AND' }).length; });
bench.runSync();

const rows = bench.tasks.map((task) => {
  const r = task.result as { latency?: { p50?: number; p99?: number; mean: number }; runtime?: string };
  return { task: task.name, medianMs: r.latency?.p50 ?? NaN, p99Ms: r.latency?.p99 ?? NaN, samples: task.runs };
});
const median = (name: string) => rows.find((r) => r.task === name)!.medianMs;
const ratio = (x: string, y: string) => median(y) / median(x);
log(`\n${N.toLocaleString('en-GB')} venues, ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
log('| task | median ms | p99 ms | runs |');
log('|---|---:|---:|---:|');
for (const r of rows) log(`| ${r.task} | ${r.medianMs.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${r.samples} |`);
const summary = {
  venues: N,
  machine: os.cpus()[0]?.model,
  node: process.version,
  indexBuildMs: Math.round(buildMs),
  bytesPerVenue: Number(bytesPerVenue.toFixed(1)),
  miniSearchBuildMs: Math.round(miniBuildMs),
  speedupNoCentreVsMiniSearch: ratio('find, no centre (ours)', 'MiniSearch prefix AND, no centre'),
  speedupNoCentreVsNaive: ratio('find, no centre (ours)', 'naive scan, no centre'),
  speedupCentreVsLocationFirst: ratio('find, 5 km centre (ours)', 'location first then names, 5 km'),
  rows,
  sink,
};
log(`\nspeed-ups (median): ${summary.speedupNoCentreVsMiniSearch.toFixed(1)}x MiniSearch, ${summary.speedupNoCentreVsNaive.toFixed(1)}x naive scan (no centre); ${summary.speedupCentreVsLocationFirst.toFixed(1)}x location-first (5 km)`);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/find.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
