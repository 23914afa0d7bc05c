/**
 * `venue-search serve --dev` end to end: a real process over the bundled fixtures, the
 * printed development keys used over loopback, SIGTERM for a clean stop.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { priceMicros } from '../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { unignoredInGitWorkTree } from '../../src/cli/git-ignored.js';
import { freePort } from '../support/database-process.js';
import { startServe } from '../support/serve-process.js';
import { ledgerRows } from './support/harness.js';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-serve-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('serve --dev', () => {
  it('serves the fixtures with a printed development key; a second --dev server shares the account without revoking keys or resetting the balance (issue 14)', async () => {
    const db = join(tmp, 'dev.sqlite');
    const start = () =>
      startServe(process.execPath, [CLI_MAIN, 'serve', '--data', 'fixtures/venues.ndjson', '--dev', '--port', '0', '--db', db, '--workers', '1'], '.');
    const first = await start();
    // the load is reported before the service listens: venues read (the fixture file's lines), then the structures built
    const fixtureCount = readFileSync('fixtures/venues.ndjson', 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    expect(first.output()).toMatch(new RegExp(`venue-search: read ${fixtureCount} venues from fixtures/venues\\.ndjson in \\d+\\.\\d s\\nvenue-search: built the search and find structures in \\d+\\.\\d s\\n`));
    const found = await fetch(`${first.base}/v1/find?q=nando`, { headers: { 'API-Key': first.key } });
    expect(found.status).toBe(200);
    expect(((await found.json()) as { totalFound: number }).totalFound).toBeGreaterThan(0);
    const balanceOf = async (base: string, key: string) => {
      const res = await fetch(`${base}/v1/business/balances`, { headers: { 'API-Key': key } });
      expect(res.status).toBe(200);
      return (await res.json()) as { accountId: string; balanceMicros: number; usage: { find: { requests: number } } };
    };
    // the find cost 6000 micros (CONTRACT prices)
    expect(await balanceOf(first.base, first.key)).toMatchObject({ accountId: 'acct_development', balanceMicros: 10_000_000 - 6000 });

    // issue 14: a second --dev server on the same database, while the first runs, shares the
    // account as it is: same keys, the first server's key still works, balance and usage kept
    const second = await start();
    expect(second.key).toBe(first.key);
    expect(await balanceOf(first.base, first.key)).toMatchObject({ balanceMicros: 10_000_000 - 6000, usage: { find: { requests: 1 } } });
    expect(await balanceOf(second.base, first.key)).toMatchObject({ balanceMicros: 10_000_000 - 6000, usage: { find: { requests: 1 } } });
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    first.child.kill('SIGTERM');
    expect(await new Promise((resolve) => first.child.once('exit', resolve))).toBe(0);

    // the saved keys lost: a restart issues new keys with the normal grace, never revoking the old ones
    rmSync(`${db}.dev-keys.json`);
    const third = await start();
    expect(third.key).not.toBe(first.key);
    expect(await balanceOf(third.base, first.key)).toMatchObject({ balanceMicros: 10_000_000 - 6000 });
    expect(await balanceOf(third.base, third.key)).toMatchObject({ balanceMicros: 10_000_000 - 6000 });
    third.child.kill('SIGTERM');
    await new Promise((resolve) => third.child.once('exit', resolve));
  });
});

describe('serve --dev in a git work tree (audit 63d finding 10)', () => {
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

  it('creating the keys file in a work tree that does not ignore it prints the .gitignore reminder once; a restart that reuses the file does not', async () => {
    const project = join(tmp, 'app');
    mkdirSync(project);
    git(project, 'init', '-q', '.');
    const db = join(project, 'accounts.sqlite');
    const start = () => startServe(process.execPath, [CLI_MAIN, 'serve', '--data', 'fixtures/venues.ndjson', '--dev', '--port', '0', '--db', db, '--workers', '1'], '.');
    const reminder = `venue-search: ${db}.dev-keys.json holds the development secret key, and the git work tree it is in does not ignore it: add *.dev-keys.json and the accounts database's files (accounts.sqlite*) to your .gitignore\n`;
    const first = await start();
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(first.output().split(reminder)).toHaveLength(2);
    const again = await start();
    again.child.kill('SIGTERM');
    await new Promise((resolve) => again.child.once('exit', resolve));
    expect(again.output()).not.toContain('.gitignore');
  });

  it('the check: a file the work tree ignores, one outside any work tree, and no git on PATH all say nothing', () => {
    const project = join(tmp, 'ignoring');
    mkdirSync(project);
    git(project, 'init', '-q', '.');
    writeFileSync(join(project, '.gitignore'), '*.dev-keys.json\n');
    expect(unignoredInGitWorkTree(join(project, 'accounts.sqlite.dev-keys.json'))).toBe(false);
    expect(unignoredInGitWorkTree(join(project, 'accounts.sqlite'))).toBe(true);
    const outside = mkdtempSync(join(tmpdir(), 'venue-search-no-git-'));
    try {
      expect(unignoredInGitWorkTree(join(outside, 'accounts.sqlite.dev-keys.json'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    vi.stubEnv('PATH', join(tmp, 'no-such-bin'));
    try {
      expect(unignoredInGitWorkTree(join(project, 'accounts.sqlite'))).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('serve --workers 2 (issue 18)', () => {
  it('two worker processes answer on one port, both naming --public-url in openapi.json; billing stays exact across them: credit for K = 30 finds, 60 concurrent -> 30 x 200, 30 x 402', async () => {
    const db = join(tmp, 'workers.sqlite');
    const store = new SqliteAccountsStore(db);
    const K = 30;
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: K * priceMicros('find') });
    await store.close();
    const child = spawn(process.execPath, [CLI_MAIN, 'serve', '--data', 'fixtures/venues.ndjson', '--port', '0', '--db', db, '--workers', '2', '--public-url', 'https://api.example.com/venues/'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let err = '';
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start in 60 s: ${err}`)), 60_000);
        child.stderr!.on('data', (chunk: Buffer) => {
          err += String(chunk);
          const found = /serving .* on (http:\/\/\S+)\/v1\/ .*2 worker processes/.exec(err)?.[1];
          if (found !== undefined) {
            clearTimeout(timer);
            resolve(found);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      // the start line names a URL that answers (audit 61a: `/v1/` is a prefix, a 404)
      expect(err).toContain(`2 worker processes; the routes: ${base}/v1/openapi.json)`);
      // each worker loads its own copy; the first reports for both
      expect(err.match(/venue-search: read \d+ venues from fixtures\/venues\.ndjson/g)).toHaveLength(1);
      // the primary's two node children (the workers)
      const workers = execFileSync('ps', ['--ppid', String(child.pid), '-o', 'comm='], { encoding: 'utf8' }).split('\n').filter((c) => c.trim() === 'node');
      expect(workers).toHaveLength(2);
      // --public-url reaches every worker: openapi.json names it (without the trailing slash), not the Host asked
      for (let k = 0; k < 4; k++) {
        const published = (await (await fetch(`${base}/v1/openapi.json`, { headers: { connection: 'close' } })).json()) as { servers: unknown };
        expect(published.servers).toEqual([{ url: 'https://api.example.com/venues', description: 'This service' }]);
      }
      const statuses = await Promise.all(
        Array.from({ length: 2 * K }, async () => {
          const res = await fetch(`${base}/v1/find?q=nando`, { headers: { 'API-Key': acct.secretKey, connection: 'close' } });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(K);
      expect(statuses.filter((s) => s === 402)).toHaveLength(K);
      const check = new SqliteAccountsStore(db);
      expect(await check.balanceMicros(acct.accountId)).toBe(0);
      expect((await ledgerRows(check, acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(K);
      await check.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // the primary says it is closing, as a single process does (audit 61a)
      expect(err).toContain('venue-search: SIGTERM: closing 2 worker processes (requests in flight are answered first)');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

/** Starts `serve --workers 2` on `db` (extra flags after); resolves once it prints where it serves. */
async function startWorkers(db: string, data: string, extra: readonly string[] = []): Promise<{ child: ChildProcess; base: string; stderr: () => string }> {
  const port = String(await freePort()); // of VENUE_SEARCH_TEST_PORTS when set
  const child = spawn(process.execPath, [CLI_MAIN, 'serve', '--data', data, '--port', port, '--db', db, '--workers', '2', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += String(chunk)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s: ${err}`)), 60_000);
    const look = (): void => {
      const found = /serving .* on (http:\/\/\S+)\/v1\/ .*2 worker processes/.exec(err)?.[1];
      if (found === undefined) return;
      clearTimeout(timer);
      resolve(found);
    };
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, base, stderr: () => err };
}

function workerPids(primary: number): number[] {
  return execFileSync('ps', ['--ppid', String(primary), '-o', 'pid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.trim().endsWith('node'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

describe('serve --workers 2: stop signals', () => {
  // audit 62b finding 3: systemd's default KillMode=control-group sends SIGTERM to the primary
  // and every worker at once; each worker then got a second SIGTERM from its primary, after its
  // one-shot handler was spent, and died with its requests in flight
  it('SIGTERM to the primary and both workers at once (systemctl stop): every request in flight is answered and charged, exit 0', async () => {
    const db = join(tmp, 'group-term.sqlite');
    const store = new SqliteAccountsStore(db);
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: 100 * priceMicros('find') });
    await store.close();
    const { child, base, stderr } = await startWorkers(db, 'fixtures/venues.ndjson');
    try {
      const workers = workerPids(child.pid!);
      expect(workers).toHaveLength(2);
      // hold the accounts database's write lock: each charge waits for it (busy timeout 5 s),
      // so the requests are in flight in their workers while the signals arrive
      const holder = new Database(db);
      holder.prepare('BEGIN IMMEDIATE').run();
      const N = 8;
      const answers = Array.from({ length: N }, async () => {
        try {
          const res = await fetch(`${base}/v1/find?q=nando`, { headers: { 'API-Key': acct.secretKey, connection: 'close' } });
          await res.arrayBuffer();
          return res.status;
        } catch (err) {
          return `${(err as Error).message}: ${String((err as Error).cause)}`;
        }
      });
      await new Promise((r) => setTimeout(r, 700));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      for (const pid of [child.pid!, ...workers]) process.kill(pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1500));
      holder.prepare('COMMIT').run();
      holder.close();
      expect(await Promise.all(answers)).toEqual(Array.from({ length: N }, () => 200));
      expect(await exited).toBe(0);
      expect(stderr()).toContain('venue-search: SIGTERM: closing 2 worker processes (requests in flight are answered first)');
      const check = new SqliteAccountsStore(db);
      expect((await ledgerRows(check, acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(N);
      await check.close();
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});

describe('serve --workers 2: a replacement worker that cannot start', () => {
  // audit 62b finding 2: it was re-forked at once, forever, and the primary never exited
  it('is started again after a doubling delay, and after 5 such deaths in a row the primary exits 1 naming the last error', async () => {
    const db = join(tmp, 'restart-loop.sqlite');
    const data = join(tmp, 'restart-loop.ndjson');
    writeFileSync(data, readFileSync('fixtures/venues.ndjson'));
    const { child, stderr } = await startWorkers(db, data);
    try {
      const workers = workerPids(child.pid!);
      expect(workers).toHaveLength(2);
      // a botched deploy empties the data file, then a worker dies: its replacements cannot load it
      writeFileSync(data, '');
      const failures: number[] = []; // when each "exited before listening" line arrived
      child.stderr!.on('data', (chunk: Buffer) => {
        for (const _ of String(chunk).matchAll(/exited before listening \(/g)) failures.push(performance.now());
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      process.kill(workers[0]!, 'SIGKILL');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 60 s'), 60_000))]);
      expect(code).toBe(1);
      const err = stderr();
      const empty = `venue-search: ${data} is empty: it holds no venue records (an empty file is a mistake, not a data set)`;
      expect(err).toContain(`venue-search: worker ${workers[0]} exited (SIGKILL); starting another\n`);
      const retries = [...err.matchAll(/worker \d+ exited before listening \(code 1\), (\d) in a row; starting another in ([\d.]+) s\n/g)].map((m) => [Number(m[1]), Number(m[2])]);
      expect(retries).toEqual([
        [1, 0.5],
        [2, 1],
        [3, 2],
        [4, 4],
      ]);
      // the delays were waited: each next failure came at least that long after the previous
      expect(failures).toHaveLength(4);
      for (let k = 1; k < 4; k++) expect(failures[k]! - failures[k - 1]!).toBeGreaterThanOrEqual(retries[k - 1]![1]! * 1000 - 50);
      expect(err).toContain(`venue-search: 5 workers in a row exited before listening; the last (code 1): ${empty}; stopping (serve exits 1)\n`);
      // each replacement said why (its stderr passes through the primary), 5 times
      expect(err.split(empty).length - 1).toBe(5 + 1);
      // the other worker was stopped too
      expect(() => process.kill(workers[1]!, 0)).toThrow(/ESRCH/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});

describe('serve --workers 2: --data replaced while it runs', () => {
  const lines = readFileSync('fixtures/venues.ndjson', 'utf8').split('\n').filter((l) => l.trim() !== '');

  /**
   * Starts the service on `name` written by `write` from the fixture lines, ships a file without
   * the last venue (written beside, renamed over --data, as deploy tools do), kills a worker, and
   * asks for the last venue for 5 s: every answer must be 200 (the file the service started with).
   */
  async function shipAndKillAWorker(name: string, write: (records: readonly string[]) => string): Promise<void> {
    const db = join(tmp, `${name}.sqlite`);
    const store = new SqliteAccountsStore(db);
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: 1000 * priceMicros('basic') });
    await store.close();
    const data = join(tmp, name);
    writeFileSync(data, write(lines));
    // the oracle: the last fixture venue is in the file the service started with, not in the shipped one
    const gone = (JSON.parse(lines.at(-1)!) as { id: string }).id;
    const { child, base, stderr } = await startWorkers(db, data);
    try {
      const workers = workerPids(child.pid!);
      expect(workers).toHaveLength(2);
      const shipped = `${data}.new`;
      writeFileSync(shipped, write(lines.slice(0, -1)));
      renameSync(shipped, data);
      process.kill(workers[0]!, 'SIGKILL');
      const said = `venue-search: --data ${data} was replaced since this service started; this worker serves the file the service started with, as its other workers do (restart the service to serve the new one)`;
      await vi.waitFor(() => expect(stderr()).toContain(said), { timeout: 30_000, interval: 100 });
      // requests handed out in turn for 5 s and at least 21 of them (a loaded machine answers
      // slower): the replacement takes its share once it listens (on the old code, 404s)
      const statuses = new Map<number, number>();
      for (let asked = 0, until = Date.now() + 5000; Date.now() < until || asked <= 20; asked++) {
        const res = await fetch(`${base}/v1/establishments/basic/${encodeURIComponent(gone)}`, { headers: { 'API-Key': acct.secretKey, connection: 'close' } });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 50)); // well under the plan's 100 requests a second
      }
      expect([...statuses.keys()]).toEqual([200]);
      expect(statuses.get(200)).toBeGreaterThan(20);
      expect(stderr()).not.toContain('cannot load');
      expect(workerPids(child.pid!)).toHaveLength(2);
    } finally {
      child.kill('SIGKILL');
    }
  }

  // audit 64b finding 7: a new file shipped to --data (to be served after a restart), then a
  // worker died: its replacement loaded the new file, and the port answered from two data sets
  it("a replacement worker serves the file the service started with, saying so; every answer is the old data's", async () => {
    await shipAndKillAWorker('held-data.ndjson', (records) => `${records.join('\n')}\n`);
  }, 90_000);

  // audit 65a finding 8: the replacement read the held file as /proc/<pid>/fd/<n>, a name without
  // .geojson, so its format was sniffed; a FeatureCollection written by Python's
  // json.dump(indent=2, sort_keys=True) ("features" before "type") was taken for NDJSON, every
  // replacement failed ("not a venues file") and the service exited 1
  it('a replacement worker reads a held .geojson as GeoJSON, also one whose first 4 KiB do not say FeatureCollection', async () => {
    const pythonStyle = (records: readonly string[]): string => {
      const features = records.map((line) => {
        const { location, ...properties } = JSON.parse(line) as { location: { coordinates: [number, number] } };
        const [lat, lon] = location.coordinates;
        return { geometry: { coordinates: [lon, lat], type: 'Point' }, properties, type: 'Feature' };
      });
      return `${JSON.stringify(sortedKeys({ features, type: 'FeatureCollection' }), null, 2)}\n`;
    };
    expect(pythonStyle(lines).slice(0, 4096)).not.toContain('FeatureCollection');
    await shipAndKillAWorker('held-data.geojson', pythonStyle);
  }, 90_000);
});

/** `value` with every object's keys in sorted order, as Python's json.dump(sort_keys=True) writes them. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortedKeys(v)]));
}
