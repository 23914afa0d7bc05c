// `serve --compact-after N` says on stderr when the next automatic compaction may start after
// one failed (audit 65d F4; the wait itself: compaction-backoff.test.ts). The failure: a
// folder at `base.snapshot.next`, where the new base is written. Oracle: the line written here
// by hand from docs/updates.md, the time checked against the clock read around the request.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES_PATH } from '../search/support.js';
import { CLI_MAIN } from '../support/cli.js';
import { adminRoutesBase } from './support/admin-routes-line.js';

const TOKEN = 'backoff-cli-operator-token-01';
const tmp = mkdtempSync(join(tmpdir(), 'compaction-backoff-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

describe('serve --compact-after after a failed compaction', () => {
  it('says on stderr, after the failure, when the next automatic try may start', async () => {
    const token = join(tmp, 'token');
    writeFileSync(token, `${TOKEN}\n`, { mode: 0o600 });
    const liveDir = join(tmp, 'live');
    const server = spawn(
      process.execPath,
      [CLI_MAIN, 'serve', '--data', FIXTURES_PATH, '--port', '0', '--db', join(tmp, 'a.sqlite'), '--admin-token-file', token, '--live-dir', liveDir, '--compact-after', '2'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(server);
    const lines: string[] = [];
    const waiting: Array<{ test: (l: string) => boolean; resolve: (l: string) => void }> = [];
    createInterface({ input: server.stderr! }).on('line', (line) => {
      lines.push(line);
      for (const w of waiting.splice(0)) if (w.test(line)) w.resolve(line);
      else waiting.push(w);
    });
    const exited = new Promise<string>((resolve) => server.once('exit', (code, signal) => resolve(`the service exited (${signal ?? code})`)));
    // the first line `test` accepts; a service that exits, or says nothing of the kind within
    // 60 s, fails the test at once with what it printed (not at the test's timeout)
    const lineMatching = async (test: (l: string) => boolean, what: string): Promise<string> => {
      let timer: NodeJS.Timeout | undefined;
      const found = new Promise<string>((resolve) => {
        const seen = lines.find(test);
        if (seen !== undefined) resolve(seen);
        else waiting.push({ test, resolve });
      });
      const failed = Promise.race([exited, new Promise<string>((resolve) => (timer = setTimeout(() => resolve('60 s passed'), 60_000)))]).then((why) => {
        throw new Error(`no line ${what} on the service's stderr: ${why}; it printed:\n${lines.join('\n')}`);
      });
      failed.catch(() => {}); // once the line is found, a later exit is no failure
      try {
        return await Promise.race([found, failed]);
      } finally {
        clearTimeout(timer);
      }
    };
    const routes = await lineMatching((l) => l.includes('Admin routes on'), 'naming its admin routes');
    const base = adminRoutesBase(routes)!;
    mkdirSync(join(liveDir, 'base.snapshot.next'));

    const before = Date.now();
    for (const k of [1, 2]) {
      const body = JSON.stringify({ id: `cli-backoff-${k}`, name: `Backoff Tap ${k}`, location: { type: 'Point', coordinates: [-0.12, 51.5] }, primaryGenre: 'pub' });
      const res = await fetch(`${base}/admin/venues`, { method: 'PUT', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' }, body });
      expect(res.status).toBe(200);
    }
    const failed = await lineMatching((l) => l.includes('compaction failed'), 'saying the compaction failed');
    const after = Date.now();
    const m = /^venue-search: compaction failed: .*EISDIR.*; the base and the change log are as they were; the next automatic compaction is not before (\S+) \(in 30 s\), at the first change after that; POST \/admin\/compact tries at once$/.exec(failed);
    expect(m, failed).not.toBeNull();
    const at = Date.parse(m![1]!);
    expect(at).toBeGreaterThanOrEqual(before + 30_000);
    expect(at).toBeLessThanOrEqual(after + 30_000);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }, 120_000);
});
