/**
 * NDJSON cut into lines on the bytes, before decoding: a line feed (0x0A) never occurs
 * inside a multi-byte UTF-8 sequence, so each line decodes on its own to the text a
 * decoder of the whole stream would give it. Shared by the reader and its worker threads,
 * so both number the lines alike.
 */
import { isAscii } from 'node:buffer';

/**
 * Collects streamed chunks and hands out the bytes of complete lines, copying only a line
 * that spans chunks: a chunk's own whole lines are handed out as a view of it.
 */
export class LineChunker {
  /** The start of a line that began in earlier chunks (its bytes so far), or null. */
  private carry: Buffer | null = null;

  /**
   * Takes the next chunk; returns the bytes of the lines it completes, in order, each piece
   * starting a line and ending with a line feed: first the line carried from earlier chunks
   * completed (a copy of it), then the chunk's own whole lines (a view of the chunk). Either
   * or both may be missing. Keeps the rest.
   */
  push(chunk: Buffer): Buffer[] {
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      this.carry = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
      return [];
    }
    const pieces: Buffer[] = [];
    let from = 0;
    if (this.carry !== null) {
      from = chunk.indexOf(10) + 1;
      pieces.push(Buffer.concat([this.carry, chunk.subarray(0, from)]));
    }
    if (from <= last) pieces.push(chunk.subarray(from, last + 1));
    this.carry = last + 1 < chunk.length ? chunk.subarray(last + 1) : null;
    return pieces;
  }

  /** At the end of the input: the bytes after the last line feed (a last line without one), or null. */
  end(): Buffer | null {
    const rest = this.carry;
    this.carry = null;
    return rest;
  }
}

/** Bytes decoded at once by {@link forEachLine}: whole lines, about this many (a decode per line costs a call each). */
const DECODE_BYTES = 1 << 20;
/** Bytes {@link firstNonAscii} hands to the native `isAscii` at once before it looks byte by byte. */
const ASCII_PROBE_BYTES = 4096;

/**
 * Calls `fn(text, line)` for each line of `bytes` that is not blank, the first numbered
 * `firstLine`. Returns the number of lines passed (blank ones included).
 *
 * Decoding is most of the cost of reading a file, so it is done in as few calls as the
 * bytes allow, and each line is a substring of a decoded run:
 * - a run of whole lines of pure ASCII (about DECODE_BYTES) is decoded as Latin-1, which
 *   for bytes below 0x80 is the same text as UTF-8 and several times faster (V8 makes a
 *   one-byte string without a UTF-8 pass);
 * - a line holding any byte of 0x80 or more is decoded as UTF-8 on its own. One such line
 *   in a run would otherwise make the whole run a two-byte string, slower to decode and to
 *   parse (bench data has a few in every megabyte). A line feed never occurs inside a
 *   multi-byte sequence, so the text is the same as a decoder of the whole input gives.
 */
export function forEachLine(bytes: Buffer, firstLine: number, fn: (text: string, line: number) => void): number {
  let line = firstLine;
  const n = bytes.length;
  for (let from = 0; from < n; ) {
    // `from` starts a line. Up to `to`, whole lines of pure ASCII, or one line that is not.
    let to = n;
    if (n - from > DECODE_BYTES) {
      const nl = bytes.indexOf(10, from + DECODE_BYTES);
      if (nl >= 0) to = nl + 1;
    }
    const wide = firstNonAscii(bytes, from, to);
    // the start of the line holding `wide` (`from` starts a line, so it is `from` or after)
    const wideLineStart = wide === to ? to : bytes.lastIndexOf(10, wide) + 1;
    let text: string;
    if (wideLineStart > from) {
      // whole ASCII lines, up to the line holding `wide` (or to `to`)
      to = wideLineStart;
      text = bytes.toString('latin1', from, to);
    } else {
      // the line at `from` holds a byte of 0x80 or more: it alone, through its line feed
      const nl = bytes.indexOf(10, wide);
      to = nl < 0 ? n : nl + 1;
      text = bytes.toString('utf8', from, to);
    }
    line = eachLineOf(text, line, fn);
    from = to;
  }
  return line - firstLine;
}

/** The lines of `bytes` as {@link forEachLine} numbers them, without decoding: one per line feed, and a last one without. */
export function lineCount(bytes: Buffer): number {
  let count = bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? 1 : 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/** Calls `fn` for each line of `text` (whole lines) that is not blank; returns the next line's number. */
function eachLineOf(text: string, line: number, fn: (text: string, line: number) => void): number {
  const end = text.length;
  let start = 0;
  while (start < end) {
    const nl = text.indexOf('\n', start);
    const stop = nl < 0 ? end : nl;
    const lineText = text.slice(start, stop);
    if (lineText.charCodeAt(0) === 123 /* { */ || lineText.trim() !== '') fn(lineText, line);
    line++;
    if (nl < 0) break;
    start = nl + 1;
  }
  return line;
}

/** The index of the first byte of 0x80 or more in `bytes[from, to)`, or `to` if there is none. */
function firstNonAscii(bytes: Buffer, from: number, to: number): number {
  for (let block = from; block < to; block += ASCII_PROBE_BYTES) {
    const end = Math.min(to, block + ASCII_PROBE_BYTES);
    if (isAscii(bytes.subarray(block, end))) continue;
    for (let i = block; i < end; i++) if (bytes[i]! >= 0x80) return i;
  }
  return to;
}
