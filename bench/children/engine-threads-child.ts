/**
 * Memory of engine threads (bench/workloads/shared-engines.ts), in a fresh process run with
 * --expose-gc: argv[2] a snapshot file, argv[3] the number of engine threads, argv[4]
 * `shared` (one copy of the snapshot in shared memory, read as `serve --engine-threads` reads
 * it, every thread restores views of it: src/snapshot/shared-snapshot.ts) or `copies` (each
 * thread reads the file itself). Threads start with serve's heap limits (ENGINE_THREAD_LIMITS).
 * Once every thread has answered its searches, prints the process's resident set (VmRSS)
 * and proportional set (Pss, from /proc/self/smaps_rollup) as one JSON line.
 */
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../../src/threads/start-worker.js';
import { ENGINE_THREAD_LIMITS } from '../../src/service/engine-pool.js';
import { readSharedSnapshot } from '../../src/snapshot/shared-snapshot.js';

const [path, threadsText, mode] = process.argv.slice(2) as [string, string, 'shared' | 'copies'];
const threads = Number(threadsText);
const searches = 300;
const shared = mode === 'shared' ? readSharedSnapshot(path) : undefined;
const workers: Worker[] = [];
const answers = await Promise.all(
  Array.from({ length: threads }, () => {
    const worker = startWorker(siblingModule(import.meta.url, 'engine-thread'), { shared, path, searches }, ENGINE_THREAD_LIMITS);
    workers.push(worker);
    return new Promise<{ answered: number; size: number }>((resolve, reject) => {
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
process.stdout.write(`${JSON.stringify({ threads, mode, rssBytes, pssBytes, answered: answers.map((a) => a.answered), size: answers[0]?.size ?? 0 })}\n`);
await Promise.all(workers.map((w) => w.terminate()));
