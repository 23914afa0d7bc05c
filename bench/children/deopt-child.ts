/**
 * Deopt-check child (bench/workloads/deopt-check.ts): run with `node --trace-deopt
 * --expose-gc`. Builds an engine over argv[2] generated bench venues, then runs every search
 * and find workload in rounds, with a full collection before each call (the live regime's
 * worst case: a major GC between any two queries). Prints `# round K` markers on stdout so
 * the parent can tell deopts during warm-up (round 0) from repeats (later rounds).
 */
import { createEngine } from '../../src/engine.js';
import { benchVenues } from '../lib/dataset.js';
import { liveCalls } from '../lib/live-calls.js';

const n = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 6);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('deopt child: run node with --expose-gc');
const engine = createEngine(benchVenues(n), { validate: false }).warm();
const calls = liveCalls(engine);
let sink = 0;
for (let round = 0; round < rounds; round++) {
  process.stdout.write(`# round ${round}\n`);
  for (const [name, fn] of calls) {
    for (let k = 0; k < (round === 0 ? 200 : 5); k++) {
      if (round > 0) gc();
      const t0 = performance.now();
      sink += fn();
      const ms = performance.now() - t0;
      if (round > 0 && k === 0) process.stdout.write(`# ${name}: ${ms.toFixed(2)} ms after gc\n`);
    }
  }
}
process.stdout.write(`# done ${sink}\n`);
