import type { WorkloadResult } from './report.js';

/** One goal of issues 2, 4, 5 and 6, with the figure measured in this run. */
export interface GoalStatus {
  readonly issue: number;
  readonly goal: string;
  readonly measured: string;
  /** null when the run did not include the workload. */
  readonly met: boolean | null;
}

const ms = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`);

/**
 * The goals stated in issues 2, 4, 5 and 6, checked against the workloads at `size`
 * venues (the goals are stated for 1M generated venues).
 */
export function evaluateGoals(results: readonly WorkloadResult[], size: string): GoalStatus[] {
  const at = (name: string) => results.find((r) => r.workload === name && (r.params.venues === size || name.startsWith('HTTP')));
  const median = (r: WorkloadResult | undefined, task: string) => r?.timings.find((t) => t.name.startsWith(task))?.medianUs;
  const out: GoalStatus[] = [];
  const push = (issue: number, goal: string, value: number | undefined, test: (v: number) => boolean, show: (v: number) => string) =>
    out.push({ issue, goal, measured: value === undefined ? 'not run' : show(value), met: value === undefined ? null : test(value) });

  const load = at('load + build');
  const f = load?.figures ?? {};
  const s = (key: string) => `${((f[key] ?? 0) / 1000).toFixed(1)} s`;
  push(
    2,
    `load + build of ${size} venues under 2 s (from a snapshot; the NDJSON path reported beside it)`,
    f['snapshot: load + first POINT search (ms)'],
    (v) => v < 2000,
    (v) =>
      `snapshot, fresh process: ${(v / 1000).toFixed(2)} s to load and answer the first search (spawn to answer ${s('snapshot: restart, spawn -> first answer (ms)')}; written once in ${s('snapshot: write, once (ms)')}); ` +
      `from NDJSON: ${s('load + build total (ms)')} (read + validate ${s('read + validate NDJSON (ms)')}, build ${s('build store + spatial index (ms)')})`,
  );
  push(2, 'search-path store + index under 150 bytes per venue', load?.figures?.['search-path bytes per venue (store columns + index)'], (v) => v < 150, (v) => `${v.toFixed(1)} B`);
  const point = at('POINT 1 km, central London');
  const spatial = median(point, 'ours: spatial index only');
  const kd = median(point, 'raw kdbush');
  push(2, '1 km radius query beside raw kdbush (reported; ours no slower)', spatial !== undefined && kd !== undefined ? kd / spatial : undefined, (v) => v >= 1, (v) => `spatial index ${ms(spatial!)} vs raw kdbush ${ms(kd!)} (${v.toFixed(2)}x)`);
  const prefs = median(point, 'ours: POINT 1 km + preferences');
  push(4, 'POINT 1 km + preferences, limit 20: median under 0.2 ms', prefs, (v) => v < 200, ms);
  push(4, 'POINT 1 km + preferences no slower than raw kdbush + distance filter', prefs !== undefined && kd !== undefined ? kd / prefs : undefined, (v) => v >= 1, (v) => `ours ${ms(prefs!)} vs raw kdbush ${ms(kd!)} (kdbush/ours ${v.toFixed(2)})`);
  for (const [name, label] of [
    ['PATH 10 km / 200 m, through London', 'PATH 10 km / 200 m'],
    ['PATH 290 km / 1 km, London - Manchester', 'PATH 290 km / 1 km'],
  ] as const) {
    const r = at(name);
    const ours = median(r, 'ours');
    const turf = median(r, 'turf');
    push(4, `${label}: at least 20x faster than turf.buffer + point-in-polygon`, ours !== undefined && turf !== undefined ? turf / ours : undefined, (v) => v >= 20, (v) => `${v.toFixed(1)}x (ours ${ms(ours!)}, turf ${ms(turf!)})`);
  }
  const fair = at('fair meeting point, 4 people over London');
  for (const f of ['MIN_MAX', 'MIN_TOTAL'] as const) {
    const ours = median(fair, `ours: ${f}`);
    const scanned = median(fair, `brute-force scan of every venue, same costs (${f})`);
    const centre = median(fair, 'CENTRE search');
    push(15, `${f}, 4 people, 4 km: at least 50x faster than a brute-force scan`, ours !== undefined && scanned !== undefined ? scanned / ours : undefined, (v) => v >= 50, (v) => `${v.toFixed(0)}x (ours ${ms(ours!)}, scan ${ms(scanned!)})`);
    push(15, `${f}: no slower than 1.5x a CENTRE search returning as many venues`, ours !== undefined && centre !== undefined ? ours / centre : undefined, (v) => v <= 1.5, (v) => `${v.toFixed(2)}x (ours ${ms(ours!)}, CENTRE ${ms(centre!)})`);
  }
  push(5, 'find without a centre: median under 2 ms', median(at('find by partial name, no centre'), 'find, no centre'), (v) => v < 2000, ms);
  push(5, 'find with a 5 km centre: median under 0.5 ms', median(at('find by partial name, 5 km centre'), 'find, 5 km centre'), (v) => v < 500, ms);
  const http = at('HTTP load, loopback');
  const rows = http?.table?.data as Array<{ requestsPerSecond: number; p99Ms: number }> | undefined;
  push(6, 'HTTP POST /v1/search/ at least half the bare route\'s req/s', rows ? rows[1]!.requestsPerSecond / rows[0]!.requestsPerSecond : undefined, (v) => v >= 0.5, (v) => `${(v * 100).toFixed(0)} % (${rows![1]!.requestsPerSecond} vs ${rows![0]!.requestsPerSecond} req/s; p99 ${rows![1]!.p99Ms} vs ${rows![0]!.p99Ms} ms)`);
  return out;
}
