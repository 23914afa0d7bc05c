import { availableParallelism } from 'node:os';

/**
 * Most threads a command reads a venues file with (createEngineFromFile's `threads`): at 1M
 * venues on 2 cores, 2 threads read and build in about 3.7 s against 5.3 s for 1
 * (docs/data-model.md); more than 2 were not measured (the machines we measure on have two
 * cores).
 */
const MAX_READ_THREADS = 4;

/**
 * Threads for reading a venues file in each of `processes` processes that read it at once
 * (serve's worker processes): each its share of the cores, from 1 to MAX_READ_THREADS.
 */
export function readThreads(processes: number): number {
  return Math.max(1, Math.min(MAX_READ_THREADS, Math.floor(availableParallelism() / Math.max(1, processes))));
}
