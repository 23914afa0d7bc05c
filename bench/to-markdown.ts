/**
 * Renders a results JSON (default bench/results/latest-full.json) as Markdown tables, the
 * form docs/performance.md holds: `npx tsx bench/to-markdown.ts [file]`. (bench/write-docs.ts
 * writes them into the documents.)
 */
import { readFileSync } from 'node:fs';
import { renderGoals, renderWorkloads, type BenchRun } from './lib/docs.js';
import { repoPath } from './lib/paths.js';

const file = process.argv[2] ?? repoPath('bench', 'results', 'latest-full.json');
const run = JSON.parse(readFileSync(file, 'utf8')) as BenchRun;
process.stdout.write(`${renderGoals(run)}\n\n${renderWorkloads(run)}\n`);
