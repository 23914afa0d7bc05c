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

/** The bytes of the file at `path`, failing with {@link notUtf8Error} at the chunk holding the first invalid byte; read errors as node:fs raises them. */
export function utf8FileStream(path: string, kind: string): Readable {
  const check = new Utf8Check();
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const at = check.push(chunk);
      if (at < 0) done(null, chunk);
      else done(notUtf8Error(kind, path, at, check.badByte));
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

/** The text of a file read whole, after checking it is UTF-8 (refused with {@link notUtf8Error}). */
export function utf8Text(bytes: Buffer, kind: string, path: string): string {
  const check = new Utf8Check();
  let at = check.push(bytes);
  if (at >= 0) throw notUtf8Error(kind, path, at, check.badByte);
  at = check.end();
  if (at >= 0) throw notUtf8Error(kind, path, at, undefined);
  return bytes.toString('utf8');
}
