/**
 * The fair meeting point workload alone (issue 15): `npx tsx bench/fair.ts` (env VENUES=200000
 * for a quicker run; default 1M). Same as `npm run bench -- --only fair --sizes 1m`.
 */
import { runSuite } from './lib/suite.js';

await runSuite({
  label: 'fair',
  quick: false,
  sizes: [Number(process.env.VENUES ?? 1_000_000)],
  scalingSizes: [],
  memorySize: 0,
  oramaMaxSize: 1_000_000,
  only: new Set(['fair']),
  timeMs: 1000,
  httpSeconds: 0,
});
