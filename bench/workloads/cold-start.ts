/**
 * Cold start from the data file: a fresh child process (compiled JS, as `npm run bench`
 * runs; node + tsx when the bench runs from sources) that reads and validates the NDJSON file, builds the engine and answers one POINT
 * search with preferences. Timed from spawn to the answer line on stdout, in the parent;
 * the child reports its phases. Beside it: the same child with no data (node start and
 * the engine's imports), the floor any cold start pays; and, where glibc honours it, the
 * 1-thread child with huge pages for its ArrayBuffers (bench/lib/huge-pages.ts), alternated
 * with the others.
 */
import { spawn } from 'node:child_process';
import type { BenchContext } from '../lib/context.js';
import { benchVenueFile } from '../lib/dataset.js';
import { W } from '../lib/goals.js';
import { median, type Timing } from '../lib/measure.js';
import { CHILD_BUILD, CHILD_HUGE_BUILD, HUGE_PAGES_ENV, HUGE_PAGES_SETTING, hugePagesApply } from '../lib/huge-pages.js';
import { COMPILED, childScript } from '../lib/paths.js';
import type { WorkloadResult } from '../lib/report.js';

const CHILD = childScript('cold-start-child');

interface ChildAnswer {
  imported: number;
  read?: number;
  built?: number;
  answered?: number;
  found?: number;
  totalResults?: number;
  digest?: string;
  /** Minor page faults of createEngine. */
  buildFaults?: number;
}

/**
 * Spawns the child (with `env` added to this process's environment); resolves with the wall
 * time to its first stdout line and the line.
 */
export function spawnTimed(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<{ ms: number; answer: ChildAnswer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--max-old-space-size=12288', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    let done = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0 && !done) {
        done = true;
        const ms = performance.now() - t0;
        resolve({ ms, answer: JSON.parse(out.slice(0, nl)) as ChildAnswer });
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!done) reject(new Error(`cold-start child exited with ${code} before answering`));
    });
  });
}

function timingOf(name: string, runs: number[]): Timing {
  const s = [...runs].sort((a, b) => a - b);
  return { name, medianUs: median(s) * 1000, p99Us: s[s.length - 1]! * 1000, p999Us: s[s.length - 1]! * 1000, meanUs: (s.reduce((x, y) => x + y, 0) / s.length) * 1000, samples: s.length };
}

/** The configurations of the NDJSON cold start: readVenues' threads, or 1 thread with huge pages. */
type ConfigKey = '1' | '2' | 'huge';

interface Phases {
  read: number;
  build: number;
  answer: number;
  imports: number;
  buildFaults: number;
}

function emptyPhases(): Phases {
  return { read: 0, build: 0, answer: 0, imports: 0, buildFaults: 0 };
}

const hugePagesLabel = `huge pages (${HUGE_PAGES_SETTING})`;

export async function coldStartWorkload(ctx: BenchContext): Promise<WorkloadResult> {
  const file = await benchVenueFile(ctx.n);
  const runs = ctx.quick ? 1 : ctx.n >= 1_000_000 ? 2 : 3;
  // readVenues at 1 and at 2 threads, and at 1 thread with huge pages where glibc honours
  // them, alternated; createEngine is synchronous (one thread).
  const configs: ReadonlyArray<{ readonly key: ConfigKey; readonly threads: number; readonly env: Readonly<Record<string, string>> }> = [
    { key: '1', threads: 1, env: {} },
    { key: '2', threads: 2, env: {} },
    ...(hugePagesApply() ? [{ key: 'huge' as const, threads: 1, env: HUGE_PAGES_ENV }] : []),
  ];
  const full: Record<ConfigKey, number[]> = { 1: [], 2: [], huge: [] };
  const empty: number[] = [];
  const phases: Record<ConfigKey, Phases> = { 1: emptyPhases(), 2: emptyPhases(), huge: emptyPhases() };
  let totalResults = 0;
  for (let k = 0; k < runs; k++) {
    for (const { key, threads, env } of k % 2 === 0 ? configs : [...configs].reverse()) {
      const r = await spawnTimed([...CHILD, file, `--threads=${threads}`], env);
      full[key].push(r.ms);
      const a = r.answer;
      const p = phases[key];
      p.imports += a.imported / runs;
      p.read += (a.read! - a.imported) / runs;
      p.build += (a.built! - a.read!) / runs;
      p.answer += (a.answered! - a.built!) / runs;
      p.buildFaults += a.buildFaults! / runs;
      totalResults = a.totalResults!;
    }
    empty.push((await spawnTimed([...CHILD, '--empty'])).ms);
  }
  const huge = full.huge.length > 0;
  return {
    workload: W.coldStart,
    params: {
      venues: ctx.label,
      file: 'NDJSON',
      runs,
      'p99 column': 'slowest run',
      threads: `readVenues at 1 and 2 threads${huge ? `, and at 1 thread with ${hugePagesLabel}` : ''}, alternated`,
    },
    timings: [
      timingOf('ours: spawn -> read + validate + build -> first POINT answer (readVenues 1 thread)', full[1]),
      timingOf('ours: spawn -> read + validate + build -> first POINT answer (readVenues 2 threads)', full[2]),
      ...(huge ? [timingOf(`ours: spawn -> read + validate + build -> first POINT answer (readVenues 1 thread, ${hugePagesLabel})`, full.huge)] : []),
      timingOf(`node${COMPILED ? '' : ' + tsx'} start and the engine imports only (no data)`, empty),
    ],
    figures: {
      'child: start + imports (ms)': (phases[1].imports + phases[2].imports) / 2,
      'child: read + validate NDJSON, 1 thread (ms)': phases[1].read,
      'child: read + validate NDJSON, 2 threads (ms)': phases[2].read,
      [CHILD_BUILD]: (phases[1].build + phases[2].build) / 2,
      'child: build engine, minor page faults': (phases[1].buildFaults + phases[2].buildFaults) / 2,
      'child: first search, structures built lazily (ms)': (phases[1].answer + phases[2].answer) / 2,
      ...(huge
        ? {
            'child, huge pages: read + validate NDJSON, 1 thread (ms)': phases.huge.read,
            [CHILD_HUGE_BUILD]: phases.huge.build,
            'child, huge pages: build engine, minor page faults': phases.huge.buildFaults,
          }
        : {}),
    },
    checks: { 'first answer': `${totalResults} matches (POINT 1 km + preferences, Charing Cross)` },
  };
}
