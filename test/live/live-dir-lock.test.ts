// One service per live directory: a second one is refused while the first runs; a lock whose
// owner is gone (SIGKILL, a reused pid, a restarted container's own pid) is taken over.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LiveDirLock } from '../../src/changelog/live-dir-lock.js';
import { stderrOfSync } from './support/stderr-capture.js';

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

  it('takes over the lock of a holder killed but not yet reaped by its parent (a zombie holds nothing; audit 71d F1: a restart 300 ms after a SIGKILL was refused)', async () => {
    const dir = join(tmp, 'zombie');
    mkdirSync(dir);
    const script = join(tmp, 'zombie-holder.mts');
    writeFileSync(script, `const { LiveDirLock } = await import(${JSON.stringify(MODULE)}); LiveDirLock.acquire(${JSON.stringify(dir)}); console.log('held', process.pid); setInterval(() => {}, 1000);\n`);
    // the holder's parent is a shell that becomes `sleep`, which never reaps it
    const parent = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(script)} & exec sleep 60`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const pid = await new Promise<number>((resolve, reject) => {
        parent.stdout!.on('data', (d: Buffer) => {
          const m = /held (\d+)/.exec(d.toString());
          if (m !== null) resolve(Number(m[1]));
        });
        parent.once('exit', (code) => reject(new Error(`holder's parent exited with ${code}`)));
      });
      expect(() => LiveDirLock.acquire(dir)).toThrow(/in use by process/);
      process.kill(pid, 'SIGKILL');
      // a zombie: state Z in /proc (field 3), its pid still answering kill(pid, 0)
      await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0]).toBe('Z'), { timeout: 10_000, interval: 20 });
      expect(() => process.kill(pid, 0)).not.toThrow();
      const lock = LiveDirLock.acquire(dir);
      expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
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

  it('every takeover says so on stderr: a pid that no longer runs, an empty lock (audit 63a F6)', () => {
    const dir = join(tmp, 'said');
    mkdirSync(dir);
    const lockPath = join(dir, 'lock');
    expect(() => process.kill(999999, 0)).toThrow(/ESRCH/); // the precondition: no process 999999 here
    const { said } = stderrOfSync(() => {
      writeFileSync(lockPath, '999999 1\n');
      LiveDirLock.acquire(dir).release();
      writeFileSync(lockPath, '');
      LiveDirLock.acquire(dir).release();
    });
    expect(said).toEqual([
      `venue-search: the lock of the live directory ${dir} (${lockPath}) was held by process 999999, which no longer runs (or its pid is now another process's): that service is gone, and the lock is taken over\n`,
      `venue-search: the lock of the live directory ${dir} (${lockPath}) names no process (empty or cut short: its owner died while writing it); it is taken over\n`,
    ]);
  });

  // audit 62b finding 1: a pid means something only on its host and in its PID namespace
  it('records the holder beyond its pid (host, boot id, PID namespace, the folder); refuses a holder on another host or in another PID namespace, naming the file to remove', () => {
    const dir = join(tmp, 'elsewhere');
    mkdirSync(dir);
    const lock = LiveDirLock.acquire(dir);
    const written = readFileSync(join(dir, 'lock'), 'utf8');
    lock.release();
    // independent oracle: what this machine says about itself
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidns = readlinkSync('/proc/self/ns/pid');
    const st = statSync(dir);
    const startTime = readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    const folder = `${st.dev}:${st.ino}`;
    expect(written).toBe(`${process.pid} ${startTime} host=${encodeURIComponent(hostname())} boot=${boot} pidns=${encodeURIComponent(pidns)} dir=${encodeURIComponent(folder)}\n`);

    // what a service in another container on this machine writes (its pid does not run here:
    // the pid check alone took such a lock over)
    const file = join(dir, 'lock');
    const lockPath = file;
    writeFileSync(file, `999999 12345 host=${encodeURIComponent(hostname())} boot=${boot} pidns=pid%3A%5B4026532999%5D dir=${encodeURIComponent(folder)}\n`);
    expect(() => LiveDirLock.acquire(dir)).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        param: 'liveDir',
        message: `the live directory ${dir} is held by process 999999 in another PID namespace on this host (pid:[4026532999]; this is ${pidns}: another container) (${lockPath}), which cannot be checked from here; it marked the lock alive 0 s ago; one service at a time may hold a live directory: stop that one, or give this one another --live-dir. If that service is gone (it crashed or was killed), start again once 60 s have passed since its last mark, or remove ${lockPath}`,
      }),
    );
    expect(readFileSync(file, 'utf8')).toMatch(/^999999 12345 /); // left as it was
    // the same lock not marked alive for over a minute (its container crashed, and a restart
    // came up in a new namespace): the crashed owner's, taken over, said on stderr
    const longAgo = new Date(Date.now() - 75_000);
    utimesSync(file, longAgo, longAgo);
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(chunk) > 0) as typeof process.stderr.write;
    try {
      LiveDirLock.acquire(dir).release();
    } finally {
      process.stderr.write = write;
    }
    expect(said.join('')).toBe(`venue-search: the lock of the live directory ${dir} (${lockPath}) was held by process 999999 in another PID namespace on this host (pid:[4026532999]; this is ${pidns}: another container), which has not marked it alive for 75 s (it marks it every 10 s): that service is gone, and the lock is taken over\n`);
    writeFileSync(file, `999999 12345 host=${encodeURIComponent(hostname())} boot=${boot} pidns=pid%3A%5B4026532999%5D dir=${encodeURIComponent(folder)}\n`);
    // another machine sharing the volume: same inode, its own device number and boot id
    writeFileSync(file, `999999 12345 host=db-2.internal boot=0f105aef-0000-4d5d-871a-bf3f1c8dbcf4 pidns=pid%3A%5B4026531836%5D dir=${encodeURIComponent(`77:${st.ino}`)}\n`);
    expect(() => LiveDirLock.acquire(dir)).toThrow(`is held by process 999999 on host db-2.internal (this is ${hostname()}) (${lockPath}), which cannot be checked from here`);
    // the same host name with another boot id, marked just now: this machine rebooted, or another
    // machine of the same name (cloned VMs, `localhost`) holds it and is alive: refused (audit 63a F6)
    const rebooted = `${process.ppid} 12345 host=${encodeURIComponent(hostname())} boot=00000000-0000-0000-0000-000000000000 pidns=${encodeURIComponent(pidns)} dir=${encodeURIComponent(folder)}\n`;
    writeFileSync(file, rebooted);
    expect(() => LiveDirLock.acquire(dir)).toThrow(
      `the live directory ${dir} is held by process ${process.ppid} on host ${hostname()} with another boot id (00000000-0000-0000-0000-000000000000; this is ${boot}: this machine restarted since, or another machine has the same host name) (${lockPath}), which cannot be checked from here; it marked the lock alive 0 s ago;`,
    );
    expect(readFileSync(file, 'utf8')).toBe(rebooted); // left as it was
    // not marked for 75 s: gone, taken over, said on stderr
    utimesSync(file, longAgo, longAgo);
    said.length = 0;
    process.stderr.write = ((chunk: string) => said.push(chunk) > 0) as typeof process.stderr.write;
    try {
      LiveDirLock.acquire(dir).release();
    } finally {
      process.stderr.write = write;
    }
    expect(said.join('')).toBe(
      `venue-search: the lock of the live directory ${dir} (${lockPath}) was held by process ${process.ppid} on host ${hostname()} with another boot id (00000000-0000-0000-0000-000000000000; this is ${boot}: this machine restarted since, or another machine has the same host name), which has not marked it alive for 75 s (it marks it every 10 s): that service is gone, and the lock is taken over\n`,
    );
    // same host, boot and namespace: the pid decides, as before (the parent runs, its start time recorded)
    const parentStart = readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    writeFileSync(file, `${process.ppid} ${parentStart} host=${encodeURIComponent(hostname())} boot=${boot} pidns=${encodeURIComponent(pidns)} dir=${encodeURIComponent(folder)}\n`);
    expect(() => LiveDirLock.acquire(dir)).toThrow(`the live directory ${dir} is in use by process ${process.ppid} (${lockPath}); one service at a time may hold a live directory: stop that one, or give this one another --live-dir`);
    rmSync(file);
  });

  // audit 64a F12: another machine's clock (or the volume server's) runs ahead, so its mark
  // lies in this machine's future; "start again once 60 s have passed" would not free it
  it('a lock marked ahead of this clock (clock skew) is refused with advice that works: remove it, waiting does not help', () => {
    const dir = join(tmp, 'skewed');
    mkdirSync(dir);
    const st = statSync(dir);
    const file = join(dir, 'lock');
    const held = `999999 12345 host=db-2.internal boot=0f105aef-0000-4d5d-871a-bf3f1c8dbcf4 pidns=pid%3A%5B4026531836%5D dir=${encodeURIComponent(`77:${st.ino}`)}\n`;
    writeFileSync(file, held);
    const ahead = new Date(Date.now() + 3_600_000); // an hour ahead, as `touch -d '+1 hour'`
    utimesSync(file, ahead, ahead);
    let message = '';
    try {
      LiveDirLock.acquire(dir).release();
    } catch (e) {
      message = (e as Error).message;
    }
    // 3,600 s ahead, less the few ms since: rounds to 3600 or 3599
    expect(message).toMatch(new RegExp(`held by process 999999 on host db-2\\.internal .*which cannot be checked from here; its last mark is 3(600|599) s ahead of this machine's clock \\(the clocks of the machines sharing the volume differ, or the file was touched\\), so how long ago it was marked cannot be told; one service at a time may hold a live directory: stop that one, or give this one another --live-dir\\. If that service is gone \\(it crashed or was killed\\), remove ${file.replace(/[.]/g, '\\.')}: waiting does not free it while the clocks differ$`));
    expect(message).not.toContain('once 60 s have passed');
    expect(readFileSync(file, 'utf8')).toBe(held); // left as it was
    // a mark a second ahead (clocks a little apart) reads as just now, as before
    const slightly = new Date(Date.now() + 1_000);
    utimesSync(file, slightly, slightly);
    expect(() => LiveDirLock.acquire(dir)).toThrow('it marked the lock alive 0 s ago;');
  });

  it('a holder marks its lock alive every 10 s (the file\'s modification time), and stops when it lets go', () => {
    const dir = join(tmp, 'marks');
    mkdirSync(dir);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const lock = LiveDirLock.acquire(dir);
      const file = join(dir, 'lock');
      const longAgo = new Date(Date.now() - 120_000);
      utimesSync(file, longAgo, longAgo);
      vi.advanceTimersByTime(9_999);
      expect(Date.now() - statSync(file).mtimeMs).toBeGreaterThan(100_000);
      vi.advanceTimersByTime(1);
      expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(5_000);
      lock.release();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  // the audit's own repro: a second service in another PID namespace (unshare, as a container
  // is) on the same directory; before, it saw the holder's pid as not running and took over
  const canUnshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  it.skipIf(!canUnshare)('a process in a real other PID namespace (unshare --pid) is refused while this one holds the lock, and this one while it holds it', async () => {
    const dir = join(tmp, 'namespaces');
    mkdirSync(dir);
    const inNamespace = (): { status: number | null; out: string } => {
      const r = spawnSync(
        'unshare',
        ['--pid', '--fork', '--mount-proc', process.execPath, '--import', 'tsx', '-e', `const { LiveDirLock } = await import(${JSON.stringify(MODULE)}); try { LiveDirLock.acquire(${JSON.stringify(dir)}); console.log('held'); } catch (err) { console.log(err.message); }`],
        { encoding: 'utf8' },
      );
      return { status: r.status, out: r.stdout.trim() };
    };
    const lock = LiveDirLock.acquire(dir);
    const mine = readFileSync(join(dir, 'lock'), 'utf8');
    const outside = inNamespace();
    expect(outside.out).toMatch(new RegExp(`^the live directory ${dir} is held by process ${process.pid} in another PID namespace on this host \\(pid:\\[\\d+\\]; this is pid:\\[\\d+\\]: another container\\)`));
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toBe(mine);
    lock.release();
    // the other way round: the namespace's process held it (pid 1 there) and was killed with its namespace
    expect(inNamespace().out).toBe('held');
    const theirs = readFileSync(join(dir, 'lock'), 'utf8');
    expect(theirs).toMatch(/^1 \d+ host=/);
    expect(() => LiveDirLock.acquire(dir)).toThrow(`is held by process 1 in another PID namespace on this host`);
    rmSync(join(dir, 'lock'));
  }, 60_000);

  // audit 62b finding 5: `cp -a L1 L4` copies L1's lock, which named L1's healthy service
  it('replaces a lock copied with its directory (cp -a) while the original holder runs, saying so on stderr', async () => {
    const l1 = join(tmp, 'L1');
    mkdirSync(l1);
    writeFileSync(join(l1, 'changes.log'), '');
    const child = await holder(l1);
    try {
      const l4 = join(tmp, 'L4');
      cpSync(l1, l4, { recursive: true, preserveTimestamps: true });
      const copied = readFileSync(join(l4, 'lock'), 'utf8');
      expect(copied).toBe(readFileSync(join(l1, 'lock'), 'utf8'));
      const st1 = statSync(l1);
      const st4 = statSync(l4);
      const stderr: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
      let lock: LiveDirLock;
      try {
        lock = LiveDirLock.acquire(l4);
      } finally {
        process.stderr.write = write;
      }
      expect(stderr.join('')).toBe(
        `venue-search: the lock of the live directory ${l4} (${join(l4, 'lock')}) was written for another directory (folder ${st1.dev}:${st1.ino}, this one ${st4.dev}:${st4.ino}: copied with it, cp -a); it is stale and is replaced\n`,
      );
      expect(readFileSync(join(l4, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} .* dir=${st4.dev}%3A${st4.ino}\\n$`));
      // L1 is still held by its own service, untouched
      expect(readFileSync(join(l1, 'lock'), 'utf8')).toBe(copied);
      expect(() => LiveDirLock.acquire(l1)).toThrow(`in use by process ${child.pid}`);
      lock.release();
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  }, 60_000);
});
