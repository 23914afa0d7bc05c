/**
 * `venue-search serve --dev` end to end: a real process over the bundled fixtures, the
 * printed development keys used over loopback, SIGTERM for a clean stop.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-serve-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('serve --dev', () => {
  it('serves the fixtures with a printed development key; a second --dev server shares the account without revoking keys or resetting the balance (issue 14)', async () => {
    const db = join(tmp, 'dev.sqlite');
    const start = async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--data', 'fixtures/venues.ndjson', '--dev', '--port', '0', '--db', db], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      const info = await new Promise<{ base: string; key: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start in 30 s: ${err}`)), 30_000);
        child.stderr!.on('data', (chunk: Buffer) => {
          err += String(chunk);
          const base = /serving .* on (http:\/\/\S+)\/v1\//.exec(err)?.[1];
          const key = /secret key\s+(sk_\S+)/.exec(err)?.[1];
          if (base !== undefined && key !== undefined) {
            clearTimeout(timer);
            resolve({ base, key });
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      return { child, ...info };
    };
    const first = await start();
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
