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
  it('serves the fixtures with a printed development key; reuses the account on restart with new keys', async () => {
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
    first.child.kill('SIGTERM');
    expect(await new Promise((resolve) => first.child.once('exit', resolve))).toBe(0);

    const second = await start();
    expect(second.key).not.toBe(first.key);
    expect((await fetch(`${second.base}/v1/business/balances`, { headers: { 'API-Key': first.key } })).status).toBe(401);
    const balances = await fetch(`${second.base}/v1/business/balances`, { headers: { 'API-Key': second.key } });
    expect(await balances.json()).toMatchObject({ accountId: 'acct_development', plan: 'Enterprise', balanceMicros: 10_000_000 });
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  });
});
