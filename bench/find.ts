/**
 * Standalone find bench: `npx tsx bench/find.ts [--sizes 100k,1m] [--quick]` (1M needs
 * NODE_OPTIONS=--max-old-space-size=8192 because MiniSearch holds ~1.5 GB). Prints the
 * tables and writes bench/results/latest-find.json. The workloads are in
 * bench/find/find-workload.ts (also runnable from the suite, bench/run.ts).
 */
import { parseArgs } from 'node:util';
import { parseSize } from './lib/dataset.js';
import { sink } from './lib/measure.js';
import { machine, printWorkload, writeResults } from './lib/report.js';
import { findWorkloads } from './find/find-workload.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, sizes: { type: 'string' } } });
const sizes = (values.sizes ?? (values.quick ? '100k' : '1m')).split(',').map(parseSize);
const m = machine();
process.stdout.write(`# find bench\n${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}\n`);
const results = await findWorkloads({ sizes, timeMs: values.quick ? 300 : 2000 });
for (const r of results) printWorkload(r);
const path = writeResults('find', results, { sizes });
process.stdout.write(`\nresults: ${path}\n(sink ${sink.value})\n`);
