// The command line's progress bar: silent off a terminal; on one, bytes shown in MB.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../src/cli/progress-bar.js';

function terminal(): { stream: PassThrough & { isTTY: boolean; columns: number; cursorTo: () => boolean; clearLine: () => boolean; moveCursor: () => boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

describe('progressBar', () => {
  it('writes nothing when the stream is not a terminal', () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const bar = progressBar(stream, 'bytes');
    bar.update(5, 10);
    bar.stop();
    expect(chunks).toEqual([]);
  });

  it('shows bytes as MB with one decimal, and items as they are', () => {
    const bytes = terminal();
    const b = progressBar(bytes.stream, 'bytes');
    b.update(1_436_633, 2_873_266);
    b.stop();
    expect(bytes.text()).toContain('50% | ETA: ');
    expect(bytes.text()).toContain('1.4/2.9 MB');
    const items = terminal();
    const i = progressBar(items.stream);
    i.update(15, 30);
    i.stop();
    expect(items.text()).toContain('15/30');
    expect(items.text()).not.toContain('MB');
  });
});
