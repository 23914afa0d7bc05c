/**
 * Where an import writes its NDJSON: a file (`-o`) or stdout, written line by line with
 * back-pressure. A write that fails (a full disk, a closed pipe) stops the command with one
 * line naming the output and the cause, never a stack trace or a silent exit. A file is
 * written under a temporary name beside it (`<path>.partial`) and renamed over `path` only
 * once whole, so a failed import leaves no truncated file, and an earlier output stays as it
 * was (as `venue-search snapshot` does).
 */
import { createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { rename } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { writeProblem } from '../data/file-problem.js';
import { VenueSearchError } from '../errors.js';

export class ImportOutput {
  /** The first error the stream reported (a write fails after `write` returned). */
  private failure: unknown = null;

  private constructor(
    private readonly out: Writable,
    /** `--output <path>`, or `stdout`: how messages name it. */
    private readonly name: string,
    /** The file being written and where it goes when whole; null for stdout. */
    private readonly file: { readonly partial: string; readonly path: string } | null,
  ) {
    out.on('error', (err) => (this.failure ??= err));
  }

  /** stdout, or a new file at `path` (opened now: a path that cannot be written is refused before any import work). */
  static async open(path: string | undefined, stdout: Writable): Promise<ImportOutput> {
    if (path === undefined || path === '-') return new ImportOutput(stdout, 'stdout', null);
    const partial = `${path}.partial`;
    const out = createWriteStream(partial, 'utf8');
    try {
      await once(out, 'open');
    } catch (err) {
      throw new VenueSearchError('invalid_request', `cannot write --output ${path}: ${writeProblem(err)}`, { param: '--output', value: path });
    }
    return new ImportOutput(out, `--output ${path}`, { partial, path });
  }

  async writeLine(line: string): Promise<void> {
    this.check();
    // `once` rejects when the stream errors while waiting; an error before it is `failure`
    if (!this.out.write(line)) await this.settle(once(this.out, 'drain'));
  }

  /** Ends the output: a file is flushed and renamed into place; stdout is left open. */
  async close(): Promise<void> {
    this.check();
    if (this.file === null) return;
    this.out.end();
    await this.settle(once(this.out, 'finish'));
    await rename(this.file.partial, this.file.path);
  }

  /** After a failed run: the partial file removed (nothing is left that looks like an output). */
  discard(): void {
    if (this.file === null) return;
    this.out.destroy();
    rmSync(this.file.partial, { force: true });
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

  private error(cause: unknown): VenueSearchError {
    const why = (cause as NodeJS.ErrnoException).code === 'EPIPE' ? 'the reader closed it' : writeProblem(cause);
    return new VenueSearchError('invalid_request', `cannot write ${this.name}: ${why}${this.file === null ? '' : '; nothing written'}`, { param: '--output', value: this.file?.path ?? '-' });
  }
}
