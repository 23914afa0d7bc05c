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

/**
 * Calls `fn(text, line)` for each line of `bytes` that is not blank, the first numbered
 * `firstLine`. Returns the number of lines passed (blank ones included).
 */
export function forEachLine(bytes: Buffer, firstLine: number, fn: (text: string, line: number) => void): number {
  let line = firstLine;
  let start = 0;
  const n = bytes.length;
  while (start < n) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? n : nl;
    const text = bytes.toString('utf8', start, end);
    if (text.charCodeAt(0) === 123 /* { */ || text.trim() !== '') fn(text, line);
    line++;
    if (nl < 0) break;
    start = nl + 1;
  }
  return line - firstLine;
}
