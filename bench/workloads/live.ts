/**
 * Live data (issue 17) in the full run: bench/live.ts run as a child process (its engines
 * take ~12 GB at 1M: a process of their own, as the memory workload has), at `size` venues,
 * with `timeMs` per task and round of its search comparison. Its JSON
 * (bench/results/live-<size>.json) becomes this workload's figures; the goal rows of issue 17
 * (bench/lib/goals.ts) read them.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sizeLabel } from '../lib/dataset.js';
import { W } from '../lib/goals.js';
import { LIVE_FIGURES, LIVE_SEARCHES } from '../lib/live-figures.js';
import { COMPILED, repoPath } from '../lib/paths.js';
import type { WorkloadResult } from '../lib/report.js';

/** What bench/live.ts writes (the parts the figures read). */
interface LiveRun {
  readonly upsert1000?: { medianMs: number; p99Ms: number; firstMs: number; firstAfterCompactionMs?: number; at50kPendingMedianMs: number };
  readonly searchWithPending?: { pending: number; rows: Array<{ workload: string; liveMedianUs: number; compactedMedianUs: number; ratio: number; rebuiltMedianUs?: number }> };
  readonly compaction?: Record<string, number>;
}

function liveScript(): string[] {
  const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
  return COMPILED ? [join(bench, 'live.js')] : ['--import', 'tsx', join(bench, 'live.ts')];
}

/** Runs bench/live.ts in a child process with `nodeFlags` and `args`; returns what it wrote to bench/results/`out`. */
async function runLive(nodeFlags: readonly string[], args: readonly string[], out: string): Promise<LiveRun> {
  const argv = ['--expose-gc', '--max-old-space-size=12288', ...nodeFlags, ...liveScript(), ...args, '--out', out];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench/live exited with ${String(code)}`))));
  });
  return JSON.parse(readFileSync(repoPath('bench', 'results', out), 'utf8')) as LiveRun;
}

/**
 * The live bench at `size`, then its compaction part again in a process started with
 * `--single-threaded-gc` (each thread collects its own heap, none on V8's shared background
 * threads, as docs/updates.md advises for a service on two cores): the stall with Node's
 * defaults and with that setting.
 */
export async function liveWorkload(size: number, timeMs: number): Promise<WorkloadResult> {
  const run = await runLive([], ['--size', sizeLabel(size), '--time-ms', String(timeMs)], `live-${sizeLabel(size)}.json`);
  const ownThreadGc = await runLive(['--single-threaded-gc'], ['--size', sizeLabel(size), '--only', 'compaction'], `live-${sizeLabel(size)}-single-threaded-gc.json`);
  const figures: Record<string, number> = {};
  const u = run.upsert1000;
  if (u) {
    figures[LIVE_FIGURES.upsertMedian] = u.medianMs;
    figures[LIVE_FIGURES.upsertP99] = u.p99Ms;
    figures['upsert of 1,000 venues at ~50,000 pending, median of 10 (ms)'] = u.at50kPendingMedianMs;
    figures['first upsert after a build (ms)'] = u.firstMs;
    if (u.firstAfterCompactionMs !== undefined) figures['first upsert after a compaction (ms)'] = u.firstAfterCompactionMs;
  }
  for (const r of run.searchWithPending?.rows ?? []) {
    const name = LIVE_SEARCHES[r.workload as keyof typeof LIVE_SEARCHES] ?? r.workload;
    figures[LIVE_FIGURES.ratio(name)] = r.ratio;
    figures[`search with ~50,000 changes pending, ${name}, median (us)`] = r.liveMedianUs;
    figures[`search compacted, ${name}, median (us)`] = r.compactedMedianUs;
    if (r.rebuiltMedianUs !== undefined) {
      figures[`search rebuilt from scratch over the current records, ${name}, median (us)`] = r.rebuiltMedianUs;
      figures[`search with ~50,000 changes pending / rebuilt from scratch, ${name} (x)`] = r.liveMedianUs / r.rebuiltMedianUs;
    }
  }
  const c = run.compaction;
  if (c) {
    const put = (name: string, key: string) => {
      if (typeof c[key] === 'number' && Number.isFinite(c[key])) figures[name] = c[key];
    };
    put(LIVE_FIGURES.compactionCpu, 'phase.cpuMs');
    put(LIVE_FIGURES.compactionWorker, 'workerBuildMs');
    put(LIVE_FIGURES.compactionTotal, 'totalMs');
    put(LIVE_FIGURES.largestStall, 'largestQueryStallMs');
    put(LIVE_FIGURES.quietStall, 'quietLargestGapMs');
    put(LIVE_FIGURES.largestSwapStep, 'phase.largestSwapStepMs');
    put('compaction: pending changes folded', 'pendingBefore');
    // Not in the compaction's time: the worker applied the batches once each was logged.
    put('compaction worker: the log\'s batches applied as they were logged, before the compaction (ms)', 'workerLogApplyMs');
  }
  const stallOwnThreadGc = ownThreadGc.compaction?.['largestQueryStallMs'];
  if (typeof stallOwnThreadGc === 'number') {
    figures[LIVE_FIGURES.largestStallSingleThreadedGc] = stallOwnThreadGc;
    figures[LIVE_FIGURES.quietStallSingleThreadedGc] = ownThreadGc.compaction!['quietLargestGapMs']!;
  }
  return { workload: W.live, params: { venues: sizeLabel(size), pending: '45 batches of 1,000 upserts + 5,000 removals', searchTimeMs: timeMs }, timings: [], figures };
}
