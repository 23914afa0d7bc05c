/**
 * Scale-out workload (issue 18), in one run:
 * - requests per second of `venue-search serve` at 1 and at 2 worker processes (`--workers`),
 *   and of one process at 1 and at 2 engine threads (`--engine-threads`), each a real process tree over the bundled fixtures and one SQLite accounts file, driven
 *   by autocannon in its OWN process (bench/children/load-child.ts). CPU split: the machine's
 *   cores are shared by the service's workers and the load generator (stated in the output);
 *   the configurations are measured in alternated rounds (each configuration twice, in the order 1 2 3 4 4 3 2 1) so background
 *   drift hits both alike. Requests: POST /v1/search/ POINT 1 km, limit 20, over 64 seeded
 *   centres, spread over 256 Enterprise accounts (100 requests/s each by plan: a cap of
 *   25,600/s, above what the service reaches, so the run measures throughput, not the plan);
 * - memory per worker: resident set (VmRSS) of each worker process after its rounds, and of
 *   the primary. Each worker process holds a copy of its own (Node 20 shares no memory
 *   between processes), so that figure carries no sharing goal: the goal of under 20 % per
 *   extra worker is for engine threads over one shared copy (bench/workloads/shared-engines.ts);
 * - charges per second the PostgreSQL store sustains with durable commits (fsync on,
 *   synchronous_commit on; a server started for the run in a temporary folder): 32 concurrent
 *   charge loops over 64 accounts, each charge a separate committed transaction.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { openAccount } from '../../src/accounts/accounts.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { readVenues } from '../../src/data/read-venues.js';
import { startPostgres } from '../../test/support/postgres-server.js';
import { childScript, commandLine, repoPath } from '../lib/paths.js';
import type { WorkloadResult } from '../lib/report.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

export interface ScaleOutOptions {
  /** Seconds of load per configuration, split into 2 alternated rounds. */
  readonly seconds: number;
  readonly connections: number;
  /** Seconds of PostgreSQL charging. */
  readonly chargeSeconds: number;
}

const DATA = 'fixtures/venues.ndjson';

interface Config {
  readonly workers: number;
  readonly engineThreads: number;
}

/** Worker processes (the engine on each main thread), then one process with engine threads over one shared copy. */
const CONFIGS: readonly Config[] = [
  { workers: 1, engineThreads: 0 },
  { workers: 2, engineThreads: 0 },
  { workers: 1, engineThreads: 1 },
  { workers: 1, engineThreads: 2 },
];
const ACCOUNTS = 256;

interface Service {
  readonly child: ChildProcess;
  readonly base: string;
}

async function startService(db: string, config: Config): Promise<Service> {
  const child = spawn(process.execPath, [...commandLine(), 'serve', '--data', repoPath(DATA), '--port', '0', '--db', db, '--workers', String(config.workers), '--engine-threads', String(config.engineThreads)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: repoPath(),
  });
  let err = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += String(chunk);
      const found = /serving .* on (http:\/\/\S+)\/v1\//.exec(err)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, base };
}

/** Resident set of a process, bytes (Linux /proc). */
function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? 0 : Number(m[1]) * 1024;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((s) => s !== '').map(Number);
  } catch {
    return [];
  }
}

interface LoadRound {
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

function load(specFile: string): Promise<LoadRound> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childScript('load-child'), specFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadRound) : reject(new Error(`load child exited ${code}`))));
  });
}

async function chargesPerSecond(seconds: number): Promise<{ perSecond: number; charges: number; p50Ms: number }> {
  const server = await startPostgres();
  try {
    const url = await server.createDatabase('bench');
    const store = await PostgresAccountsStore.open(url, { maxConnections: 32 });
    const accounts: string[] = [];
    for (let i = 0; i < 64; i++) accounts.push((await openAccount(store, 'Enterprise', { openingCreditMicros: 1e12 })).accountId);
    let charges = 0;
    let n = 0;
    const latencies: number[] = [];
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (performance.now() < until) {
          const k = n++;
          const t = performance.now();
          const r = await store.charge({ accountId: accounts[k % accounts.length]!, requestId: `bench-${k}`, kind: 'find', costMicros: 6000, nowMs: Date.now() });
          latencies.push(performance.now() - t);
          if (r.charged) charges++;
        }
      }),
    );
    await store.close();
    latencies.sort((a, b) => a - b);
    return { perSecond: Math.round(charges / seconds), charges, p50Ms: Math.round(latencies[latencies.length >> 1]! * 100) / 100 };
  } finally {
    await server.stop();
  }
}

export async function scaleOutWorkload(o: ScaleOutOptions): Promise<WorkloadResult> {
  const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-scale-bench-'));
  const services: Service[] = [];
  try {
    const { venues } = await readVenues(repoPath(DATA));
    const rand = seededRandom(7); // seeded pick of 64 centres
    const bodies = Array.from({ length: 64 }, () => {
      const [lat, lon] = venues[Math.floor(rand() * venues.length)]!.location.coordinates;
      return JSON.stringify({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 1000 } });
    });
    const specs: string[] = [];
    for (const [k, config] of CONFIGS.entries()) {
      const db = join(dir, `accounts-${k}.sqlite`);
      const store = new SqliteAccountsStore(db);
      const keys: string[] = [];
      for (let i = 0; i < ACCOUNTS; i++) keys.push((await openAccount(store, 'Enterprise', { openingCreditMicros: 1e12 })).secretKey);
      await store.close();
      const service = await startService(db, config);
      services.push(service);
      const spec = join(dir, `load-${k}.json`);
      const requests = keys.map((key, i) => ({ method: 'POST' as const, path: '/v1/search/', headers: { 'api-key': key, 'content-type': 'application/json' }, body: bodies[i % bodies.length]! }));
      writeFileSync(spec, JSON.stringify({ url: service.base, connections: o.connections, seconds: o.seconds / 2, requests }));
      specs.push(spec);
      // warm-up: 1 s
      writeFileSync(`${spec}.warm`, JSON.stringify({ url: service.base, connections: o.connections, seconds: 1, requests }));
      await load(`${spec}.warm`);
    }
    const rounds: LoadRound[][] = CONFIGS.map(() => []);
    for (const k of [0, 1, 2, 3, 3, 2, 1, 0]) rounds[k]!.push(await load(specs[k]!));
    // a single worker is the process itself; N > 1: the primary's children that run `serve`
    // (not other children such as the widget bundler's esbuild service)
    const memory = services.map((s, k) => {
      const self = rssBytes(s.child.pid!);
      if (CONFIGS[k]!.workers === 1) return { primary: 0, workers: [self] };
      const workers = childrenOf(s.child.pid!).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('serve'));
      return { primary: self, workers: workers.map(rssBytes) };
    });
    const rows = CONFIGS.map(({ workers, engineThreads }, k) => {
      const rs = rounds[k]!;
      const seconds = rs.reduce((n, r) => n + r.seconds, 0);
      return {
        workers,
        engineThreads,
        requestsPerSecond: Math.round(rs.reduce((n, r) => n + r.ok, 0) / seconds),
        p50Ms: Math.max(...rs.map((r) => r.p50Ms)),
        p99Ms: Math.max(...rs.map((r) => r.p99Ms)),
        non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
        errors: rs.reduce((n, r) => n + r.errors, 0),
        workerRssMiB: memory[k]!.workers.map((b) => Math.round(b / 2 ** 20)),
        primaryRssMiB: Math.round(memory[k]!.primary / 2 ** 20),
      };
    });
    for (const s of services) s.child.kill('SIGTERM');
    const charging = await chargesPerSecond(o.chargeSeconds);
    const single = rows[0]!.workerRssMiB[0]!;
    const twoTotal = rows[1]!.workerRssMiB.reduce((a, b) => a + b, 0) + rows[1]!.primaryRssMiB;
    return {
      workload: 'Scale-out: workers and the PostgreSQL store',
      params: {
        data: DATA,
        venues: venues.length,
        request: 'POST /v1/search/ POINT 1 km, limit 20',
        connections: o.connections,
        secondsPerConfiguration: o.seconds,
        cpu: `${os.availableParallelism()} cores shared by the service (its worker processes, or its main thread and engine threads) and the load generator (1 process, its own)`,
        memory: 'worker processes each hold their own copy of the data (Node 20 shares no memory between processes: no sharing goal); engine threads share one copy (the < 20 % goal: the shared-snapshot workload)',
        pgCharging: '32 concurrent loops, 64 accounts, fsync=on, synchronous_commit=on',
      },
      timings: [],
      table: {
        header: ['worker processes', 'engine threads', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'RSS per worker MiB', 'primary RSS MiB'],
        rows: rows.map((r) => [String(r.workers), r.engineThreads === 0 ? 'none (main thread)' : String(r.engineThreads), String(r.requestsPerSecond), String(r.p50Ms), String(r.p99Ms), String(r.non2xx), String(r.errors), r.workerRssMiB.join(', '), String(r.primaryRssMiB)]),
        data: { rows, charging },
      },
      figures: {
        '2 workers / 1 worker throughput': rows[1]!.requestsPerSecond / rows[0]!.requestsPerSecond,
        'extra memory of a second worker process, a copy of its own (incl. the primary) / one process': (twoTotal - single) / single,
        '2 engine threads / 1 engine thread throughput': rows[3]!.requestsPerSecond / rows[2]!.requestsPerSecond,
        'extra memory of the second engine thread / one (one process; fixtures)': (rows[3]!.workerRssMiB[0]! - rows[2]!.workerRssMiB[0]!) / rows[2]!.workerRssMiB[0]!,
        'PostgreSQL durable charges per second': charging.perSecond,
        'PostgreSQL charge p50 ms': charging.p50Ms,
      },
    };
  } finally {
    for (const s of services) s.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
