import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Timing } from './measure.js';
import { repoPath } from './paths.js';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
}

export function machine(): Machine {
  const c = cpus();
  return {
    cpu: c[0]?.model.trim() ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

export interface WorkloadResult {
  readonly workload: string;
  /** Dataset and parameters, e.g. `{venues: 1000000, radiusMeters: 1000}`. */
  readonly params: Record<string, unknown>;
  /** Timed tasks; the first is ours, the others are baselines (ratio = baseline / ours). */
  readonly timings: Timing[];
  /**
   * Our rows again in the live regime (measureLive: churn between calls, a full collection
   * every few calls), each timed alone.
   */
  readonly live?: Timing[];
  /** One-off figures (build time, bytes per venue, ...). */
  readonly figures?: Record<string, number>;
  /** Equality checks made outside the timed loop, with what they compared. */
  readonly checks?: Record<string, string>;
  /** A table of its own (e.g. HTTP req/s), printed as is; `data` goes to the JSON. */
  readonly table?: { readonly header: string[]; readonly rows: string[][]; readonly data?: unknown };
}

/** Median ratio of each task to the first (ours): > 1 means the task is slower than ours. */
export function ratios(r: WorkloadResult): Record<string, number> {
  const ours = r.timings[0]?.medianUs;
  const out: Record<string, number> = {};
  if (ours === undefined) return out;
  for (const t of r.timings.slice(1)) out[t.name] = t.medianUs / ours;
  return out;
}

/** Prints a workload as a table: median, p99 and each row's ratio to the first (ours). */
export function printWorkload(r: WorkloadResult): void {
  const params = Object.entries(r.params).map(([k, v]) => `${k}=${String(v)}`).join(', ');
  process.stdout.write(`\n## ${r.workload} (${params})\n`);
  if (r.timings.length > 0) {
    const ours = r.timings[0]!.medianUs;
    const rows = r.timings.map((t) => [t.name, fmt(t.medianUs), fmt(t.p99Us), fmt(t.p999Us ?? Number.NaN), t === r.timings[0] ? '1.00' : (t.medianUs / ours).toFixed(2)]);
    printTable(['task (steady)', 'median µs', 'p99 µs', 'p99.9 µs', 'x slower than ours'], rows);
  }
  if (r.live && r.live.length > 0) {
    const rows = r.live.map((t) => [t.name, fmt(t.medianUs), fmt(t.p99Us), fmt(t.p999Us), (t.p99Us / t.medianUs).toFixed(2)]);
    printTable(['task (live)', 'median µs', 'p99 µs', 'p99.9 µs', 'p99 / p50'], rows);
  }
  if (r.table) printTable(r.table.header, r.table.rows);
  for (const [k, v] of Object.entries(r.figures ?? {})) process.stdout.write(`  ${k}: ${Number.isInteger(v) ? v : v.toFixed(2)}\n`);
  for (const [k, v] of Object.entries(r.checks ?? {})) process.stdout.write(`  check ${k}: ${v}\n`);
}

/** Prints a Markdown table; the first column is left-aligned, the others right-aligned unless `leftColumns` says otherwise. */
export function printTable(header: string[], rows: string[][], leftColumns = 1): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const left = (i: number) => i < leftColumns;
  const line = (cells: string[]) => `| ${cells.map((c, i) => (left(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |\n`;
  process.stdout.write(line(header));
  process.stdout.write(`|${widths.map((w, i) => (left(i) ? ':' : '-') + '-'.repeat(w) + (left(i) ? '-' : ':')).join('|')}|\n`);
  for (const r of rows) process.stdout.write(line(r));
}

export function fmt(us: number): string {
  return us >= 100 ? us.toFixed(0) : us >= 1 ? us.toFixed(2) : us.toFixed(3);
}

/** Writes the run as JSON to bench/results/<name>.json and bench/results/latest-<mode>.json. */
export function writeResults(mode: string, results: WorkloadResult[], extra: Record<string, unknown> = {}): string {
  const dir = pathToFileURL(`${repoPath('bench', 'results')}/`);
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const withRatios = results.map((r) => ({ ...r, ratios: ratios(r) }));
  const body = JSON.stringify({ mode, date: new Date().toISOString(), machine: machine(), loadAverage: loadavg(), ...extra, results: withRatios }, null, 2);
  const path = new URL(`${stamp}-${mode}.json`, dir);
  writeFileSync(path, body);
  writeFileSync(new URL(`latest-${mode}.json`, dir), body);
  return path.pathname;
}
