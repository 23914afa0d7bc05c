// fileChunks reads a file in chunks into two buffers in turn. Oracle: the file's bytes as
// readFileSync gives them.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChunks } from '../../src/data/file-chunks.js';
import { fixtureFolder } from './support/fixture-files.js';

const { dir } = fixtureFolder('file-chunks-');

describe('fileChunks', () => {
  it('gives the file byte for byte, each chunk still whole while the next is taken', async () => {
    for (const [size, chunk] of [
      [0, 16],
      [1, 16],
      [16, 16],
      [17, 16],
      [10_000, 1000],
      [123_457, 4096],
    ] as const) {
      const path = join(dir, `bytes-${size}-${chunk}.bin`);
      writeFileSync(path, randomBytes(size));
      const file = readFileSync(path);
      const copies: Buffer[] = [];
      let previous: { view: Buffer; copy: Buffer } | null = null;
      for await (const piece of fileChunks(path, chunk)) {
        expect(piece.length).toBeGreaterThan(0);
        expect(piece.length).toBeLessThanOrEqual(chunk);
        // the chunk before this one is still intact (a reader's carried line lives there)
        if (previous !== null) expect(previous.view.equals(previous.copy)).toBe(true);
        previous = { view: piece, copy: Buffer.from(piece) };
        copies.push(previous.copy);
      }
      expect(Buffer.concat(copies).equals(file)).toBe(true);
    }
  });

  it('fails on a missing file', async () => {
    const read = async () => {
      for await (const piece of fileChunks(join(dir, 'missing.bin'), 16)) void piece;
    };
    await expect(read()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
