/**
 * `npx tsx bench/world-chart.ts`: the world-scale scaling chart (issue 19) from the committed
 * runs of bench/children/world-scale-child.ts, bench/results/world-scale-<size>.ndjson
 * (100k, 1m, 10m: generated venues around every town of the world), written to
 * bench/results/world-scaling.svg, and a Markdown table of every figure per size (build,
 * warm, memory, snapshot write and fresh-process load, query medians) on stdout.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { repoPath } from './lib/paths.js';
import { scalingSvg } from './lib/scaling-chart.js';

/** The query rows of a run's "queries" step, by the key prefix the child writes. */
const QUERIES = ['POINT 1 km', 'PATH 10 km / 200 m', 'find, 5 km centre', 'find, no centre'] as const;
const SIZES = ['100k', '1m', '10m'] as const;

type Step = Record<string, number | string | boolean>;

function stepsOf(size: string): Map<string, Step> | null {
  const file = repoPath('bench', 'results', `world-scale-${size}.ndjson`);
  if (!existsSync(file)) return null;
  const steps = new Map<string, Step>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const step = JSON.parse(line) as Step;
    steps.set(String(step.step), step);
  }
  return steps;
}

const runs = SIZES.map((size) => ({ size, steps: stepsOf(size) })).filter((r): r is { size: (typeof SIZES)[number]; steps: Map<string, Step> } => r.steps !== null);
if (runs.length === 0) throw new Error('no bench/results/world-scale-*.ndjson: run bench/children/world-scale-child.ts first');

const venuesOf = (steps: Map<string, Step>): number => Number(steps.get('build')?.n ?? steps.get('generate')?.n);
const num = (steps: Map<string, Step>, step: string, key: string): number | undefined => {
  const v = steps.get(step)?.[key];
  return typeof v === 'number' ? v : undefined;
};

const svg = scalingSvg(
  QUERIES.map((q) => ({
    name: q,
    points: runs.flatMap((r) => {
      const us = num(r.steps, 'queries', `${q} median us`);
      return us === undefined ? [] : [{ venues: venuesOf(r.steps), us }];
    }),
  })),
  'venue-search, world data: median latency by dataset size',
  'generated venues around every town of the world (bench/children/world-scale-child.ts); medians of 200 calls',
);
writeFileSync(repoPath('bench', 'results', 'world-scaling.svg'), svg);

const megabytes = (bytes: number | undefined): number | undefined => (bytes === undefined ? undefined : bytes / 1e6);
const fmt = (v: number | undefined, digits: number, unit: string): string => (v === undefined ? 'not run' : `${v.toFixed(digits)} ${unit}`);
const rows: string[] = ['| venues | build | warm | whole engine | snapshot write | snapshot file | fresh process: spawn to search + find | loaded engine | POINT 1 km | PATH 10 km | find 5 km | find, no centre |', '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|'];
for (const r of runs) {
  const s = r.steps;
  rows.push(
    [
      venuesOf(s).toLocaleString('en-GB'),
      fmt(num(s, 'build', 'buildSeconds'), 1, 's'),
      fmt(num(s, 'build', 'warmSeconds'), 1, 's'),
      fmt(num(s, 'build', 'wholeEngineBytesPerVenue'), 0, 'B/venue'),
      fmt(num(s, 'snapshot write', 'writeSeconds'), 2, 's'),
      fmt(megabytes(num(s, 'snapshot write', 'fileBytes')), 0, 'MB'),
      fmt(num(s, 'snapshot load, fresh process', 'spawnToSearchAndFindSeconds'), 2, 's'),
      fmt(num(s, 'snapshot load, fresh process', 'loadedEngineBytesPerVenue'), 0, 'B/venue'),
      ...QUERIES.map((q) => fmt(num(s, 'queries', `${q} median us`), 0, 'µs')),
    ]
      .join(' | ')
      .replace(/^(.*)$/, '| $1 |'),
  );
}
process.stdout.write(`${rows.join('\n')}\n`);
