/**
 * Find workloads alone: `npx tsx bench/find.ts [--sizes 100k,1m] [--quick]` (same as
 * `npm run bench -- --only find`; 1M needs a large heap: run through `npm run bench`).
 */
import { parseArgs } from 'node:util';
import { parseSize } from './lib/dataset.js';
import { runSuite } from './lib/suite.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, sizes: { type: 'string' } } });
await runSuite({
  label: 'find',
  quick: values.quick,
  sizes: (values.sizes ?? (values.quick ? '100k' : '1m')).split(',').map(parseSize),
  scalingSizes: [],
  memorySize: 0,
  oramaMaxSize: 0,
  only: new Set(['find']),
  timeMs: values.quick ? 200 : 1000,
  httpSeconds: 0,
});
