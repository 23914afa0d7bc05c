/**
 * An importer's text input, checked to be UTF-8 as it is read (audit 68e F1): a file saved in
 * another encoding is refused in one line naming it, the line and byte offset of its first
 * invalid byte and how to convert it, instead of being read with U+FFFD in that byte's place.
 */
import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { notUtf8FileProblem, Utf8Check } from '../data/utf8-check.js';
import { VenueSearchError } from '../errors.js';

/** The error for `<kind> file <path>` whose byte at `offset` is not UTF-8 (`byte` undefined: a character cut by the end). */
export function notUtf8Error(kind: string, path: string, offset: number, byte: number | undefined): VenueSearchError {
  return new VenueSearchError('invalid_data', `${kind} file ${path} ${notUtf8FileProblem(path, offset, byte)}`, { file: path });
}

/**
 * The longest line a line reader is given, bytes: 256 MiB, half the longest string V8 makes
 * (readline gathers a line in one string: a line of about 600 MB crashed `import osm` with
 * "RangeError: Invalid string length", a stack trace naming no file, and left its output's
 * `.partial` file behind: audit 73d F1). No venue's record comes near it.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Options of {@link utf8FileStream}. */
export interface Utf8FileStreamOptions {
  /** Refuse a line (bytes up to a `\n`) longer than this many bytes, naming its number: for a file read line by line. */
  readonly maxLineBytes?: number;
}

/**
 * The bytes of the file at `path`, failing with {@link notUtf8Error} at the chunk holding the
 * first invalid byte, or with a line too long (`maxLineBytes`) before it is passed on; read
 * errors as node:fs raises them.
 */
export function utf8FileStream(path: string, kind: string, options: Utf8FileStreamOptions = {}): Readable {
  const check = new Utf8Check();
  const { maxLineBytes } = options;
  /** The line being read: its number (1-based) and its bytes so far. */
  let line = 1;
  let lineBytes = 0;
  /** Whether `chunk` leaves every line within maxLineBytes (line and lineBytes then counted past it). */
  const linesFit = (chunk: Buffer): boolean => {
    if (maxLineBytes === undefined) return true;
    let from = 0;
    for (let newline = chunk.indexOf(0x0a, from); newline !== -1; newline = chunk.indexOf(0x0a, from)) {
      if (lineBytes + (newline - from) > maxLineBytes) return false;
      lineBytes = 0;
      line++;
      from = newline + 1;
    }
    lineBytes += chunk.length - from;
    return lineBytes <= maxLineBytes;
  };
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const at = check.push(chunk);
      if (at >= 0) done(notUtf8Error(kind, path, at, check.badByte));
      else if (!linesFit(chunk)) done(lineTooLongError(kind, path, line, maxLineBytes ?? 0));
      else done(null, chunk);
    },
    flush(done) {
      const at = check.end();
      done(at < 0 ? null : notUtf8Error(kind, path, at, undefined));
    },
  });
  const input = createReadStream(path);
  // pipe() does not forward a read error (a missing file): do it here.
  input.once('error', (err) => checked.destroy(err));
  return input.pipe(checked);
}

/** The error for line `line` of `<kind> file <path>`, longer than `maxLineBytes`. */
function lineTooLongError(kind: string, path: string, line: number, maxLineBytes: number): VenueSearchError {
  const mib = Math.round(maxLineBytes / (1024 * 1024));
  return new VenueSearchError('invalid_data', `${kind} file ${path}: line ${line} is longer than ${mib} MiB, the longest line read (no venue's record comes near it): is it one record a line?`, {
    file: path,
    line,
  });
}

/** The text of a file read whole, after checking it is UTF-8 (refused with {@link notUtf8Error}). */
export function utf8Text(bytes: Buffer, kind: string, path: string): string {
  const check = new Utf8Check();
  let at = check.push(bytes);
  if (at >= 0) throw notUtf8Error(kind, path, at, check.badByte);
  at = check.end();
  if (at >= 0) throw notUtf8Error(kind, path, at, undefined);
  return bytes.toString('utf8');
}
