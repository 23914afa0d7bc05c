/**
 * Memory of engine threads (bench/workloads/shared-engines.ts), in a fresh process run with
 * --expose-gc: argv[2] a snapshot file, argv[3] the number of engine threads, argv[4]
 * `shared` (one copy of the snapshot in shared memory, read as `serve --engine-threads` reads
 * it, every thread restores views of it: src/snapshot/shared-snapshot.ts) or `copies` (each
 * thread reads the file itself). Threads start with serve's heap limits (ENGINE_THREAD_LIMITS)
 * and record cache (ENGINE_THREAD_RECORD_CACHE). Optional: argv[5] searches (each with a find)
 * per thread, default 300; argv[6] the record cache size instead of serve's (a power of two).
 * Once every thread has answered its searches, prints the process's resident set (VmRSS),
 * proportional set (Pss, from /proc/self/smaps_rollup) and each thread's query time as one JSON line.
 */
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../../src/threads/start-worker.js';
import { ENGINE_THREAD_LIMITS, ENGINE_THREAD_RECORD_CACHE } from '../../src/service/engine-pool.js';
import { readSharedSnapshot } from '../../src/snapshot/shared-snapshot.js';

const [path, threadsText, mode, searchesText, cacheText] = process.argv.slice(2) as [string, string, 'shared' | 'copies', string?, string?];
const threads = Number(threadsText);
const searches = Number(searchesText ?? 300);
const recordCacheSize = Number(cacheText ?? ENGINE_THREAD_RECORD_CACHE);
const shared = mode === 'shared' ? readSharedSnapshot(path) : undefined;
const workers: Worker[] = [];
const answers = await Promise.all(
  Array.from({ length: threads }, () => {
    const worker = startWorker(siblingModule(import.meta.url, 'engine-thread'), { shared, path, searches, recordCacheSize }, ENGINE_THREAD_LIMITS);
    workers.push(worker);
    return new Promise<{ answered: number; size: number; queryMs: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  }),
);
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
await new Promise((resolve) => setTimeout(resolve, 300));
const kib = (text: string, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
const rssBytes = kib(readFileSync('/proc/self/status', 'utf8'), 'VmRSS');
const pssBytes = kib(readFileSync('/proc/self/smaps_rollup', 'utf8'), 'Pss');
process.stdout.write(`${JSON.stringify({ threads, mode, rssBytes, pssBytes, answered: answers.map((a) => a.answered), size: answers[0]?.size ?? 0, recordCacheSize, queryMs: answers.map((a) => Math.round(a.queryMs)) })}\n`);
await Promise.all(workers.map((w) => w.terminate()));
