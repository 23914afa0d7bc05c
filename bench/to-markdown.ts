/**
 * Renders a results JSON (default bench/results/latest-full.json) as Markdown tables, the
 * form docs/performance.md quotes: `npx tsx bench/to-markdown.ts [file]`.
 */
import { readFileSync } from 'node:fs';
import type { Timing } from './lib/measure.js';
import { repoPath } from './lib/paths.js';
import type { GoalStatus } from './lib/goals.js';
import { fmt, type Machine, type WorkloadResult } from './lib/report.js';

const file = process.argv[2] ?? repoPath('bench', 'results', 'latest-full.json');
const run = JSON.parse(readFileSync(file, 'utf8')) as { mode: string; date: string; machine: Machine; loadAverage?: number[]; runSeconds?: number; goalSize?: string; goals?: GoalStatus[]; results: WorkloadResult[] };
const out: string[] = [];
const m = run.machine;
out.push(`Run: ${run.mode}, ${run.date}; ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}` + (run.loadAverage ? `; load average at the end ${run.loadAverage.map((x) => x.toFixed(1)).join(' ')}` : '') + (run.runSeconds ? `; ${run.runSeconds} s` : ''));
if (run.goals) {
  out.push('', `#### Goals of issues 2, 4, 5 and 6 (${run.goalSize} venues)`, '', '| issue | goal | measured | met |', '|--:|:--|:--|:--|');
  for (const g of run.goals) out.push(`| ${g.issue} | ${g.goal} | ${g.measured} | ${g.met === null ? 'not run' : g.met ? 'yes' : '**no**'} |`);
}
for (const r of run.results) {
  const params = Object.entries(r.params).map(([k, v]) => `${k} ${String(v)}`).join(', ');
  out.push('', `#### ${r.workload} (${params})`, '');
  if (r.timings.length > 0) {
    const ours = r.timings[0]!.medianUs;
    out.push('| task | median | p99 | × ours |', '|:--|--:|--:|--:|');
    for (const t of r.timings as Timing[]) out.push(`| ${t.name} | ${time(t.medianUs)} | ${time(t.p99Us)} | ${t === r.timings[0] ? '1' : (t.medianUs / ours).toFixed(2)} |`);
  }
  if (r.table) {
    out.push(`| ${r.table.header.join(' | ')} |`, `|:--|${r.table.header.slice(1).map(() => '--:').join('|')}|`);
    for (const row of r.table.rows) out.push(`| ${row.join(' | ')} |`);
  }
  const notes = [
    ...Object.entries(r.figures ?? {}).map(([k, v]) => `${k}: ${Number.isInteger(v) ? v : v.toFixed(2)}`),
    ...Object.entries(r.checks ?? {}).map(([k, v]) => `check, ${k}: ${v}`),
  ];
  if (notes.length > 0) out.push('', ...notes.map((n) => `- ${n}`));
}
process.stdout.write(`${out.join('\n')}\n`);

function time(us: number): string {
  return us >= 10_000 ? `${(us / 1000).toFixed(0)} ms` : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${fmt(us)} µs`;
}
