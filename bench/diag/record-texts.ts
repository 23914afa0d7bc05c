/**
 * Cost of a response record's values read from the compact bytes (`RecordSource.fields`,
 * what every search result is built from), on records shaped like real ones: the bundled
 * fixtures (address, e-mail, phone, image URL, word on the street, menus) copied `copies`
 * times under new ids, so the bytes do not sit in the CPU caches, beside the bench's own
 * venues (an id and a name as their only texts). Random venues, CPU time per record.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .tmp/bench-dist/bench/diag/record-texts.js [copies]
 */
import { readFileSync } from 'node:fs';
import { createEngine } from '../../src/engine.js';
import { establishmentOf } from '../../src/details/establishment-record.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { EstablishmentFields } from '../../src/store/establishment-fields.js';
import { Rng } from '../../scripts/fixtures/random.js';
import { benchVenues } from '../lib/dataset.js';
import { repoPath } from '../lib/paths.js';

const copies = Number(process.argv[2] ?? 100);
const fixtures = readFileSync(repoPath('fixtures', 'venues.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as VenueRecord);
const real: VenueRecord[] = [];
for (let c = 0; c < copies; c++) for (const r of fixtures) real.push({ ...r, id: `${r.id}-c${c}` });
const sets: Array<readonly [string, VenueRecord[]]> = [
  [`fixtures x ${copies}`, real],
  ['bench venues (spread)', benchVenues(real.length, 'spread')],
];
const PER_ROUND = 8000;
const fields = new EstablishmentFields();
let sink = 0;
const engines = sets.map(([name, records]) => {
  const engine = createEngine(records, { validate: false });
  const rng = new Rng(11);
  const order = Int32Array.from({ length: PER_ROUND * 8 }, () => rng.int(0, records.length - 1));
  records.length = 0;
  return { name, engine, order };
});
const samples = engines.map(() => [] as number[]);
for (let round = 0; round < 40; round++) {
  engines.forEach(({ engine, order }, w) => {
    const source = engine.store.source;
    const from = (round % 8) * PER_ROUND;
    const c = process.cpuUsage();
    for (let k = from; k < from + PER_ROUND; k++) {
      source.fields(order[k]!, fields);
      sink += establishmentOf(fields, 1, false).name.length;
    }
    const u = process.cpuUsage(c);
    samples[w]!.push(((u.user + u.system) * 1e3) / PER_ROUND);
  });
}
engines.forEach(({ name }, w) => {
  const s = samples[w]!.slice(5).sort((a, b) => a - b);
  console.log(`fields + establishmentOf, ${name.padEnd(22)} median ${s[s.length >> 1]!.toFixed(0)} ns per record, CPU time (${PER_ROUND} random records a round)`);
});
console.log(`sink ${sink}`);
