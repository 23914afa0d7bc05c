/**
 * Where the request log goes when buildApp is not given a stream: standard output, written
 * asynchronously (as pino's own default), and never fatal (audit 66g F1). pino's default
 * destination re-throws any write error but EPIPE, so a service whose stdout is a file on a
 * disk that fills up died on the next request's log line (ENOSPC), although its change log
 * refuses batches with a 503 and goes on.
 *
 * Invariants:
 * - a failing write loses only log lines: the chunk that failed is dropped and counted, and
 *   each new line tries the destination again (no timer: an idle service retries nothing);
 * - lines waiting for a write in flight are held up to MAX_HELD_BYTES (MAX_HELD_FILE_BYTES
 *   for a regular file); those past it are dropped and counted (a destination that stops
 *   taking data cannot grow the heap);
 * - stderr gets one line when lines start being dropped (with the cause) and one when a
 *   write succeeds again (with how many were dropped meanwhile), never one per line;
 * - EAGAIN/EBUSY (a full non-blocking pipe) is not a failure: the chunk is tried again
 *   after RETRY_MS, as pino does;
 * - what is held at exit is written synchronously, as pino does, errors ignored.
 */
import { fstatSync, write, writeSync } from 'node:fs';

/** Bytes of log lines held while a write is in flight to a pipe or terminal (about 5,000 lines): a reader that stops reading holds the rest. */
export const MAX_HELD_BYTES = 1024 * 1024;
/**
 * The same for a regular file, which takes data as fast as it comes until its disk fails
 * (then its write errors drop lines): what is held is the lines logged while the event loop
 * was busy with a burst, before the write's callback ran (audit 71e F6: 20 connections each
 * pipelining 300 searches dropped 4,147 lines of a healthy file at 1 MiB). About 300,000 lines.
 */
export const MAX_HELD_FILE_BYTES = 64 * 1024 * 1024;
const RETRY_MS = 100;

/** What pino writes to: one log line (with its newline) at a time. */
export interface LogDestination {
  write(line: string): boolean;
}

export class FailSafeLog implements LogDestination {
  private held: string[] = [];
  private heldBytes = 0;
  private writing = false;
  /** Lines dropped since the destination last took a write; their cause, null while it works. */
  private dropped = 0;
  private failure: string | null = null;
  /** MAX_HELD_FILE_BYTES for a regular file, else MAX_HELD_BYTES. */
  private readonly maxHeldBytes: number;

  /**
   * `fd`: the destination; `name`: it in words, for the stderr lines; `say`: where those
   * lines go (stderr). A line that cannot be said is not said: nothing here throws.
   */
  constructor(
    private readonly fd: number,
    private readonly name: string,
    private readonly say: (line: string) => void,
  ) {
    this.maxHeldBytes = isRegularFile(fd) ? MAX_HELD_FILE_BYTES : MAX_HELD_BYTES;
  }

  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (this.heldBytes + bytes > this.maxHeldBytes) {
      this.drop(1, `more than ${this.maxHeldBytes / (1024 * 1024)} MiB of log lines waiting for it`);
      return false;
    }
    this.held.push(line);
    this.heldBytes += bytes;
    if (!this.writing) this.writeHeld();
    return true;
  }

  /**
   * Resolves once every line written so far has been handed to the destination (no write in
   * flight, none held), or after `limitMs`. For a process about to exit: the exit handler's
   * synchronous flush cannot write the lines held behind a write still in flight, whose own
   * bytes may not be out either (audit 70f F3: a worker of `serve --workers 2` lost its last
   * line, a `charged_client_gone`, in 3 runs of 7).
   */
  drained(limitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const deadline = Date.now() + limitMs;
      const check = (): void => {
        if ((!this.writing && this.held.length === 0) || Date.now() >= deadline) resolve();
        else setTimeout(check, 5);
      };
      check();
    });
  }

  /** Writes what is held, synchronously (at exit); errors ignored. */
  flushSync(): void {
    if (this.writing || this.held.length === 0) return;
    try {
      writeSync(this.fd, this.held.join(''));
    } catch {
      // the process is ending: the lines are lost, as any failing write's
    }
    this.held = [];
    this.heldBytes = 0;
  }

  private writeHeld(): void {
    const lines = this.held.length;
    const chunk = Buffer.from(this.held.join(''));
    this.held = [];
    this.heldBytes = 0;
    this.writing = true;
    this.writeChunk(chunk, lines);
  }

  private writeChunk(chunk: Buffer, lines: number): void {
    write(this.fd, chunk, (err, written) => {
      if (err !== null) {
        if (err.code === 'EAGAIN' || err.code === 'EBUSY') {
          setTimeout(() => this.writeChunk(chunk, lines), RETRY_MS);
          return;
        }
        this.writing = false;
        this.drop(lines, err.message);
        // the lines that arrived meanwhile are left held: the next line tries again
        return;
      }
      if (written < chunk.length) {
        this.writeChunk(chunk.subarray(written), lines);
        return;
      }
      this.writing = false;
      this.recovered();
      if (this.held.length > 0) this.writeHeld();
    });
  }

  private drop(lines: number, cause: string): void {
    this.dropped += lines;
    if (this.failure !== null) return;
    this.failure = cause;
    this.tell(`venue-search: the request log (${this.name}) cannot be written (${cause}): its lines are dropped until it can, the service goes on`);
  }

  private recovered(): void {
    if (this.failure === null) return;
    const dropped = this.dropped;
    this.failure = null;
    this.dropped = 0;
    this.tell(`venue-search: the request log (${this.name}) is written again; ${dropped} line${dropped === 1 ? ' was' : 's were'} dropped`);
  }

  private tell(line: string): void {
    try {
      this.say(line);
    } catch {
      // stderr on the same full disk: the line is lost, the service goes on
    }
  }
}

/** Whether `fd` is a regular file (not a pipe, socket or terminal); false when it cannot be told. */
function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

let stdoutLog: FailSafeLog | undefined;

/** Resolves once the stdout request log (if one was made) has written every line so far, or after `limitMs`. */
export function stdoutLogDrained(limitMs: number): Promise<void> {
  return stdoutLog === undefined ? Promise.resolve() : stdoutLog.drained(limitMs);
}

/** The process's one stdout log destination (made on first use, flushed at exit). */
export function failSafeStdout(): FailSafeLog {
  if (stdoutLog === undefined) {
    const log = new FailSafeLog(1, 'stdout', (line) => process.stderr.write(`${line}\n`));
    process.once('exit', () => log.flushSync());
    stdoutLog = log;
  }
  return stdoutLog;
}
