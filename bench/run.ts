/**
 * `npm run bench [-- --quick] [-- --only point,find] [-- --sizes 100k,1m] [-- --scaling 10k,100k]`
 * Runs the benchmark suite with tinybench and prints one table per workload; writes the
 * machine, Node version, parameters, medians, p99 and ratios as JSON to bench/results/
 * (latest-full.json is the one kept in git) and the scaling chart to bench/results/scaling.svg.
 * `--label NAME`: results go to bench/results/latest-NAME.json (default: quick, full, or
 * quick-partial / full-partial when a subset was asked; the JSON records what ran).
 * `--trace-deopt`: only the deopt check (a child under node --trace-deopt; fails on a deopt loop).
 * `--quick`: 100k venues (scaling 10k and 100k), short time budgets, under 2 minutes.
 * Groups for --only: load, point, path, fair, find, details, cold, scaling, memory, http, deopt, dense, scaleout, live
 * (live: bench/live.ts in a child process at the largest size, its figures and the goal rows of issue 17).
 */
import { parseArgs } from 'node:util';
import { parseSize } from './lib/dataset.js';
import { GROUPS, runSuite, type Group } from './lib/suite.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    sizes: { type: 'string' },
    scaling: { type: 'string' },
    'trace-deopt': { type: 'boolean', default: false },
    label: { type: 'string' },
  },
});
const quick = values.quick;
const list = (s: string) => s.split(',').map(parseSize);
let only: Set<Group> | null = null;
if (values['trace-deopt']) only = new Set(['deopt']);
else if (values.only) {
  only = new Set();
  for (const g of values.only.split(',')) {
    if (!(GROUPS as readonly string[]).includes(g)) throw new Error(`unknown group ${JSON.stringify(g)}: use ${GROUPS.join(', ')}`);
    only.add(g as Group);
  }
}
const partial = only !== null || values.sizes !== undefined || values.scaling !== undefined;
await runSuite({
  label: values.label ?? `${quick ? 'quick' : 'full'}${partial ? '-partial' : ''}`,
  quick,
  sizes: list(values.sizes ?? (quick ? '100k' : '100k,1m')),
  scalingSizes: list(values.scaling ?? (quick ? '10k,100k' : '10k,100k,1m,5m')),
  memorySize: quick ? 100_000 : 1_000_000,
  deoptSize: quick ? 100_000 : 300_000,
  oramaMaxSize: 1_000_000,
  only,
  timeMs: quick ? 200 : 1000,
  httpSeconds: quick ? 2 : 5,
  sharedEnginesSize: quick ? 100_000 : 300_000,
});
