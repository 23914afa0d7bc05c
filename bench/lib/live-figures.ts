/** The live-data workload's figure names (bench/workloads/live.ts writes them, bench/lib/goals.ts reads them). */
export const LIVE_FIGURES = {
  upsertMedian: 'upsert of 1,000 venues, median over 29 batches, 1,000 to 30,000 pending (ms)',
  upsertP99: 'upsert of 1,000 venues, p99 (ms)',
  ratio: (workload: string) => `search with ~50,000 changes pending / compacted, ${workload} (x)`,
  compactionCpu: 'compaction: worker CPU time, fold the log into a new base, write, hand over (ms)',
  compactionWorker: 'compaction: worker wall time (ms)',
  compactionTotal: 'compaction: start to swap, wall (ms)',
  largestStall: 'compaction: largest gap between two searches of a query loop meanwhile (ms)',
  quietStall: 'the same query loop without a compaction: largest gap (ms)',
  /** The same compaction in a process started with `node --single-threaded-gc` (docs/updates.md advises it on two cores; runs from 2026-11-28 12:00 UTC on). */
  largestStallSingleThreadedGc: 'compaction, node --single-threaded-gc: largest gap between two searches of a query loop meanwhile (ms)',
  quietStallSingleThreadedGc: 'the same query loop without a compaction, node --single-threaded-gc: largest gap (ms)',
  /** The same with `node --v8-pool-size=1`, the advice of earlier runs (read from their results only). */
  largestStallOnePool: 'compaction, node --v8-pool-size=1: largest gap between two searches of a query loop meanwhile (ms)',
  largestSwapStep: 'compaction: largest main-thread step of the swap (ms)',
} as const;

/** The search workloads of bench/live.ts, as the goals name them. */
export const LIVE_SEARCHES = { pointPrefs: 'POINT 1 km + preferences', point: 'POINT 1 km', path: 'PATH city route, 100 m' } as const;

