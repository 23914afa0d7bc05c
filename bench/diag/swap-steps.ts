/**
 * The main thread's steps of a live service's compaction swap (src/changelog/live-venues.ts),
 * each timed alone over the snapshot image a compaction worker hands over: finding the
 * restore's steps (restoreSnapshotInSteps), the search's creation. Best of 5 (the
 * machine is shared), ms. Also the header's size and where it goes.
 *
 *   npx tsc -p tsconfig.bench.json && node --max-old-space-size=12288 .tmp/bench-dist/bench/diag/swap-steps.js N
 *
 * Under the heavy lock from 100k.
 */
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { createEngine, type Engine } from '../../src/engine.js';
import { restoreSnapshot, restoreSnapshotInSteps } from '../../src/snapshot/read-snapshot.js';
import { snapshotImage } from '../../src/snapshot/write-snapshot.js';
import { BENCH_SEED } from '../lib/dataset.js';

const n = Number(process.argv[2] ?? 300_000);
const engine = createEngine(generateBenchVenues(n, BENCH_SEED), { validate: false });
engine.findStructures();
engine.learntPlaces();
const image = snapshotImage(engine);
const prepared = engine.searcher().prepared();
const headerAt = Buffer.from(image.buffer, image.byteOffset).readDoubleLE(8);
const headerLength = Buffer.from(image.buffer, image.byteOffset).readDoubleLE(16);
const header = JSON.parse(Buffer.from(image.subarray(headerAt, headerAt + headerLength)).toString('utf8')) as Record<string, unknown>;
console.log(`${n} venues: header ${headerLength} bytes; ${Object.entries(header).map(([k, v]) => `${k} ${JSON.stringify(v).length}`).join(', ')}`);

const best: Record<string, number> = {};
const time = <T>(name: string, run: () => T): T => {
  const t0 = performance.now();
  const v = run();
  best[name] = Math.min(best[name] ?? Infinity, performance.now() - t0);
  return v;
};
for (let round = 0; round < 5; round++) {
  const tree = engine.spatial.treeData.slice(0);
  const search = { termBits: prepared.termBits.slice(), vibeBits: prepared.vibeBits.slice(), occupiedCells: prepared.occupiedCells.slice() };
  const steps = restoreSnapshotInSteps(image, 'image', {}, { tree, search });
  const took: number[] = [];
  let fresh: Engine | undefined;
  while (fresh === undefined) {
    const t0 = performance.now();
    const r = steps.next();
    took.push(performance.now() - t0);
    if (r.done === true) fresh = r.value;
  }
  const f = fresh;
  console.log(`round ${round}: restore steps ${took.map((ms) => ms.toFixed(1)).join(' ')} ms`);

  for (const [k, ms] of took.entries()) best[`restore step ${k === took.length - 1 ? 'last' : k}`] = Math.min(best[`restore step ${k === took.length - 1 ? 'last' : k}`] ?? Infinity, ms);
  time('searcher', () => f.searcher());
  time('restoreSnapshot without handed-over parts', () => restoreSnapshot(image, 'image'));
}
for (const [k, v] of Object.entries(best)) console.log(`${k}: ${v.toFixed(2)} ms`);
