/**
 * POINT search cost, A/B in one process (issue 16): this tree's engine and another compiled
 * tree's (a copy of .tmp/bench-dist made before a change) are built over the same bench
 * venues, then blocks of 4,000 searches alternate between them, timed by the process's CPU
 * time (on a shared machine wall time also counts waiting for a core, and separate processes
 * differ by 10 % or more from run to run). Three kinds of POINT 1 km search with limit 20:
 * the bench's preferences with vegan non-compromise (hard), the same soft, and none.
 * Swapping the two trees' order checks the harness's own bias (about 2 %). `path`: the bench's
 * PATH 10 km / 200 m and 290 km / 1 km corridors instead (blocks of 400 for the long one).
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .tmp/bench-dist/bench/diag/search-ab.js BASE_DIST [N=300000] [spread|town-centres] [rounds=20] [point|path]
 *   (BASE_DIST: a copy of .tmp/bench-dist inside the repository, so its packages resolve: cp -r .tmp/bench-dist .tmp/bench-base before the change)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { benchVenues } from '../lib/dataset.js';
import { collectGarbage, median } from '../lib/measure.js';
import { NOW, PREFS, cityRoutes, intercityRoutes, pathBody, pointBody, pointCentres } from '../lib/queries.js';

type Build = (venues: readonly VenueRecord[], options: { validate: boolean }) => Engine;

if (process.argv[2] === undefined) throw new Error('usage: search-ab.js BASE_DIST [N] [spread|town-centres] [rounds]');
const baseDir = resolve(process.argv[2]);
const n = Number(process.argv[3] ?? 300_000);
const layout = (process.argv[4] ?? 'town-centres') as 'spread' | 'town-centres';
const rounds = Number(process.argv[5] ?? 20);
const shape = process.argv[6] ?? 'point';
if (shape !== 'point' && shape !== 'path') throw new Error(`search-ab: shape ${shape}: expected point or path`);
/** Searches per timed block. */
const BLOCK = 4000;
/** Rounds run before timing starts (warm-up of both trees' code). */
const WARM_ROUNDS = 2;

const base = (await import(pathToFileURL(`${baseDir}/src/engine.js`).href)) as { createEngine: Build };
let venues: VenueRecord[] = benchVenues(n, layout);
const engines: Array<readonly [string, Engine]> = [
  ['base', base.createEngine(venues, { validate: false }).warm()],
  ['this', createEngine(venues, { validate: false }).warm()],
];
// eslint-disable-next-line no-useless-assignment -- drops the records so the collector frees them before the timed blocks
venues = [];
collectGarbage();
const centres = pointCentres();
/** Kinds of search: name, bodies, searches per timed block. */
const kinds: Array<readonly [string, object[], number]> =
  shape === 'point'
    ? [
        ['POINT 1 km, hard (vegan non-compromise + soft preferences)', centres.map((c) => pointBody(c, 1000, PREFS)), BLOCK],
        ['POINT 1 km, soft preferences', centres.map((c) => pointBody(c, 1000, { ...PREFS, nonCompromise: [] })), BLOCK],
        ['POINT 1 km, nothing asked', centres.map((c) => pointBody(c, 1000)), BLOCK],
      ]
    : [
        ['PATH 10 km / 200 m', cityRoutes().map((r) => pathBody(r, 200)), BLOCK],
        ['PATH 290 km / 1 km', intercityRoutes().map((r) => pathBody(r, 1000)), BLOCK / 10],
      ];
let sink = 0;
for (const [kind, bodies, block] of kinds) {
  const cpuUs = new Map<string, number[]>(engines.map(([name]) => [name, []]));
  for (let round = 0; round < rounds + WARM_ROUNDS; round++) {
    for (const [name, engine] of round % 2 === 0 ? engines : [...engines].reverse()) {
      const c0 = process.cpuUsage();
      for (let k = 0; k < block; k++) sink += engine.search(bodies[k % bodies.length]!, { limit: 20, now: NOW }).totalResults;
      const c = process.cpuUsage(c0);
      if (round >= WARM_ROUNDS) cpuUs.get(name)!.push((c.user + c.system) / block);
    }
  }
  const b = median(cpuUs.get('base')!);
  const t = median(cpuUs.get('this')!);
  console.log(`${kind}, ${layout} ${n}: base ${b.toFixed(1)} us, this ${t.toFixed(1)} us (CPU per search, median of ${rounds} blocks); this/base ${(t / b).toFixed(3)}`);
}
console.log(`sink ${sink}`);
