/**
 * The first find naming a place after a change (issue 17), on an engine read from a snapshot
 * as a service starts: N bench venues given the fixtures' addresses in turn (so that every
 * venue has one, and "London" and Leeds are named by many), written to a snapshot, then one
 * process per mode reads it, warms it (`plain`: `warm()`; `forChanges`: `warm({ forChanges:
 * true })`), upserts 10 venues and finds near a place. Prints the warm, the upsert and the
 * find, wall time. Run the modes alternated, one process each:
 *
 *   npx tsc -p tsconfig.bench.json && ln -sfn ../../data .tmp/bench-dist/data   # the gazetteer, read beside the code
 *   node .tmp/bench-dist/bench/diag/first-place-find.js write [N=1000000]
 *   node .tmp/bench-dist/bench/diag/first-place-find.js plain|forChanges [N=1000000]
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { benchVenues } from '../lib/dataset.js';
import { repoPath } from '../lib/paths.js';

const mode = process.argv[2] ?? 'plain';
const n = Number(process.argv[3] ?? 1_000_000);
const path = repoPath('.tmp', 'bench', `first-place-find-${n}.vsnap`);
const addresses = readFileSync(repoPath('fixtures', 'venues.ndjson'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as VenueRecord).formattedAddress)
  .filter((a): a is string => a !== undefined);

if (mode === 'write') {
  const venues = benchVenues(n, 'spread').map((r, k) => ({ ...r, formattedAddress: addresses[k % addresses.length]! }));
  writeSnapshot(createEngine(venues, { validate: false }).warm(), path);
  console.log(`wrote ${path}`);
} else {
  if (!existsSync(path)) throw new Error(`${path}: run with "write" first`);
  const t0 = performance.now();
  const engine = readSnapshot(path);
  const t1 = performance.now();
  engine.warm({ forChanges: mode === 'forChanges' });
  const t2 = performance.now();
  const changed = benchVenues(10, 'spread').map((r, k) => ({ ...r, id: `changed-${k}`, formattedAddress: addresses[k]! }));
  engine.upsert(changed);
  const t3 = performance.now();
  const found = engine.find({ q: 'the', location: 'Leeds', maxDistanceMeters: 5000 });
  const t4 = performance.now();
  const again = engine.find({ q: 'red', location: 'Leeds', maxDistanceMeters: 5000 });
  const t5 = performance.now();
  const ms = (a: number, b: number) => `${(b - a).toFixed(0)} ms`;
  console.log(
    `${mode} N=${n}: read ${ms(t0, t1)}, warm ${ms(t1, t2)}, upsert of 10 ${ms(t2, t3)}, first find naming a place ${ms(t3, t4)} (${found.totalFound}), the next ${ms(t4, t5)} (${again.totalFound}); heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
  );
}
