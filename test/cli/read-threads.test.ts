// How many threads serve and snapshot read a venues file with: one for a file under 64 MB,
// else each process its share of the cores, from 1 to 4 (hand-computed from the cores here).
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readThreads } from '../../src/cli/read-threads.js';

const MB = 1024 * 1024;

describe('readThreads', () => {
  it('reads a file under 64 MB on one thread, whatever the cores', () => {
    expect(readThreads(1, 0)).toBe(1);
    expect(readThreads(1, 64 * MB - 1)).toBe(1);
  });

  it('gives each of the processes reading at once its share of the cores, from 1 to 4', () => {
    const cores = availableParallelism();
    expect(readThreads(1, 64 * MB)).toBe(Math.min(4, cores));
    expect(readThreads(1, 500 * MB)).toBe(Math.min(4, cores));
    expect(readThreads(cores, 500 * MB)).toBe(1);
    expect(readThreads(2 * cores, 500 * MB)).toBe(1);
    expect(readThreads(2, 500 * MB)).toBe(Math.max(1, Math.min(4, Math.floor(cores / 2))));
  });
});
