/**
 * POINT and PATH workloads alone (issue 4): `npx tsx bench/search.ts` (env VENUES=200000 for
 * a quicker run; default 1M). Same as `npm run bench -- --only point,path --sizes 1m`.
 */
import { runSuite } from './lib/suite.js';

await runSuite({
  label: 'search',
  quick: false,
  sizes: [Number(process.env.VENUES ?? 1_000_000)],
  scalingSizes: [],
  memorySize: 0,
  oramaMaxSize: 1_000_000,
  only: new Set(['point', 'path']),
  timeMs: 1000,
  httpSeconds: 0,
});
