/**
 * A real `serve` on a live directory, for tests of the starts it refuses: the fixtures'
 * snapshot as --data, an admin token, an accounts file, all in a temporary folder removed
 * after the file's tests, and every child killed then.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { writeFixturesSnapshot } from '../../support/fixtures-snapshot.js';
import { CLI_MAIN } from '../../support/cli.js';


export interface RefusedServe {
  /** The temporary folder (live directories go in it). */
  readonly tmp: string;
  /** The fixtures' snapshot, given as --data. */
  readonly data: string;
  /** `serve --live-dir liveDir`: its exit code (null: killed after `hangMs`) and stderr. */
  serve(liveDir: string): Promise<{ code: number | null; stderr: string }>;
}

/** Sets up the folder, the data and the token for one test file named `name`; `hangMs`: a start that runs longer is killed (a hang). */
export function refusedServe(name: string, hangMs: number): RefusedServe {
  const tmp = mkdtempSync(join(tmpdir(), `${name}-`));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  });
  const data = writeFixturesSnapshot(tmp);
  const token = join(tmp, 'token');
  writeFileSync(token, `${name}-token-0001\n`, { mode: 0o600 });
  const serve = (liveDir: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const args = [CLI_MAIN, 'serve', '--data', data, '--port', '0', '--db', join(tmp, 'a.sqlite'), '--admin-token-file', token, '--live-dir', liveDir];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: hangMs, killSignal: 'SIGKILL' });
      children.push(child);
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += String(d)));
      child.once('exit', (code) => resolve({ code, stderr }));
    });
  return { tmp, data, serve };
}
