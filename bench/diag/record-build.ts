/**
 * Cost of one response record (issue 16), alternated in one process: the pages of the PATH
 * 10 km and POINT 1 km workloads are collected, then their venues' records are built
 * (a) from the compact bytes into one fixed shape (what search does: RecordSource.fields +
 * establishmentOf) and (b) from the decoded record (toEstablishment(store.record(i))), with
 * the record cache cold (`cold`) or as left by the previous round.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .tmp/bench-dist/bench/diag/record-build.js N
 */
import { createEngine } from '../../src/engine.js';
import { establishmentOf, toEstablishment } from '../../src/details/establishment-record.js';
import { EstablishmentFields } from '../../src/store/establishment-fields.js';
import { benchVenues } from '../lib/dataset.js';
import { NOW, cityRoutes, pathBody, pointBody, pointCentres } from '../lib/queries.js';

const n = Number(process.argv[2] ?? 100_000);
const gen = benchVenues(n, 'spread');
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
const store = engine.store;
const pages: number[] = [];
for (const body of [...cityRoutes().map((r) => pathBody(r, 200)), ...pointCentres().map((c) => pointBody(c, 1000))]) {
  for (const e of engine.search(body, { limit: 20, now: NOW }).establishments) pages.push(store.indexOf(e.id));
}
const venues = Int32Array.from(pages);
const fields = new EstablishmentFields();
let sink = 0;
// The group view of the last search's request (a PATH), for the cost of `describe` per record.
const searcher = engine.searcher() as unknown as { group: { describe(i: number, along: number, off: number, withGroup: boolean): { count: number } } };
engine.search(pathBody(cityRoutes()[0]!, 200), { limit: 20, now: NOW });
const ways: Array<readonly [string, () => void]> = [
  ['fields only', () => {
    for (let k = 0; k < venues.length; k++) {
      store.source.fields(venues[k]!, fields);
      sink += fields.lat;
    }
  }],
  ['fields only, one venue (hot caches)', () => {
    const v = venues[0]!;
    for (let k = 0; k < venues.length; k++) {
      store.source.fields(v, fields);
      sink += fields.lat;
    }
  }],
  ['store.id + store.name', () => {
    for (let k = 0; k < venues.length; k++) sink += store.id(venues[k]!).length + store.name(venues[k]!).length;
  }],
  ['group.describe (PATH, 4 vertices)', () => {
    for (let k = 0; k < venues.length; k++) sink += searcher.group.describe(venues[k]!, 100, 50, false).count;
  }],
  ['fields + establishmentOf (search)', () => {
    for (let k = 0; k < venues.length; k++) {
      store.source.fields(venues[k]!, fields);
      sink += establishmentOf(fields, 1, false).additionalGenres.length;
    }
  }],
  ['toEstablishment(store.record(i))', () => {
    for (let k = 0; k < venues.length; k++) sink += toEstablishment(store.record(venues[k]!), 1, false).additionalGenres.length;
  }],
];
if (process.argv[3] !== undefined) ways.splice(0, ways.length, ...ways.filter(([name]) => name.includes(process.argv[3]!)));
const samples = ways.map(() => [] as number[]);
for (let round = 0; round < 40; round++) {
  ways.forEach(([, f], w) => {
    const c = process.cpuUsage();
    f();
    const u = process.cpuUsage(c);
    samples[w]!.push(((u.user + u.system) * 1e3) / venues.length);
  });
}
ways.forEach(([name], w) => {
  const s = samples[w]!.slice(5).sort((a, b) => a - b);
  console.log(`${name.padEnd(36)} median ${s[s.length >> 1]!.toFixed(0)} ns per record, CPU time (${venues.length} records a round)`);
});
console.log(`sink ${sink}`);
