/**
 * UTF-8 validation of input files, so that a file saved in another encoding (an FHRS CSV
 * saved as Latin-1 or Windows-1252 by a spreadsheet) is refused naming the first bad byte,
 * never decoded with U+FFFD in its place (audit 68e F1). Shared by the importers and
 * readVenues: the chunks are checked by the native `isUtf8` (a SIMD pass, far cheaper than
 * the decoding that follows); the byte is located by a scan only once a chunk has failed.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { fileHead } from './file-problem.js';

/**
 * Checks a stream of bytes chunk by chunk. A multi-byte sequence cut by a chunk's end is kept
 * (a copy: the caller may reuse the chunk's memory) and checked with the next chunk.
 */
export class Utf8Check {
  /** The unfinished sequence at the last chunk's end (1 to 3 bytes), or null. */
  private pending: Buffer | null = null;
  /** Bytes checked so far: the offset of `pending`'s first byte, or of the next chunk. */
  private checked = 0;
  /** The invalid byte found by the last {@link push} that failed. */
  badByte: number | undefined;

  /** Checks the next chunk; returns the offset in the stream of the first invalid byte, or -1. */
  push(chunk: Uint8Array): number {
    const bytes = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    const cut = wholeSequencesEnd(bytes);
    const whole = bytes.subarray(0, cut);
    if (!isUtf8(whole)) {
      const at = firstInvalidUtf8(whole);
      this.badByte = whole[at];
      return this.checked + at;
    }
    this.pending = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : null;
    this.checked += cut;
    return -1;
  }

  /** At the end of the stream: the offset of a sequence left unfinished (a cut character), or -1. */
  end(): number {
    return this.pending === null ? -1 : this.checked;
  }
}

/** The length of `bytes` without a multi-byte sequence its end cuts short (the bytes after the last lead byte, when too few). */
function wholeSequencesEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const b = bytes[i]!;
    if (b < 0x80) return n;
    if (b >= 0xc0) return n - i < sequenceLength(b) ? i : n;
  }
  return n;
}

/** The bytes of the sequence a lead byte starts (1 for a byte that cannot lead one: the scan reports it). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/**
 * The index of the first byte of `bytes` that does not start or continue a well-formed
 * UTF-8 sequence (RFC 3629: no overlong forms, surrogates or code points past U+10FFFF; a
 * sequence cut by the end counts), or -1 when all are well formed.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = 0; i < n; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b);
    if (len === 1 || i + len > n) return i;
    // the second byte's range narrows for E0 (no overlong), ED (no surrogates), F0 (no overlong), F4 (≤ U+10FFFF)
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k < len; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += len;
  }
  return -1;
}

/** The line (from 1) holding byte `offset` of the file at `path`, or undefined when it cannot be read again (a pipe). */
export function lineOfOffset(path: string, offset: number): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.allocUnsafe(1 << 20);
    let line = 1;
    for (let at = 0; at < offset; ) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, offset - at), at);
      if (n === 0) break;
      for (let i = buf.indexOf(10); i >= 0 && i < n; i = buf.indexOf(10, i + 1)) line++;
      at += n;
    }
    return line;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * What is said of a file that is not UTF-8, after its name: the first invalid byte, its line
 * when known, and how to convert the file.
 */
export function notUtf8Problem(offset: number, byte: number | undefined, line: number | undefined): string {
  const where = `${line === undefined ? '' : `line ${line}, `}byte offset ${offset}`;
  const what = byte === undefined ? 'a character cut short at the end' : `the byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return `is not UTF-8 text (${where}: ${what}; saved as Latin-1 or Windows-1252?): convert it first, e.g. \`iconv -f latin1 -t utf-8 in > out\``;
}

/** What is said of a file in UTF-16 (utf16Head), after its name. */
export const UTF16_PROBLEM = 'is UTF-16 text, not UTF-8 (as some Windows programs save "Unicode text"): convert it first, e.g. `iconv -f utf-16 -t utf-8 in > out`';

/**
 * Whether a file's first bytes are UTF-16: its byte order mark (FF FE, FE FF), or a NUL in
 * every other byte of the first 64 (text in UTF-16 without one). Such a file is refused with
 * UTF16_PROBLEM, not told it may be Latin-1, whose conversion would keep a NUL after every
 * character (audit 68i F1).
 */
export function utf16Head(head: Uint8Array): boolean {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return true;
  const n = Math.min(head.length, 64) & ~1;
  if (n < 8) return false;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  // three quarters of the byte pairs with a NUL on one side: ASCII in UTF-16 has one in every pair
  return Math.max(evenNul, oddNul) >= 0.75 * (n / 2);
}

/** {@link notUtf8Problem} for the file at `path` (undefined: a stream), its line counted by reading the file again (the error path only); UTF16_PROBLEM for a file in UTF-16. */
export function notUtf8FileProblem(path: string | undefined, offset: number, byte: number | undefined): string {
  if (path === undefined) return notUtf8Problem(offset, byte, undefined);
  let head: Buffer | undefined;
  try {
    head = fileHead(path, 64);
  } catch {
    // not readable again (a pipe): judged by the byte alone
  }
  if (head !== undefined && utf16Head(head)) return UTF16_PROBLEM;
  return notUtf8Problem(offset, byte, lineOfOffset(path, offset));
}
