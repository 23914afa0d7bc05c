import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { VenueSearchError } from '../errors.js';

/**
 * One process at a time in a live directory (docs/updates.md): two services appending to one
 * change log would write the same sequence numbers, and the log would then refuse to load.
 *
 * `<dir>/lock` holds the owner's pid and that process's start time (Linux: field 22 of
 * /proc/<pid>/stat, clock ticks after boot; empty elsewhere). It is created with O_EXCL
 * when the directory is opened and removed when it is closed. A lock whose owner is gone
 * (SIGKILL, a crash, a reboot) is taken over at once: its pid is not running, is this
 * process's own (a container restarted with the same pid), or runs a process that started
 * at another time than the owner did (the pid was reused).
 *
 * Not guarded: two processes taking over the same stale lock at the same instant (each
 * removes it, then only one creates it; the other may remove the new one first). Starts
 * that race like that are an operator's own doing (start one service per directory).
 */
export class LiveDirLock {
  /** Lock files this process holds (a second hold from this process is refused too). */
  private static readonly held = new Set<string>();

  private constructor(readonly path: string) {}

  /** Takes the lock of `dir`; throws VenueSearchError (`invalid_request`, param `liveDir`) while another live process holds it. */
  static acquire(dir: string): LiveDirLock {
    const path = resolve(dir, 'lock');
    const mine = `${process.pid} ${processStartTime(process.pid)}\n`;
    for (let attempt = 0; attempt < 3; attempt++) {
      let fd: number;
      try {
        fd = openSync(path, 'wx');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = readOwner(path);
        if (LiveDirLock.held.has(path) || (owner !== null && ownerIsRunning(owner))) {
          throw new VenueSearchError(
            'invalid_request',
            `the live directory ${dir} is in use by process ${owner?.pid ?? process.pid} (${path}); one service at a time may hold a live directory: stop that one, or give this one another --live-dir`,
            { param: 'liveDir', value: dir },
          );
        }
        removeIfPresent(path); // its owner is gone: take it over
        continue;
      }
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      LiveDirLock.held.add(path);
      return new LiveDirLock(path);
    }
    throw new VenueSearchError('invalid_request', `could not take the lock of the live directory ${dir} (${path}): another process keeps replacing it`, { param: 'liveDir', value: dir });
  }

  /** Gives the directory up (idempotent). */
  release(): void {
    if (!LiveDirLock.held.delete(this.path)) return;
    const owner = readOwner(this.path);
    if (owner !== null && owner.pid === process.pid) removeIfPresent(this.path);
  }
}

interface LockOwner {
  readonly pid: number;
  /** The owner's start time as processStartTime gave it ('' where unknown). */
  readonly started: string;
}

function readOwner(path: string): LockOwner | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null; // removed meanwhile
  }
  const [pidText, started = ''] = text.trim().split(' ');
  const pid = Number(pidText);
  // a lock cut short (the owner died between create and write) has no owner worth waiting for
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, started } : null;
}

/** Whether the lock's owner still runs: its pid runs, is not ours (this process's own holds are in LiveDirLock.held), and started when the owner did. */
function ownerIsRunning(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = processStartTime(owner.pid);
  return owner.started === '' || started === '' || started === owner.started;
}

/** A process's start time, clock ticks after boot (Linux /proc), or '' where unknown. */
function processStartTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: count after its end
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? ''; // field 22 of the whole line
  } catch {
    return '';
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
