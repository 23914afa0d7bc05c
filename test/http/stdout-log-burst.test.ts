/**
 * Audit 71e F6: one client's burst (20 connections each pipelining 300 searches) made the
 * service drop 4,147 request-log lines while stdout was a plain file on a healthy disk: the
 * lines logged while the event loop was busy waited behind one write, past the 1 MiB held.
 * A regular file now holds up to 64 MiB; a pipe keeps 1 MiB (a reader that stops reading
 * must not grow the heap). Oracle: the destination's bytes read back, the lines counted.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FailSafeLog, MAX_HELD_BYTES } from '../../src/http/stdout-log.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-search-log-burst-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `n` log lines of about 250 bytes, as a request's. */
const burst = (n: number) => Array.from({ length: n }, (_, i) => `{"level":30,"n":${i},"msg":"request completed","url":"/v1/find?q=${'x'.repeat(180)}"}\n`);

describe('a burst of log lines in one turn of the event loop', () => {
  it('to a regular file: 20,000 lines (about 5 MB, five times the old bound), none dropped, in order, and nothing said on stderr', async () => {
    const file = join(dir, 'log.ndjson');
    const fd = openSync(file, 'w');
    const said: string[] = [];
    try {
      const log = new FailSafeLog(fd, 'a file', (line) => said.push(line));
      const lines = burst(20_000);
      expect(lines.join('').length).toBeGreaterThan(4 * MAX_HELD_BYTES);
      for (const line of lines) expect(log.write(line)).toBe(true);
      await log.drained(10_000);
      expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
      expect(said).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it('to a pipe nobody reads: past 1 MiB held, lines are dropped and that is said once', () => {
    // a FIFO opened read-write and non-blocking: the pipe fills at its 64 KiB, a write stays in flight
    const fifo = join(dir, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const said: string[] = [];
    try {
      const log = new FailSafeLog(fd, 'a pipe', (line) => said.push(line));
      const written = burst(20_000).map((line) => log.write(line));
      expect(written.filter((w) => !w).length).toBeGreaterThan(10_000);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('more than 1 MiB of log lines waiting for it');
    } finally {
      closeSync(fd);
    }
  });
});
