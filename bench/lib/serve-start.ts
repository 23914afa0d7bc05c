/**
 * Start-up of the HTTP service on a snapshot, measured on the path users take (issue 16):
 * spawn `venue-search serve --data <snapshot> --workers 1 --dev` (the command the bench
 * compiled and bundled, `.tmp/bench-dist/bin/venue-search.js`, as `dist/bin/venue-search.js`
 * ships, with the widget's assets built beside it as `npm run build` builds them; from
 * sources, node + tsx on src/cli/main.ts), then poll it over HTTP until a find (`GET /v1/find`) and a
 * POINT search (`POST /v1/search/`) have both answered 200. Timed in this process from the
 * spawn to the second answer. One worker (serve's default is one per core, whose other
 * workers start after the first listens). Beside it, the phases the child prints on stderr
 * with VENUE_SEARCH_START_TIMES=1 (ms since its process started).
 *
 * The accounts database and the development keys are created by an untimed first start:
 * each timed start reuses them, as a restarted service does (and the key is then known
 * before the server prints it, so polling starts at the spawn).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { median } from './measure.js';
import { HUGE_PAGES_ENV, hugePagesApply } from './huge-pages.js';
import { WIDGET_SCRIPT_FILE } from '../../src/widget/build-assets.js';
import { COMPILED, commandLine, repoPath } from './paths.js';

/** The load workload's figure for the median start (the goal row of issue 16 reads it). */
export const SERVE_START_FIGURE = 'snapshot: serve --workers 1, spawn -> a find and a search answered over HTTP (ms)';
/** The same started with huge pages (bench/lib/huge-pages.ts). */
export const SERVE_START_HUGE_FIGURE = 'snapshot: serve --workers 1 with huge pages, spawn -> a find and a search answered over HTTP (ms)';

const POLL_MS = 5;
const START_LIMIT_MS = 120_000;

export interface ServeStartFigures {
  /** Each run's start, ms. */
  readonly spawnToFindAndSearchMs: readonly number[];
  /** The same with huge pages (empty where glibc does not honour them). */
  readonly hugePagesSpawnToFindAndSearchMs: readonly number[];
  /** The child's own phases (ms since its start), medians: imports done, engine loaded, listening. */
  readonly phases: Readonly<Record<string, number>>;
  readonly runs: number;
}

function cliArgs(): string[] {
  // Without built assets the service bundles the widget with esbuild as it starts (~50 ms at
  // 1M), which an installed package never does: measure the start users get, or nothing.
  const assets = repoPath('.tmp', 'bench-dist', 'src', 'widget', 'assets', WIDGET_SCRIPT_FILE);
  if (COMPILED && !existsSync(assets)) throw new Error(`${assets} is missing: npm run bench builds the widget's assets before it runs`);
  return commandLine();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a !== null ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts serve; resolves once it has answered a find and a search (ms from spawn), with its printed phases. */
async function startOnce(snapshot: string, db: string, key: string | null, env: Readonly<Record<string, string>> = {}): Promise<{ ms: number; phases: Record<string, number>; key: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [...cliArgs(), 'serve', '--data', snapshot, '--workers', '1', '--dev', '--port', String(port), '--db', db], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, VENUE_SEARCH_START_TIMES: '1' },
  });
  let printed = '';
  child.stdout!.on('data', (c: Buffer) => (printed += String(c)));
  child.stderr!.on('data', (c: Buffer) => (printed += String(c)));
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    let apiKey = key;
    let found = false;
    let searched = false;
    const search = JSON.stringify({ locations: [{ lat: 51.5074, lon: -0.1278 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    while (!(found && searched)) {
      if (exited) throw new Error(`serve exited before answering: ${printed}`);
      if (performance.now() - t0 > START_LIMIT_MS) throw new Error(`serve did not answer in ${START_LIMIT_MS} ms: ${printed}`);
      apiKey ??= /secret key\s+(sk_\S+)/.exec(printed)?.[1] ?? null;
      if (apiKey !== null) {
        try {
          const headers = { 'API-Key': apiKey };
          if (!found) found = (await fetch(`${base}/v1/find?q=red%20lion`, { headers })).status === 200;
          if (!searched) searched = (await fetch(`${base}/v1/search/`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: search })).status === 200;
        } catch {
          // not listening yet
        }
      }
      if (!(found && searched)) await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const ms = performance.now() - t0;
    const phases: Record<string, number> = {};
    for (const m of printed.matchAll(/venue-search start: ([\w ,+-]+?) at ([\d.]+) ms/g)) phases[m[1]!] = Number(m[2]);
    return { ms, phases, key: apiKey! };
  } finally {
    await stop(child);
  }
}

/**
 * `runs` timed starts of serve on `snapshot` (after one untimed start creating the accounts
 * database); where glibc honours it, as many with huge pages (bench/lib/huge-pages.ts), each
 * run's two starts in alternated order.
 */
export async function serveStartFigures(snapshot: string, runs: number): Promise<ServeStartFigures> {
  const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-serve-start-'));
  try {
    const db = join(dir, 'accounts.sqlite');
    await startOnce(snapshot, db, null);
    const key = (JSON.parse(readFileSync(`${db}.dev-keys.json`, 'utf8')) as { secretKey: string }).secretKey;
    const times: number[] = [];
    const hugePagesTimes: number[] = [];
    const phaseRuns: Record<string, number[]> = {};
    const withHugePages = hugePagesApply();
    for (let k = 0; k < runs; k++) {
      for (const huge of withHugePages ? (k % 2 === 0 ? [false, true] : [true, false]) : [false]) {
        const r = await startOnce(snapshot, db, key, huge ? HUGE_PAGES_ENV : {});
        if (huge) {
          hugePagesTimes.push(r.ms);
          continue;
        }
        times.push(r.ms);
        for (const [name, at] of Object.entries(r.phases)) (phaseRuns[name] ??= []).push(at);
      }
    }
    const phases: Record<string, number> = {};
    for (const [name, at] of Object.entries(phaseRuns)) phases[name] = median(at.sort((a, b) => a - b));
    return { spawnToFindAndSearchMs: times, hugePagesSpawnToFindAndSearchMs: hugePagesTimes, phases, runs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
