/**
 * Cold start from the data file: a fresh child process (compiled JS, as `npm run bench`
 * runs; node + tsx when the bench runs from sources) that reads and validates the NDJSON file, builds the engine and answers one POINT
 * search with preferences. Timed from spawn to the answer line on stdout, in the parent;
 * the child reports its phases. Beside it: the same child with no data (node start and
 * the engine's imports), the floor any cold start pays.
 */
import { spawn } from 'node:child_process';
import type { BenchContext } from '../lib/context.js';
import { benchVenueFile } from '../lib/dataset.js';
import { median, type Timing } from '../lib/measure.js';
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
}

/** Spawns the child; resolves with the wall time to its first stdout line and the line. */
export function spawnTimed(args: readonly string[]): Promise<{ ms: number; answer: ChildAnswer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--max-old-space-size=12288', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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

export async function coldStartWorkload(ctx: BenchContext): Promise<WorkloadResult> {
  const file = await benchVenueFile(ctx.n);
  const runs = ctx.quick ? 1 : ctx.n >= 1_000_000 ? 2 : 3;
  // readVenues at 1 and at 2 threads, alternated; createEngine is synchronous (one thread).
  const full: Record<number, number[]> = { 1: [], 2: [] };
  const empty: number[] = [];
  const phases: Record<number, { read: number; build: number; answer: number; imports: number }> = {
    1: { read: 0, build: 0, answer: 0, imports: 0 },
    2: { read: 0, build: 0, answer: 0, imports: 0 },
  };
  let totalResults = 0;
  for (let k = 0; k < runs; k++) {
    for (const threads of [1, 2]) {
      const r = await spawnTimed([...CHILD, file, `--threads=${threads}`]);
      full[threads]!.push(r.ms);
      const a = r.answer;
      const p = phases[threads]!;
      p.imports += a.imported / runs;
      p.read += (a.read! - a.imported) / runs;
      p.build += (a.built! - a.read!) / runs;
      p.answer += (a.answered! - a.built!) / runs;
      totalResults = a.totalResults!;
    }
    empty.push((await spawnTimed([...CHILD, '--empty'])).ms);
  }
  return {
    workload: 'cold start from the data file',
    params: { venues: ctx.label, file: 'NDJSON', runs, 'p99 column': 'slowest run', threads: 'readVenues at 1 and 2 threads, alternated' },
    timings: [
      timingOf('ours: spawn -> read + validate + build -> first POINT answer (readVenues 1 thread)', full[1]!),
      timingOf('ours: spawn -> read + validate + build -> first POINT answer (readVenues 2 threads)', full[2]!),
      timingOf(`node${COMPILED ? '' : ' + tsx'} start and the engine imports only (no data)`, empty),
    ],
    figures: {
      'child: start + imports (ms)': (phases[1]!.imports + phases[2]!.imports) / 2,
      'child: read + validate NDJSON, 1 thread (ms)': phases[1]!.read,
      'child: read + validate NDJSON, 2 threads (ms)': phases[2]!.read,
      'child: build engine (ms)': (phases[1]!.build + phases[2]!.build) / 2,
      'child: first search, structures built lazily (ms)': (phases[1]!.answer + phases[2]!.answer) / 2,
    },
    checks: { 'first answer': `${totalResults} matches (POINT 1 km + preferences, Charing Cross)` },
  };
}
