/**
 * The durable change log of a live service (docs/updates.md): one line per accepted batch,
 * appended and fsync'ed before the batch is acknowledged, replayed over the base at start.
 *
 * Line format: `<crc32 of the JSON, 8 hex digits> <JSON>\n`, the JSON being
 * `{"seq":n,"op":"upsert","records":[...]}` or `{"seq":n,"op":"remove","ids":[...]}`.
 * A crash can leave only the last line incomplete (no newline, or a checksum that does not
 * match): reading drops it and cuts the file back, so that batch is absent as a whole
 * (it was never acknowledged). A bad line before the last is damage, not a crash: reading
 * refuses the file, naming the line.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { VenueSearchError } from '../errors.js';
import type { VenueRecord } from '../schema/venue.js';

export type Change = { readonly op: 'upsert'; readonly records: readonly VenueRecord[] } | { readonly op: 'remove'; readonly ids: readonly string[] };

export interface LogEntry {
  /** 1, 2, 3, ... in the order the batches were accepted. */
  readonly seq: number;
  readonly change: Change;
}

/** The text of one log line (newline included). */
export function logLine(entry: LogEntry): string {
  const json = JSON.stringify(entry.change.op === 'upsert' ? { seq: entry.seq, op: 'upsert', records: entry.change.records } : { seq: entry.seq, op: 'remove', ids: entry.change.ids });
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/**
 * The entries of the log at `path` ([] when there is none), and the byte length of its
 * complete lines (what is left when a torn last line is cut off).
 */
export function readLog(path: string): { entries: LogEntry[]; goodBytes: number; tornBytes: number; tornWhole: boolean } {
  if (!existsSync(path)) return { entries: [], goodBytes: 0, tornBytes: 0, tornWhole: false };
  const bytes = readFileSync(path);
  const entries: LogEntry[] = [];
  let at = 0;
  let lineNo = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(10, at);
    lineNo++;
    const end = nl < 0 ? bytes.length : nl;
    const entry = parseLine(bytes.toString('utf8', at, end));
    if (entry === null || nl < 0) {
      // Only the last line may be torn by a crash (a line without its newline is torn too:
      // the batch was acknowledged only after the whole line was on disk).
      if (nl < 0 || nl === bytes.length - 1) return { entries, goodBytes: at, tornBytes: bytes.length - at, tornWhole: nl >= 0 };
      throw damagedLineError(path, bytes, lineNo, at, entries.at(-1)?.seq);
    }
    if (entry.seq !== (entries.at(-1)?.seq ?? entry.seq - 1) + 1) {
      throw new VenueSearchError('invalid_data', `change log ${path} line ${lineNo}: seq ${entry.seq} does not follow ${entries.at(-1)?.seq}`, { param: 'path', value: path, line: lineNo });
    }
    entries.push(entry);
    at = end + 1;
  }
  return { entries, goodBytes: bytes.length, tornBytes: 0, tornWhole: false };
}

/**
 * The refusal of a log whose line `lineNo` (starting at byte `at`) is damaged and not the
 * last: where it is, the seq of the last intact line before it and of the first intact line
 * after it, how many of the lines after it are intact, and the recovery procedure's section
 * of docs/updates.md. Nothing is repaired: which batches to send again is the operator's call.
 */
function damagedLineError(path: string, bytes: Buffer, lineNo: number, at: number, seqBefore: number | undefined): VenueSearchError {
  let intact = 0;
  let later = 0;
  let seqAfter: number | undefined;
  for (let from = bytes.indexOf(10, at) + 1; from < bytes.length; ) {
    const nl = bytes.indexOf(10, from);
    const end = nl < 0 ? bytes.length : nl;
    const entry = nl < 0 ? null : parseLine(bytes.toString('utf8', from, end));
    later++;
    if (entry !== null) {
      intact++;
      seqAfter ??= entry.seq;
    }
    from = end + 1;
  }
  const before = seqBefore === undefined ? 'it is the first line' : `the last intact line before it holds seq ${seqBefore}`;
  const after = seqAfter === undefined ? 'none of the lines after it is intact' : `the first intact line after it holds seq ${seqAfter}; ${intact} of the ${later} lines after it are intact`;
  return new VenueSearchError(
    'invalid_data',
    `change log ${path} is damaged at line ${lineNo}, byte ${at} (not the last line, so not a torn write): ${before}; ${after}. ` +
      'Nothing was changed: restore the live directory from a copy, or cut the log at that byte and send the changes from there again (docs/updates.md, "A damaged change log")',
    { param: 'path', value: path, line: lineNo },
  );
}

/**
 * The seq of the log's first line, read from its first bytes alone (a line starts
 * `<crc> {"seq":n,`, logLine); undefined when there is no log, it is empty, or its start is
 * not a line's. A log is started at seq 1 and only a compaction cuts lines from its front
 * (ChangeLog.keepFrom), so a first seq above 1 says a compaction folded the lines before it
 * into the base, even in a live directory that recorded no compaction (data-origin.ts).
 */
export function firstLoggedSeq(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, head.length, 0);
    const seq = /^[0-9a-f]{8} \{"seq":(\d+),/.exec(head.toString('latin1', 0, n))?.[1];
    return seq === undefined ? undefined : Number(seq);
  } finally {
    closeSync(fd);
  }
}

/** The entry of one log line (without its newline), or null when it is not a whole, intact line. */
export function parseLine(line: string): LogEntry | null {
  const space = line.indexOf(' ');
  if (space !== 8) return null;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return null;
  let o: { seq?: unknown; op?: unknown; records?: unknown; ids?: unknown };
  try {
    o = JSON.parse(json) as typeof o;
  } catch {
    return null;
  }
  if (typeof o.seq !== 'number') return null;
  if (o.op === 'upsert' && Array.isArray(o.records)) return { seq: o.seq, change: { op: 'upsert', records: o.records as VenueRecord[] } };
  if (o.op === 'remove' && Array.isArray(o.ids)) return { seq: o.seq, change: { op: 'remove', ids: o.ids as string[] } };
  return null;
}

/** Appends the log's bytes from `from` on to `<path>.torn` and syncs it (ChangeLog.open, before it cuts them). */
function keepTornBytes(path: string, from: number): void {
  const torn = readFileSync(path).subarray(from);
  const fd = openSync(`${path}.torn`, 'a');
  try {
    // each cut on a line of its own after a header, so that two cuts (torn lines end without a newline) stay apart
    writeFileSync(fd, tornHeader(torn.length, from, new Date()));
    writeFileSync(fd, torn);
    if (torn.at(-1) !== 0x0a) writeFileSync(fd, '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncDirectory(dirname(path));
}

/** The line `changes.log.torn` holds before each cut: when, how many bytes, from where. */
export function tornHeader(bytes: number, from: number, at: Date): string {
  return `# ${at.toISOString()}: ${bytes} bytes cut from the end of the log at byte ${from}\n`;
}

/** {@link syncDirectory} without blocking the thread (the compaction runs beside queries). */
export async function syncDirectoryAsync(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of a directory, so that a rename or a new file in it survives a crash. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A batch the change log could not take (a full disk, an I/O error). It was not applied and
 * is not acknowledged. `cutBack`: the file was cut back to its last whole line, so the log
 * takes the next batch as usual once the cause is fixed; otherwise it takes none until the
 * service restarts.
 */
export class ChangeLogWriteError extends Error {
  override readonly name = 'ChangeLogWriteError';
  constructor(
    readonly path: string,
    cause: unknown,
    readonly cutBack: boolean,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      cutBack
        ? `the change log ${path} could not take the batch (${why}); nothing of it was kept or applied`
        : `the change log ${path} takes no batch until the service restarts: a write failed (${why}) and the file could not be cut back to its last whole batch`,
      { cause },
    );
  }
}

/**
 * The log file, open for appending. Appends are serialised by the caller (one batch at a
 * time: LiveVenues queues them).
 */
export class ChangeLog {
  readonly path: string;
  private handle: FileHandle | null = null;
  /** The seq of the last entry written (0: none). */
  lastSeq: number;
  /** The file's length in bytes: whole lines only (see {@link append}). */
  bytes: number;
  /** How many times {@link keepFrom} replaced the file (counted once renamed, whatever a later step of it does). */
  cuts = 0;
  /**
   * Why the log takes no more batches (null: it does): an append failed and the file could not
   * be cut back to its last whole line, so a batch appended after it would follow a torn line.
   * A restart cuts the torn line off (it was never acknowledged).
   */
  private unusable: unknown = null;

  private constructor(path: string, lastSeq: number, bytes: number) {
    this.path = path;
    this.lastSeq = lastSeq;
    this.bytes = bytes;
  }

  /**
   * Opens (creating it if needed) the log at `path`, cutting off a torn last line; returns its
   * entries and the bytes cut (0 when none). A last line without its newline is a write a
   * crash interrupted: a batch never acknowledged. A whole last line whose checksum fails
   * (`tornWhole`) is most likely the same (a crash may persist a write's pages out of order),
   * but may be damage since it was written: either way it cannot be replayed, and its bytes
   * are appended to `<path>.torn` (synced) before the cut, so nothing is thrown away.
   * `foldedSeq`: the seq of the last batch a compaction folded into the base (its lines may
   * be gone from the log); the next batch is numbered after it and after the log's last line.
   */
  static async open(path: string, foldedSeq = 0): Promise<{ log: ChangeLog; entries: LogEntry[]; tornBytes: number; tornWhole: boolean }> {
    const { entries, goodBytes, tornBytes, tornWhole } = readLog(path);
    if (tornBytes > 0) {
      keepTornBytes(path, goodBytes);
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, goodBytes);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    // seq only grows in one live directory: after a compaction emptied the log, it continues
    // from the last batch folded into the base (`foldedSeq`, data-origin.ts)
    const log = new ChangeLog(path, Math.max(entries.at(-1)?.seq ?? 0, foldedSeq), goodBytes);
    log.handle = await open(path, 'a');
    await log.handle.sync();
    syncDirectory(dirname(path));
    return { log, entries, tornBytes, tornWhole };
  }

  /**
   * Appends one batch and waits until it is on disk (fdatasync); returns its seq. A write that
   * fails part-way (a full disk writes short, then refuses) or a failed sync cuts the file
   * back to its last whole line and throws {@link ChangeLogWriteError}: the batch is then
   * absent, as a batch that was never acknowledged must be, and the next batch starts on a
   * line of its own.
   */
  async append(change: Change): Promise<number> {
    if (this.unusable !== null) throw new ChangeLogWriteError(this.path, this.unusable, false);
    const seq = this.lastSeq + 1;
    const line = Buffer.from(logLine({ seq, change }));
    try {
      for (let done = 0; done < line.length; ) {
        const { bytesWritten } = await this.handle!.write(line, done, line.length - done);
        if (bytesWritten <= 0) throw new Error(`the file took none of the last ${line.length - done} bytes`);
        done += bytesWritten;
      }
      await this.handle!.datasync();
    } catch (err) {
      throw await this.cutBack(err);
    }
    this.lastSeq = seq;
    this.bytes += line.length;
    return seq;
  }

  /** After a failed append: the file cut back to {@link bytes} and synced, or marked unusable if even that fails. */
  private async cutBack(cause: unknown): Promise<ChangeLogWriteError> {
    try {
      await this.handle!.truncate(this.bytes);
      await this.handle!.datasync();
      return new ChangeLogWriteError(this.path, cause, true);
    } catch {
      this.unusable = cause;
      return new ChangeLogWriteError(this.path, cause, false);
    }
  }

  /**
   * Replaces the log by its bytes from `offset` on (the entries a new base does not hold:
   * `offset` was {@link bytes} when that base's last entry was the last written), copied as
   * they are: written to a temporary file, synced, renamed over the log, directory synced.
   * Returns those entries. A crash at any point leaves either the old log or the new one, both
   * correct over the new base (replaying an entry the base already holds changes nothing: each
   * entry sets the state of the venues it names).
   */
  async keepFrom(offset: number): Promise<LogEntry[]> {
    const tail = Buffer.alloc(this.bytes - offset);
    const source = await open(this.path, 'r');
    try {
      for (let done = 0; done < tail.length; ) {
        const { bytesRead } = await source.read(tail, done, tail.length - done, offset + done);
        if (bytesRead === 0) throw new VenueSearchError('invalid_data', `change log ${this.path} is shorter than the ${this.bytes} bytes written to it`, { param: 'path', value: this.path });
        done += bytesRead;
      }
    } finally {
      await source.close();
    }
    const entries: LogEntry[] = [];
    for (let at = 0; at < tail.length; ) {
      const nl = tail.indexOf(10, at);
      const entry = nl < 0 ? null : parseLine(tail.toString('utf8', at, nl));
      if (entry === null) throw new VenueSearchError('invalid_data', `change log ${this.path} is damaged at byte ${offset + at}, in lines written since the compaction began`, { param: 'path', value: this.path });
      entries.push(entry);
      at = nl + 1;
    }
    const tmp = `${this.path}.next`;
    const out = await open(tmp, 'w');
    try {
      await out.writeFile(tail);
      await out.sync();
    } catch (err) {
      // the log itself is untouched; a partial copy would only take the disk's space
      await out.close();
      await rm(tmp, { force: true });
      throw err;
    }
    await out.close();
    await this.handle!.close();
    try {
      await rename(tmp, this.path);
    } catch (err) {
      // the log itself is untouched: it takes the next batches as before
      this.handle = await open(this.path, 'a');
      await rm(tmp, { force: true });
      throw err;
    }
    // Replaced: appends go to the new file from here on, even if the directory's sync fails
    // (a crash then leaves the old log or the new one, both correct over the new base).
    this.handle = await open(this.path, 'a');
    this.bytes = tail.length;
    this.cuts++;
    await syncDirectoryAsync(dirname(this.path));
    return entries;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
  }
}
