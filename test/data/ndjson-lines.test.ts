// LineChunker hands out whole lines, copying only a line that spans chunks. Oracle: the input
// bytes themselves, cut at every line feed by a plain scan.
import { describe, expect, it } from 'vitest';
import { LineChunker } from '../../src/data/ndjson-lines.js';
import { prng } from '../support/oracle.js';

/** The input's bytes, random lines of 0 to 40 bytes (some multi-byte UTF-8, some empty), with or without a last line feed. */
function randomInput(rnd: () => number): Buffer {
  const parts: Buffer[] = [];
  const lines = 1 + Math.floor(rnd() * 60);
  for (let i = 0; i < lines; i++) {
    const len = Math.floor(rnd() * 40);
    let text = '';
    for (let k = 0; k < len; k++) text += rnd() < 0.05 ? 'é🍺'[Math.floor(rnd() * 2)] : String.fromCharCode(97 + Math.floor(rnd() * 26));
    parts.push(Buffer.from(text));
    if (i < lines - 1 || rnd() < 0.5) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

describe('LineChunker', () => {
  it('gives back every byte up to the last line feed in order, in pieces of whole lines, and the rest at the end', () => {
    const rnd = prng(41);
    for (let trial = 0; trial < 500; trial++) {
      const input = randomInput(rnd);
      const chunker = new LineChunker();
      const out: Buffer[] = [];
      let maxChunk = 1 + Math.floor(rnd() * 50);
      for (let at = 0; at < input.length; ) {
        const size = Math.min(input.length - at, 1 + Math.floor(rnd() * maxChunk));
        // a copy, so that a piece handed out can only be right if it was taken from this chunk
        const pieces = chunker.push(Buffer.from(input.subarray(at, at + size)));
        expect(pieces.length).toBeLessThanOrEqual(2);
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece[piece.length - 1]).toBe(10);
        }
        out.push(...pieces);
        at += size;
        if (trial % 7 === 0) maxChunk = 1 + Math.floor(rnd() * 50);
      }
      const lastFeed = input.lastIndexOf(10);
      const whole = Buffer.concat(out);
      expect(whole.equals(input.subarray(0, lastFeed + 1))).toBe(true);
      const rest = chunker.end();
      const tail = input.subarray(lastFeed + 1);
      if (tail.length === 0) expect(rest).toBeNull();
      else expect(rest!.equals(tail)).toBe(true);
      // each piece starts a line: the byte before it in the input is a line feed (or it is the first)
      let offset = 0;
      for (const piece of out) {
        if (offset > 0) expect(input[offset - 1]).toBe(10);
        offset += piece.length;
      }
    }
  });

  it('hands out a chunk of whole lines as a view of the chunk, not a copy', () => {
    const chunker = new LineChunker();
    expect(chunker.push(Buffer.from('{"a":'))).toEqual([]);
    const chunk = Buffer.from('1}\n{"b":2}\n{"c":3}\n{"d"');
    const [joined, own] = chunker.push(chunk);
    expect(joined!.toString()).toBe('{"a":1}\n');
    expect(own!.toString()).toBe('{"b":2}\n{"c":3}\n');
    expect(own!.buffer).toBe(chunk.buffer);
    expect(own!.byteOffset).toBe(chunk.byteOffset + 3);
    expect(chunker.end()!.toString()).toBe('{"d"');
  });
});
