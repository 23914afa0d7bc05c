// One service per live directory: a second one is refused while the first runs; a lock whose
// owner is gone (SIGKILL, a reused pid, a restarted container's own pid) is taken over.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveDirLock } from '../../src/changelog/live-dir-lock.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-lock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const MODULE = new URL('../../src/changelog/live-dir-lock.ts', import.meta.url).pathname;

/** A child process holding the lock of `dir` until it is killed; resolves once it holds it. */
async function holder(dir: string): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `const { LiveDirLock } = await import(${JSON.stringify(MODULE)}); LiveDirLock.acquire(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000);`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}

describe('LiveDirLock', () => {
  it('refuses a second holder while the first process runs, naming it; takes over once it is killed', async () => {
    const dir = join(tmp, 'two');
    mkdirSync(dir);
    const child = await holder(dir);
    try {
      expect(() => LiveDirLock.acquire(dir)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'liveDir', message: expect.stringContaining(`in use by process ${child.pid}`) }));
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    // its lock file is still there, naming a pid that no longer runs: taken over
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${child.pid} `));
    const lock = LiveDirLock.acquire(dir);
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    // a second hold from this same process is refused too, until the first is released
    expect(() => LiveDirLock.acquire(dir)).toThrow(/in use by process/);
    lock.release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    LiveDirLock.acquire(dir).release();
  }, 60_000);

  it("takes over a lock whose pid runs another process (started at another time), or is this process's own from before", () => {
    const dir = join(tmp, 'stale');
    mkdirSync(dir);
    // the parent process runs, but did not start at clock tick 1
    writeFileSync(join(dir, 'lock'), `${process.ppid} 1\n`);
    LiveDirLock.acquire(dir).release();
    // a container restarted with the same pid: the lock names this process, which holds nothing
    writeFileSync(join(dir, 'lock'), `${process.pid} 1\n`);
    LiveDirLock.acquire(dir).release();
    // a lock cut short (its owner died between creating and writing it)
    writeFileSync(join(dir, 'lock'), '');
    LiveDirLock.acquire(dir).release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });
});
