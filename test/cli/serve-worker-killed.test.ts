// `serve --workers 2` whose first worker is killed before it listens (a memory limit's
// SIGKILL): the primary says so and exits as a shell reports a SIGKILL (137). Until
// 2026-12-01 it exited 1 with an empty log, waiting for a line the killed worker could not
// print (audit 75e F2). Oracle: the exit code 128 + 9 and the line written by hand.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'serve-worker-killed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The pids of `pid`'s node children. */
function nodeChildren(pid: number): number[] {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid=,comm='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([, comm]) => comm === 'node')
      .map(([p]) => Number(p));
  } catch {
    return []; // ps exits 1 when there is none yet
  }
}

describe('serve --workers 2, its first worker killed before it listens (audit 75e F2)', () => {
  it('says the worker was killed by SIGKILL, pointing to memory, and exits 137', async () => {
    const child = spawn(process.execPath, [CLI_MAIN, 'serve', '--data', 'fixtures/venues.ndjson', '--port', '0', '--db', join(tmp, 'acc.sqlite'), '--workers', '2'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // the first worker, killed as soon as it exists (it loads the modules and the data first: about a second)
      let worker: number | undefined;
      await expect.poll(() => (worker = nodeChildren(child.pid!)[0]), { timeout: 30_000, interval: 20 }).toBeDefined();
      expect(stderr).not.toContain('serving'); // not listening yet
      process.kill(worker!, 'SIGKILL');
      expect(await exited).toBe(137);
      expect(stderr.trim().split('\n').at(-1)).toBe(
        'venue-search: the first worker was killed by SIGKILL before it listened: nothing was served (a memory limit or the kernel\'s out-of-memory killer sends SIGKILL; see "Memory" in docs/deploy.md)',
      );
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
