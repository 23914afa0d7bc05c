/**
 * The compaction worker's reading of the change log (compaction-worker.ts): the main thread
 * tells the worker the seq of each batch it logged, and the worker reads the new entries and
 * applies them to its engine then, as runs, in the background. A compaction then finds every
 * batch applied and only folds (Engine.compact): it neither parses the log nor builds the
 * batches (docs/updates.md, "Applied as logged").
 * - Only complete lines are read (a newline, the checksum right); the rest of the file is read
 *   at the next catch-up. A line past the seq asked for is not applied: the main thread has
 *   not acknowledged it yet (ChangeLog.append writes before it syncs).
 * - A compaction replaces the log (ChangeLog.keepFrom renames a new file over it, holding the
 *   entries the new base lacks): after {@link replaced}, or on finding a file with another
 *   inode, the log is read from its start, and the entries applied already are skipped.
 * - Every entry the log holds is applied, those the base holds too: applying an entry again
 *   changes nothing (each sets the state of the venues it names), and a base's recorded seq is
 *   not proof that it holds an entry (a data-origin.json written by hand over a log that still
 *   held batches: audit 67g F0, whose batches the compaction then dropped from both the base
 *   and the log).
 * - The engine holds every batch up to `heldSeq`: the later of the base's seq (`baseSeq`: the
 *   last seq folded into a compacted base, data-origin.json's lastSeq; 0 for --data) and the
 *   last entry applied. After a compaction emptied the log and the service restarted, the log
 *   holds none of the base's batches, and "logged up to baseSeq" is then already true (audit
 *   67e F4: the follower counted from 0 and refused the log, "entry N was logged, but the log
 *   holds entries up to 0 only", so the service's first compaction failed).
 * - An entry after the base's seq follows the one before it (or the base's seq); the log's
 *   entries the base holds may start anywhere (a log a compaction did not cut yet), and so may
 *   the log of a base that recorded no seq (a release before 2026-11-29).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseLine, type LogEntry } from './change-log.js';

export class LogFollower {
  readonly path: string;
  /** The seq of the last entry applied (0: none yet). */
  appliedSeq = 0;
  /** The seq of the last batch the base holds (0: none, or not recorded). */
  private readonly baseSeq: number;
  /** The inode of the file read so far (-1: none). */
  private inode = -1;
  /** Bytes of that file read and consumed: whole lines, the entries applied or skipped. */
  private offset = 0;

  /** `baseSeq`: the seq of the last batch the base holds (0: none, or not recorded). */
  constructor(path: string, baseSeq = 0) {
    this.path = path;
    this.baseSeq = baseSeq;
  }

  /** The seq up to which the engine holds every batch: the base's, or the last entry applied if later. */
  get heldSeq(): number {
    return Math.max(this.appliedSeq, this.baseSeq);
  }

  /** Told that the log was replaced by a new file (read it from its start). */
  replaced(): void {
    this.inode = -1;
    this.offset = 0;
  }

  /**
   * Applies, in order, each entry after {@link appliedSeq} up to `toSeq` that the log holds,
   * with `apply`; returns how many it applied. Throws if the log does not hold them all (a
   * gap, or `toSeq` not reached): the entries applied stay applied, and a later call goes on
   * from there. An entry whose `apply` throws is not counted applied.
   */
  catchUp(toSeq: number, apply: (entry: LogEntry) => void): number {
    if (this.appliedSeq >= toSeq) return 0;
    const bytes = this.readNew();
    let applied = 0;
    // Bytes of `bytes` consumed: whole lines, each applied or skipped.
    let at = 0;
    try {
      while (at < bytes.length && this.appliedSeq < toSeq) {
        const nl = bytes.indexOf(10, at);
        if (nl < 0) break; // a line being written
        const entry = parseLine(bytes.toString('utf8', at, nl));
        if (entry === null || entry.seq > toSeq) break; // being written, or not acknowledged yet
        if (entry.seq > this.appliedSeq) {
          // after the base's seq, each entry follows the one held before it
          const held = this.heldSeq;
          if (entry.seq > this.baseSeq && held > 0 && entry.seq !== held + 1) {
            throw new Error(`change log ${this.path}: entry ${entry.seq} follows entry ${held}, the entries between are missing`);
          }
          apply(entry);
          this.appliedSeq = entry.seq;
          applied++;
        }
        at = nl + 1;
      }
    } finally {
      this.offset += at;
    }
    if (this.heldSeq < toSeq) throw new Error(`change log ${this.path}: entry ${toSeq} was logged, but the log holds entries up to ${this.heldSeq} only`);
    return applied;
  }

  /** The bytes of the log after those consumed (from its start when the file was replaced); none when there is no log. */
  private readNew(): Buffer {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
      throw e;
    }
    try {
      const { ino, size } = fstatSync(fd);
      if (ino !== this.inode) {
        this.inode = ino;
        this.offset = 0;
      }
      const bytes = Buffer.allocUnsafe(Math.max(0, size - this.offset));
      let read = 0;
      while (read < bytes.length) {
        const n = readSync(fd, bytes, read, bytes.length - read, this.offset + read);
        if (n === 0) break;
        read += n;
      }
      return bytes.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  }
}
