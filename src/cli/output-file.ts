/**
 * Where an import writes its NDJSON (`-o`, or stdout) and its `--report-json`: written with
 * back-pressure. A write that fails (a full disk, a closed pipe) stops the command with one
 * line naming the output and the cause, never a stack trace or a silent exit.
 *
 * A regular file (or a path not there yet, or a link to either) is written under a temporary name beside it
 * (`<path>.<pid>.partial`: two imports to one path at once never share it) and renamed over
 * it only once whole (removed if the command is stopped by SIGINT, SIGTERM or SIGHUP), so a
 * failed import leaves no truncated file and an earlier output stays as it was (as
 * `venue-search snapshot` does). A
 * symbolic link is written the same way at its target (the link stays a link; replaced-file.ts
 * holds the rules both share). Anything else (a named pipe, a device such as /dev/stdout or /dev/null, a link to
 * one) is written through, as a shell redirection would: a rename would replace the pipe or
 * device node itself with a file.
 */
import { createWriteStream, rmSync, statSync, type Stats } from 'node:fs';
import { once } from 'node:events';
import { rename } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { InvalidArgumentError } from 'commander';
import { writeProblem } from '../data/file-problem.js';
import { folderProblem, keptMode, partFileProblem, replacedFile, resolvedPath } from '../data/replaced-file.js';
import { VenueSearchError } from '../errors.js';
import { STOP_SIGNALS } from './stop-signals.js';

/**
 * A command-line parser for an output file option (`-o`, `--report-json`, `snapshot --out`):
 * an empty value (an unset shell variable, `--out "$OUT"`) is refused at once, naming the
 * option, before any work.
 */
export function outputFileName(value: string): string {
  if (value === '') throw new InvalidArgumentError('must name a file; got an empty string');
  return value;
}

/** How a path given for output is written. */
type OutputTarget =
  /** written as `<file>.<pid>.partial` with `mode` (the replaced file's bits), then renamed to `file` (the path itself, or a link's target) */
  | { readonly kind: 'whole'; readonly file: string; readonly mode: number | undefined }
  /** written through (a pipe or a device): what is written cannot be taken back */
  | { readonly kind: 'through' };

export class ImportOutput {
  /** The first error the stream reported (a write fails after `write` returned). */
  private failure: unknown = null;

  private constructor(
    private readonly out: Writable,
    /** `--output <path>`, `stdout`, `--report-json <path>`: how messages name it. */
    private readonly name: string,
    /** The option (`--output`, `--report-json`) and its value, for the error's param. */
    private readonly option: string,
    private readonly value: string,
    /** The file being written and where it goes when whole; null when written through (stdout, a pipe, a device). */
    private readonly file: { readonly partial: string; readonly path: string } | null,
    /** Whether the stream is the process's stdout, which the output never ends nor destroys. */
    private readonly isStdout = false,
  ) {
    out.on('error', (err) => (this.failure ??= err));
  }

  /**
   * `stdout` when `path` is absent or `-` (and `stdout` is given), else the file at `path`,
   * opened now: a path that cannot be written is refused before any import work.
   */
  static async open(path: string | undefined, stdout: Writable | null, option = '--output'): Promise<ImportOutput> {
    if (stdout !== null && (path === undefined || path === '-')) return new ImportOutput(stdout, 'stdout', option, '-', null, true);
    if (path === undefined) throw new Error(`${option}: a path is needed`);
    const name = `${option} ${path}`;
    const target = outputTarget(path, option);
    const written = target.kind === 'whole' ? `${target.file}.${process.pid}.partial` : path;
    const mode = target.kind === 'whole' ? target.mode : undefined;
    const out = createWriteStream(written, mode === undefined ? { encoding: 'utf8' } : { encoding: 'utf8', mode });
    const output = new ImportOutput(out, name, option, path, target.kind === 'whole' ? { partial: written, path: target.file } : null);
    // before the file exists: a signal between its creation and the open's answer removes it too
    output.removeOnSignals();
    try {
      await once(out, 'open');
    } catch (err) {
      output.keepSignals();
      const why = target.kind === 'whole' ? partFileProblem(err, target.file) : writeProblem(err);
      throw new VenueSearchError('invalid_request', `cannot write ${name}: ${why}`, { param: option, value: path });
    }
    return output;
  }

  /** Until the output is closed or discarded, a stop signal removes the partial file, then stops the process as the signal would. */
  private readonly onStopSignal = (signal: NodeJS.Signals): void => {
    this.discard();
    process.kill(process.pid, signal);
  };

  private removeOnSignals(): void {
    if (this.file === null) return;
    for (const signal of STOP_SIGNALS) process.once(signal, this.onStopSignal);
  }

  private keepSignals(): void {
    for (const signal of STOP_SIGNALS) process.off(signal, this.onStopSignal);
  }

  async writeLine(line: string): Promise<void> {
    this.check();
    // `once` rejects when the stream errors while waiting; an error before it is `failure`
    if (!this.out.write(line)) await this.settle(once(this.out, 'drain'));
  }

  /** Ends the output: a file is flushed and renamed into place; a pipe or device is flushed and closed; stdout is left open. */
  async close(): Promise<void> {
    await this.flush();
    await this.commit();
  }

  /** Writes out what was written so far and ends the stream (a file stays under its temporary name until {@link commit}); stdout is left open. */
  async flush(): Promise<void> {
    this.check();
    if (this.isStdout) return;
    this.out.end();
    await this.settle(once(this.out, 'finish'));
  }

  /**
   * After {@link flush}: a file is renamed into place. `written`: what was put in place before
   * this (another output), named in the message if the rename fails.
   */
  async commit(written?: string): Promise<void> {
    if (this.file === null) return;
    try {
      await rename(this.file.partial, this.file.path);
    } catch (err) {
      // a folder put in the way while the import ran, a path removed: one line, and nothing left behind
      this.discard();
      throw this.error(err, written);
    }
    this.keepSignals();
  }

  /** After a failed run: the partial file removed (nothing is left that looks like an output). */
  discard(): void {
    if (this.isStdout) return;
    this.out.destroy();
    if (this.file === null) return;
    rmSync(this.file.partial, { force: true });
    this.keepSignals();
  }

  private check(): void {
    if (this.failure !== null) throw this.error(this.failure);
  }

  private async settle(waiting: Promise<unknown>): Promise<void> {
    try {
      await waiting;
    } catch (err) {
      throw this.error(this.failure ?? err);
    }
  }

  private error(cause: unknown, written?: string): VenueSearchError {
    const why = (cause as NodeJS.ErrnoException).code === 'EPIPE' ? 'the reader closed it' : writeProblem(cause);
    const left = written !== undefined ? `; ${written} was written, this was not` : this.file === null ? '' : '; nothing written';
    return new VenueSearchError('invalid_request', `cannot write ${this.name}: ${why}${left}`, { param: this.option, value: this.value });
  }
}

/**
 * Whether two output paths name one file: the same path, a link to it, or another hard link
 * of it (the same device and inode). Two outputs on one file would write over each other.
 */
export function sameOutputFile(a: string, b: string): boolean {
  // resolved: a link whose target is still to be written names that target
  if (resolvedPath(a) === resolvedPath(b)) return true;
  const statA = statOrNull(() => statSync(a));
  const statB = statOrNull(() => statSync(b));
  return statA !== null && statB !== null && statA.isFile() && statA.dev === statB.dev && statA.ino === statB.ino;
}

/** How `path` is written (see the file's comment); a folder, or a name ending in `/` (folderProblem), is refused, naming the option. */
function outputTarget(path: string, option: string): OutputTarget {
  const { file, entry } = replacedFile(path);
  const folder = folderProblem(path, entry);
  if (folder !== null) throw new VenueSearchError('invalid_request', `cannot write ${option} ${path}: ${folder}; give a file`, { param: option, value: path });
  if (entry === null || entry.isFile()) return { kind: 'whole', file, mode: keptMode(entry) };
  return { kind: 'through' };
}

/** The stat, or null when there is none to read (missing, a link loop, no permission). */
function statOrNull(stat: () => Stats): Stats | null {
  try {
    return stat();
  } catch {
    return null;
  }
}
