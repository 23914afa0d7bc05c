/**
 * The deopt check: a child process (bench/children/deopt-child.ts) runs every search and
 * find workload under `node --trace-deopt --expose-gc`, warm-up round first, then rounds
 * with a full collection before each call. Every deoptimisation after the engine is built
 * is listed with its round, function and reason; the check FAILS (the bench throws) when a
 * function deoptimises in two or more rounds: a deopt loop, which a live process repeats
 * after each major collection.
 */
import { spawn } from 'node:child_process';
import { childScript } from '../lib/paths.js';
import type { WorkloadResult } from '../lib/report.js';
import { sizeLabel } from '../lib/dataset.js';

const CHILD = childScript('deopt-child');

export interface Deopt {
  readonly round: number;
  readonly fn: string;
  readonly reason: string;
}

/** The deopts in `trace` (stdout of the child with --trace-deopt) after its `# round 0` marker. */
export function parseDeopts(trace: string): Deopt[] {
  const out: Deopt[] = [];
  let round = -1;
  for (const line of trace.split('\n')) {
    const marker = /^# round (\d+)/.exec(line);
    if (marker) {
      round = Number(marker[1]);
      continue;
    }
    if (round < 0 || !line.includes('bailout (kind:')) continue;
    const fn = /deoptimizing 0x[0-9a-f]+ <JSFunction ([^ >]*)/.exec(line)?.[1] || '(anonymous)';
    const reason = /reason: ([^\]]*)\)?\]?/.exec(line)?.[1]?.replace(/\)?: begin\..*$/, '').replace(/\)$/, '') ?? 'unknown';
    out.push({ round, fn, reason });
  }
  return out;
}

/** Functions that deoptimise in two or more rounds. */
export function repeatedDeopts(deopts: readonly Deopt[]): string[] {
  const rounds = new Map<string, Set<number>>();
  for (const d of deopts) {
    const set = rounds.get(d.fn) ?? new Set();
    set.add(d.round);
    rounds.set(d.fn, set);
  }
  return [...rounds].filter(([, r]) => r.size >= 2).map(([fn, r]) => `${fn} (rounds ${[...r].sort().join(', ')})`);
}

export async function deoptCheckWorkload(n: number, rounds = 4): Promise<WorkloadResult> {
  const trace = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--expose-gc', '--trace-deopt', ...CHILD, String(n), String(rounds)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`deopt child exited with ${code}`))));
  });
  const deopts = parseDeopts(trace);
  const repeated = repeatedDeopts(deopts);
  const listed = new Map<string, number>();
  for (const d of deopts) listed.set(`round ${d.round}: ${d.fn}: ${d.reason}`, (listed.get(`round ${d.round}: ${d.fn}: ${d.reason}`) ?? 0) + 1);
  const afterGc = trace.split('\n').filter((l) => l.includes('ms after gc'));
  const result: WorkloadResult = {
    workload: 'deopt check: search and find, a full collection before each call',
    params: { venues: sizeLabel(n), rounds, 'calls per workload': '200 warm-up, then 5 per round' },
    timings: [],
    figures: { 'deopts after the build': deopts.length, 'functions deoptimised in 2+ rounds': repeated.length },
    checks: {
      'deopts (round: function: reason, count)': [...listed].map(([k, v]) => `${k} x${v}`).join('; ') || 'none',
      'repeated (a deopt loop)': repeated.join('; ') || 'none',
      'first call after a full collection (last round)': afterGc.slice(-6).map((l) => l.replace(/^# /, '')).join('; '),
    },
  };
  if (repeated.length > 0) throw Object.assign(new Error(`deopt check FAILED: deopt loop in ${repeated.join(', ')}`), { result });
  return result;
}
