/**
 * NDJSON cut into lines on the bytes, before decoding: a line feed (0x0A) never occurs
 * inside a multi-byte UTF-8 sequence, so each line decodes on its own to the text a
 * decoder of the whole stream would give it. Shared by the reader and its worker threads,
 * so both number the lines alike.
 */

/** Collects streamed chunks and hands out the bytes of complete lines. */
export class LineChunker {
  private carry: Buffer | null = null;

  /**
   * Takes the next chunk; returns the bytes of the lines it completes (ending with a line
   * feed, with any start carried from earlier chunks), or null; keeps the rest.
   */
  push(chunk: Buffer): Buffer | null {
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      this.carry = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
      return null;
    }
    const head = this.carry === null ? chunk.subarray(0, last + 1) : Buffer.concat([this.carry, chunk.subarray(0, last + 1)]);
    this.carry = last + 1 < chunk.length ? chunk.subarray(last + 1) : null;
    return head;
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

/**
 * Calls `fn(text, line)` for each line of `bytes` that is not blank, the first numbered
 * `firstLine`. Returns the number of lines passed (blank ones included). Runs of whole
 * lines are decoded at once (a line feed never occurs inside a multi-byte sequence, so the
 * text is the same as line by line) and each line is a substring of that text.
 */
export function forEachLine(bytes: Buffer, firstLine: number, fn: (text: string, line: number) => void): number {
  let line = firstLine;
  const n = bytes.length;
  for (let from = 0; from < n; ) {
    // A run of whole lines of about DECODE_BYTES (or the rest), ending after a line feed.
    let to = n;
    if (n - from > DECODE_BYTES) {
      const nl = bytes.indexOf(10, from + DECODE_BYTES);
      if (nl >= 0) to = nl + 1;
    }
    const run = bytes.toString('utf8', from, to);
    const end = run.length;
    let start = 0;
    while (start < end) {
      const nl = run.indexOf('\n', start);
      const stop = nl < 0 ? end : nl;
      const text = run.slice(start, stop);
      if (text.charCodeAt(0) === 123 /* { */ || text.trim() !== '') fn(text, line);
      line++;
      if (nl < 0) break;
      start = nl + 1;
    }
    from = to;
  }
  return line - firstLine;
}
