import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LiveVenues } from '../../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../../src/cli/load-engine.js';
import { CLI_MAIN } from '../../support/cli.js';
import { writeFixturesSnapshot } from '../../support/fixtures-snapshot.js';
import { adminRoutesOf } from './admin-routes-line.js';

export interface SpawnLimits {
  /**
   * The largest file the process may write, bytes (a multiple of 512): a write that crosses it
   * is short and the next one fails with EFBIG, as on a disk that fills up.
   */
  readonly fileSizeBytes?: number;
}

/**
 * What a test of the live service as a process needs: a temporary folder (removed after the
 * file's tests, with every server still running killed), a snapshot of the fixtures as
 * `--data`, the service an operator runs started on a live directory (`venue-search serve
 * --admin-token-file --live-dir --compact-after`, the compiled command), and the service's start
 * path to read what a process left.
 */
export function liveServerFixture(prefix: string, token: string) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  });
  const baseSnapshot = writeFixturesSnapshot(tmp);
  const tokenFile = join(tmp, 'operator-token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  let started = 0;
  return {
    tmp,
    baseSnapshot,
    /**
     * `serve` on `liveDir`, compacting at `compactAfter` pending changes (0: only when asked,
     * POST /admin/compact), with its own accounts database; its base URL once it listens (60 s at
     * most). Its stderr is kept for the failure message only.
     */
    async start(liveDir: string, compactAfter: number, limits: SpawnLimits = {}): Promise<{ child: ChildProcess; base: string }> {
      const command = [process.execPath, CLI_MAIN, 'serve', '--data', baseSnapshot, '--port', '0', '--host', '127.0.0.1', '--db', join(tmp, `accounts-${started++}.sqlite`), '--admin-token-file', tokenFile, '--live-dir', liveDir, '--compact-after', String(compactAfter)];
      // `ulimit -f` counts blocks of 512 bytes; the shell execs node, so the child is node itself
      const child =
        limits.fileSizeBytes === undefined
          ? spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] })
          : spawn('sh', ['-c', `ulimit -f ${Math.floor(limits.fileSizeBytes / 512)} && exec "$@"`, 'sh', ...command], { stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(child);
      const base = await adminRoutesOf(child, []);
      return { child, base };
    },
    /** LiveVenues.open over the base snapshot and `liveDir`, as a restarted service opens them. */
    reopen: (liveDir: string) => LiveVenues.open({ dataPath: baseSnapshot, dir: liveDir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine }),
  };
}
