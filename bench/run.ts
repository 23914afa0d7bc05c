/**
 * `npm run bench [-- --quick] [-- --only core,search] [-- --sizes 100k,1m]`
 * Runs the benchmark suite with tinybench and prints one table per workload; writes the
 * machine, Node version, parameters, medians, p99 and ratios as JSON to bench/results/.
 * `--quick` uses smaller data and shorter time budgets (under 2 minutes).
 */
import { parseArgs } from 'node:util';
import { coreWorkloads } from './workloads/core.js';
import { findWorkloads } from './find/find-workload.js';
import { parseSize } from './lib/dataset.js';
import { sink } from './lib/measure.js';
import { machine, printWorkload, writeResults, type WorkloadResult } from './lib/report.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    sizes: { type: 'string' },
  },
});
const quick = values.quick;
const sizes = (values.sizes ?? (quick ? '100k' : '100k,1m')).split(',').map(parseSize);
const only = values.only ? new Set(values.only.split(',')) : null;
const timeMs = quick ? 300 : 2000;

const m = machine();
process.stdout.write(`# venue-search benchmarks (${quick ? 'quick' : 'full'})\n${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}\n`);

const suites: Record<string, () => Promise<WorkloadResult[]>> = {
  core: () => coreWorkloads({ sizes, timeMs }),
  find: () => findWorkloads({ sizes, timeMs }),
};

const results: WorkloadResult[] = [];
for (const [name, run] of Object.entries(suites)) {
  if (only && !only.has(name)) continue;
  for (const r of await run()) {
    printWorkload(r);
    results.push(r);
  }
}
const path = writeResults(quick ? 'quick' : 'full', results, { sizes });
process.stdout.write(`\nresults: ${path}\n(sink ${sink.value})\n`);
