/**
 * The performance figures of README.md and docs/performance.md, rendered from a results
 * JSON (bench/results/latest-full.json): the documents hold them between generated-block
 * markers, `bench/write-docs.ts` writes them, and test/bench/performance-docs.test.ts fails
 * when the committed documents differ from what this renders from the committed JSON. Pure:
 * no I/O.
 */
import type { GoalStatus } from './goals.js';
import { W } from './goals.js';
import type { Timing } from './measure.js';
import { fmt, type Machine, type WorkloadResult } from './report.js';

export interface BenchRun {
  readonly mode: string;
  readonly date: string;
  readonly machine: Machine;
  readonly loadAverage?: number[];
  readonly runSeconds?: number;
  readonly goalSize?: string;
  readonly goals?: GoalStatus[];
  readonly results: WorkloadResult[];
}

export function time(us: number): string {
  return us >= 10_000 ? `${(us / 1000).toFixed(0)} ms` : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${fmt(us)} µs`;
}

function runLine(run: BenchRun): string {
  const m = run.machine;
  return (
    `Run: ${run.mode}, ${run.date}; ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}` +
    (run.loadAverage ? `; load average at the end ${run.loadAverage.map((x) => x.toFixed(1)).join(' ')}` : '') +
    (run.runSeconds ? `; ${run.runSeconds} s` : '')
  );
}

/** The goals table (issue, goal, regime and data, measured, met). */
export function renderGoals(run: BenchRun): string {
  const out = [runLine(run), ''];
  if (!run.goals) return out.concat('(this run recorded no goals)').join('\n');
  out.push(`Goals at ${run.goalSize} venues:`, '', '| issue | goal | regime, data | measured | met |', '|--:|:--|:--|:--|:--|');
  for (const g of run.goals) out.push(`| ${g.issue} | ${g.goal} | ${g.regime ?? ''} | ${g.measured} | ${g.met === null ? 'not run' : g.met ? 'yes' : '**no**'} |`);
  return out.join('\n');
}

/** Every workload as Markdown tables: steady rows (median, p99, p99.9, x ours), live rows, figures, checks. */
export function renderWorkloads(run: BenchRun): string {
  const out: string[] = [runLine(run)];
  for (const r of run.results) {
    const params = Object.entries(r.params).map(([k, v]) => `${k} ${String(v)}`).join(', ');
    out.push('', `#### ${r.workload} (${params})`, '');
    if (r.timings.length > 0) {
      const ours = r.timings[0]!.medianUs;
      out.push('| task (steady) | median | p99 | p99.9 | × ours |', '|:--|--:|--:|--:|--:|');
      for (const t of r.timings as Timing[]) out.push(`| ${t.name} | ${time(t.medianUs)} | ${time(t.p99Us)} | ${t.p999Us === undefined ? '–' : time(t.p999Us)} | ${t === r.timings[0] ? '1' : (t.medianUs / ours).toFixed(2)} |`);
    }
    if (r.live && r.live.length > 0) {
      out.push('', '| task (live) | median | p99 | p99.9 | p99 / p50 |', '|:--|--:|--:|--:|--:|');
      for (const t of r.live) out.push(`| ${t.name} | ${time(t.medianUs)} | ${time(t.p99Us)} | ${time(t.p999Us)} | ${(t.p99Us / t.medianUs).toFixed(2)} |`);
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
  return out.join('\n');
}

/** The README's summary table: ours against the alternatives, each row naming its regime and data. */
export function renderReadme(run: BenchRun): string {
  const size = run.goalSize ?? '1M';
  const at = (name: string) => run.results.find((r) => r.workload === name && r.params.venues === size);
  const med = (r: WorkloadResult | undefined, prefix: string) => r?.timings.find((t) => t.name.startsWith(prefix))?.medianUs;
  const rows: string[][] = [];
  const vs = (r: WorkloadResult | undefined, prefix: string, label: string) => {
    const ours = r?.timings[0]?.medianUs;
    const theirs = med(r, prefix);
    return ours !== undefined && theirs !== undefined ? `${label} ${time(theirs)} (${(theirs / ours).toFixed(2)}x ours)` : `${label}: not run`;
  };
  const live = (r: WorkloadResult | undefined) => {
    const t = r?.live?.[0];
    return t ? `${time(t.medianUs)} / ${time(t.p99Us)} / ${time(t.p999Us)}` : 'not run';
  };
  const add = (label: string, data: string, r: WorkloadResult | undefined, against: string) => {
    const ours = r?.timings[0]?.medianUs;
    rows.push([label, data, ours === undefined ? 'not run' : time(ours), live(r), against]);
  };
  const soft = at(W.denseSoft);
  add(`POINT 1 km, soft preferences, 20 records (${soft?.params.meanVenuesInCircle ?? '?'} venues in the circle)`, 'town centres', soft, vs(soft, 'kdbush', 'kdbush range + exact distance filter'));
  const hard = at(W.denseHard);
  add('POINT 1 km, vegan non-compromise, 20 records', 'town centres', hard, vs(hard, 'kdbush', 'kdbush + caters column + distance'));
  const point = at(W.point);
  add(`POINT 1 km + preferences, 20 records (${point?.params.meanVenuesInCircle ?? '?'} venues in the circle)`, 'spread', point, vs(point, 'raw kdbush', 'raw kdbush + distance (not like for like: our hard filter skips venues)'));
  for (const name of [W.city, W.intercity, W.long]) {
    const r = at(name);
    add(`${name.replace(/^PATH /, 'PATH ')}, 20 records (${r?.params.meanVenuesInCorridor ?? '?'} venues in the corridor)`, 'spread', r, vs(r, 'turf', 'turf.buffer + point-in-polygon'));
  }
  const ld = at(W.longDense);
  add(`PATH London - Manchester, 100 vertices, 1 km, 20 records (${ld?.params.meanVenuesInCorridor ?? '?'} venues in the corridor)`, 'town centres', ld, 'turf: timed on spread data only (row above)');
  const fnc = at(W.findNoCentre);
  add('find by partial name, no centre', 'spread', fnc, vs(fnc, 'MiniSearch', 'MiniSearch prefix AND'));
  const fc = at(W.findCentre);
  add('find by partial name within 5 km', 'spread', fc, vs(fc, 'location first', 'location first, then names'));
  const out = [
    `From the full run recorded in [bench/results/latest-full.json](bench/results/latest-full.json), ${run.date.slice(0, 10)}: ${run.machine.cpu}, ${run.machine.cores} cores, Node ${run.machine.node}, ${size} generated venues. ` +
      'Steady: alternated rounds of back-to-back calls, median. Live: each call timed alone after a service\'s allocation churn, with a full garbage collection before every 100th call (p50 / p99 / p99.9). ' +
      'Data: "spread" scatters venues around every GB town by population; "town centres" puts 65 % of them in town centres (a 1 km circle in central London holds thousands). ' +
      'Baselines ran on the same data in the same run, result sets checked against ours outside the timed loops.',
    '',
    `| workload at ${size} venues | data | ours, steady median | ours, live p50 / p99 / p99.9 | baseline, steady median, same data and run |`,
    '|:--|:--|--:|--:|:--|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  const load = at(W.load)?.figures;
  if (load) {
    const sec = (k: string) => (load[k] === undefined ? 'not run' : `${(load[k]! / 1000).toFixed(2)} s`);
    out.push(
      '',
      `Start at ${size} venues (one-off, spread data): createEngine from records ${sec('build store + spatial index (ms)')}, readVenues of the NDJSON file validated ${sec('read + validate NDJSON (ms)')}` +
        (load['read + validate NDJSON, 1 thread (ms)'] !== undefined ? ` (1 thread ${sec('read + validate NDJSON, 1 thread (ms)')}, 2 threads ${sec('read + validate NDJSON, 2 threads (ms)')})` : '') +
        (load['createEngineFromFile: read + validate + build NDJSON, 1 thread (ms)'] !== undefined
          ? `, createEngineFromFile (read, validate and build, the records never kept) ${sec('createEngineFromFile: read + validate + build NDJSON, 1 thread (ms)')} at 1 thread, ${sec('createEngineFromFile: read + validate + build NDJSON, 2 threads (ms)')} at 2`
          : '') +
        ', ' +
        `writeSnapshot ${sec('snapshot: write, once (ms)')}, spawn to first answer from a snapshot ${sec('snapshot: restart, spawn -> first answer (ms)')}` +
        (load['snapshot: fresh process, start -> a search and a find answered (ms)'] !== undefined ? `, a fresh process from its start to a search and a find answered from a snapshot ${sec('snapshot: fresh process, start -> a search and a find answered (ms)')}` : '') +
        '.',
    );
  }
  const missed = (run.goals ?? []).filter((g) => g.met === false);
  out.push('', missed.length === 0 ? 'Every goal in [docs/performance.md](docs/performance.md) is met in this run.' : `Goals not met in this run: ${missed.map((g) => `${g.goal} (${g.measured})`).join('; ')}. All goals: [docs/performance.md](docs/performance.md).`);
  return out.join('\n');
}

const START = (name: string) => `<!-- generated:${name} from bench/results/latest-full.json by bench/write-docs.ts; do not edit -->`;
const END = (name: string) => `<!-- end generated:${name} -->`;

/** `text` with the body of each generated block `name` replaced by `blocks[name]`; throws when a marker is missing. */
export function applyGenerated(text: string, blocks: Record<string, string>): string {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const a = out.indexOf(START(name));
    const b = out.indexOf(END(name));
    if (a < 0 || b < a) throw new Error(`generated block ${name} not found (markers ${START(name)} ... ${END(name)})`);
    out = `${out.slice(0, a + START(name).length)}\n${body}\n${out.slice(b)}`;
  }
  return out;
}

/** The blocks each document holds. */
export function readmeBlocks(run: BenchRun): Record<string, string> {
  return { 'performance-summary': renderReadme(run) };
}
export function performanceDocBlocks(run: BenchRun): Record<string, string> {
  return { 'performance-goals': renderGoals(run), 'performance-workloads': renderWorkloads(run) };
}

export const MARKERS = { start: START, end: END };
