import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LiveVenues } from '../../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../../src/cli/load-engine.js';
import { writeFixturesSnapshot } from '../../support/fixtures-snapshot.js';
import { spawnPortServer, type SpawnLimits } from '../../support/port-server.js';

const SERVER = join(import.meta.dirname, 'live-server.ts');

/**
 * What a test of the live service as a process needs: a temporary folder (removed after the
 * file's tests, with every server still running killed), a snapshot of the fixtures as
 * `--data`, the service started on a live directory (support/live-server.ts, the pieces
 * `serve --admin-token-file` wires), and the service's start path to read what a process left.
 */
export function liveServerFixture(prefix: string, token: string) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  });
  const baseSnapshot = writeFixturesSnapshot(tmp);
  return {
    tmp,
    baseSnapshot,
    /** A service on `liveDir` compacting at `compactAfter` pending changes (0: on request only); its base URL. */
    async start(liveDir: string, compactAfter: number, limits: SpawnLimits = {}): Promise<{ child: ChildProcess; base: string }> {
      const { child, port } = await spawnPortServer(SERVER, [baseSnapshot, liveDir, token, String(compactAfter)], limits);
      children.push(child);
      return { child, base: `http://127.0.0.1:${port}` };
    },
    /** LiveVenues.open over the base snapshot and `liveDir`, as a restarted service opens them. */
    reopen: (liveDir: string) => LiveVenues.open({ dataPath: baseSnapshot, dir: liveDir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine }),
  };
}
