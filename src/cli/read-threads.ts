import { availableParallelism } from 'node:os';

/**
 * Most threads a command reads a venues file with by default (createEngineFromFile's
 * `threads`; `snapshot --threads` may ask up to MAX_READ_THREADS): at 1M venues on 2 cores,
 * 2 threads read and build in about 3.5 s against 4.6 s for 1 (docs/data-model.md); more
 * than 2 were not measured (the machines we measure on have two cores).
 */
const MAX_DEFAULT_READ_THREADS = 4;

/**
 * Files smaller than this are read on one thread: starting a worker and taking its blocks in
 * cost more than it saves there (bench NDJSON on 2 cores, fresh processes, 3 alternated
 * pairs, 2026-11-29: 45 MB, 2 threads 0.73 to 0.75 s against 0.61 to 0.65 s for 1; 90 MB,
 * 1.12 to 1.15 s against 1.20 to 1.22 s).
 */
const MIN_THREADED_READ_BYTES = 64 * 1024 * 1024;

/**
 * Threads for reading a venues file of `bytes` bytes in each of `processes` processes that
 * read it at once (serve's worker processes): each its share of the cores, from 1 to
 * MAX_DEFAULT_READ_THREADS; 1 for a file under MIN_THREADED_READ_BYTES.
 */
export function readThreads(processes: number, bytes: number): number {
  if (bytes < MIN_THREADED_READ_BYTES) return 1;
  return Math.max(1, Math.min(MAX_DEFAULT_READ_THREADS, Math.floor(availableParallelism() / Math.max(1, processes))));
}
