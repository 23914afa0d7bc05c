/**
 * Memory per worker when the venue data is held once (issue 18): a process whose engine
 * threads restore one snapshot from shared memory (src/snapshot/shared-snapshot.ts), at 1
 * and at 2 threads, beside 2 threads that each read the file themselves (the copy a separate
 * process holds). Each configuration is a fresh process (bench/children/engine-threads-child.ts)
 * whose threads answer 300 seeded POINT searches and finds each before the resident set
 * (VmRSS) and the proportional set (Pss) of the whole process are read.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { benchVenues, benchVenueFilePath, sizeLabel } from '../lib/dataset.js';
import { childScript, repoPath } from '../lib/paths.js';
import type { WorkloadResult } from '../lib/report.js';
import { FORMAT_VERSION } from '../../src/snapshot/snapshot-format.js';
import { NAME_TOKENS_VERSION } from '../../src/find/normalize-name.js';

interface ThreadsMemory {
  readonly threads: number;
  readonly mode: 'shared' | 'copies';
  readonly rssBytes: number;
  readonly pssBytes: number;
  readonly answered: number[];
}

/**
 * The bench snapshot of `n` venues in .tmp/bench/ (written once per snapshot format and name
 * rules, then reused: a file of older name rules would have each thread build its own name
 * index, as a service reading it would).
 */
function benchSnapshot(n: number): string {
  const path = benchVenueFilePath(n).replace(/\.ndjson$/, `-format${FORMAT_VERSION}-names${NAME_TOKENS_VERSION}.vsnap`);
  if (existsSync(path)) return path;
  mkdirSync(repoPath('.tmp', 'bench'), { recursive: true });
  const tmp = `${path}.${process.pid}.part`;
  writeSnapshot(createEngine(benchVenues(n), { validate: false }), tmp);
  renameSync(tmp, path);
  return path;
}

function measure(path: string, threads: number, mode: 'shared' | 'copies'): Promise<ThreadsMemory> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', ...childScript('engine-threads-child'), path, String(threads), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as ThreadsMemory) : reject(new Error(`engine-threads child exited ${code}`))));
  });
}

export async function sharedEnginesWorkload(n: number): Promise<WorkloadResult> {
  const path = benchSnapshot(n);
  const one = await measure(path, 1, 'shared');
  const two = await measure(path, 2, 'shared');
  const copies = await measure(path, 2, 'copies');
  const mib = (b: number) => (b / 2 ** 20).toFixed(0);
  const rows = [one, two, copies];
  return {
    workload: 'Memory per worker: engine threads over one shared snapshot',
    params: { venues: n, snapshot: `${sizeLabel(n)} bench venues`, perThread: '300 POINT 2 km searches + 300 finds, warmed', measured: 'VmRSS and Pss of the whole process (/proc), after gc' },
    timings: [],
    table: {
      header: ['engine threads', 'snapshot', 'RSS MiB', 'Pss MiB'],
      rows: rows.map((r) => [String(r.threads), r.mode === 'shared' ? 'one shared copy' : 'a copy per thread', mib(r.rssBytes), mib(r.pssBytes)]),
      data: { rows },
    },
    figures: {
      'extra memory of a second engine thread / one thread, shared snapshot (goal < 0.2)': (two.rssBytes - one.rssBytes) / one.rssBytes,
      'extra memory of a second engine thread / one thread, a copy per thread': (copies.rssBytes - one.rssBytes) / one.rssBytes,
    },
  };
}
