/**
 * `venue-search serve --dev` end to end: a real process over the bundled fixtures, the
 * printed development keys used over loopback, SIGTERM for a clean stop.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { priceMicros } from '../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { startServe } from '../support/serve-process.js';
import { ledgerRows } from './support/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-serve-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('serve --dev', () => {
  it('serves the fixtures with a printed development key; a second --dev server shares the account without revoking keys or resetting the balance (issue 14)', async () => {
    const db = join(tmp, 'dev.sqlite');
    const start = () =>
      startServe(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--data', 'fixtures/venues.ndjson', '--dev', '--port', '0', '--db', db, '--workers', '1'], '.');
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

describe('serve --workers 2 (issue 18)', () => {
  it('two worker processes answer on one port, both naming --public-url in openapi.json; billing stays exact across them: credit for K = 30 finds, 60 concurrent -> 30 x 200, 30 x 402', async () => {
    const db = join(tmp, 'workers.sqlite');
    const store = new SqliteAccountsStore(db);
    const K = 30;
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: K * priceMicros('find') });
    await store.close();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--data', 'fixtures/venues.ndjson', '--port', '0', '--db', db, '--workers', '2', '--public-url', 'https://api.example.com/venues/'], {
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
