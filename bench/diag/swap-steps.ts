/**
 * The main thread's steps of a live service's compaction swap (src/changelog/live-venues.ts),
 * each timed alone over the snapshot image a compaction worker hands over: finding the
 * restore's steps (restoreSnapshotInSteps), the search's creation. Best of 5 (the
 * machine is shared), ms. Also the header's size and where it goes.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc --max-old-space-size=12288 .tmp/bench-dist/bench/diag/swap-steps.js N
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

// What the restore leaves on the JS heap (what the main thread's next young-generation
// collections must copy): heap used after a full restore minus before, with a full
// collection before and after, without and with the running engine's name words to reuse
// (PrebuiltParts.nameTokens, as a compaction's swap passes them). Run with --expose-gc.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc !== undefined) {
  const nameTokens = engine.nameTokensIfBuilt();
  const kept: Record<string, number[]> = {};
  for (let round = 0; round < 5; round++) {
    for (const [label, prebuilt] of [['without the words to reuse', {}], ['with them', { nameTokens }]] as const) {
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      let restored: Engine | null = restoreSnapshot(image, 'image', {}, prebuilt);
      gc();
      (kept[label] ??= []).push(process.memoryUsage().heapUsed - before);
      if (restored.size !== n) throw new Error('restored a different engine');
      // eslint-disable-next-line no-useless-assignment -- drops the engine before the next round's measure
      restored = null;
    }
  }
  for (const [label, bytes] of Object.entries(kept)) {
    const sorted = bytes.sort((a, b) => a - b);
    console.log(`restore ${label}: median ${(sorted[2]! / 1e6).toFixed(2)} MB kept on the JS heap (of ${sorted.map((b) => (b / 1e6).toFixed(2)).join(', ')}; ${nameTokens.length} name words)`);
  }
}
