/**
 * `npx tsx bench/write-docs.ts [results.json]`: writes the generated blocks of README.md
 * (performance summary) and docs/performance.md (goals, every workload) from a results JSON
 * (default bench/results/latest-full.json). test/bench/performance-docs.test.ts fails when
 * the committed documents differ from what this writes from the committed JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { applyGenerated, performanceDocBlocks, readmeBlocks, type BenchRun } from './lib/docs.js';
import { repoPath } from './lib/paths.js';

const file = process.argv[2] ?? repoPath('bench', 'results', 'latest-full.json');
const run = JSON.parse(readFileSync(file, 'utf8')) as BenchRun;
for (const [doc, blocks] of [
  [repoPath('README.md'), readmeBlocks(run)],
  [repoPath('docs', 'performance.md'), performanceDocBlocks(run)],
] as const) {
  const before = readFileSync(doc, 'utf8');
  const after = applyGenerated(before, blocks);
  if (after !== before) writeFileSync(doc, after);
  process.stdout.write(`${doc}: ${after === before ? 'unchanged' : 'written'}\n`);
}
