/**
 * HTTP load alone (issue 6): `npx tsx bench/http-load.ts` (env HTTP_BENCH_SECONDS=5).
 * Same as `npm run bench -- --only http`; see bench/workloads/http-load.ts.
 */
import { runSuite } from './lib/suite.js';

await runSuite({
  label: 'http-load',
  quick: false,
  sizes: [],
  scalingSizes: [],
  memorySize: 0,
  oramaMaxSize: 0,
  only: new Set(['http']),
  timeMs: 1000,
  httpSeconds: Number(process.env.HTTP_BENCH_SECONDS ?? 5),
});
