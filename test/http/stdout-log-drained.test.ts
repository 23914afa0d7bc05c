/**
 * Audit 70f F3: a worker of `serve --workers 2` exited right after its close and lost the
 * request log's last line (a `charged_client_gone` logged as its last connection closed) in 3
 * runs of 7: the exit handler's synchronous flush writes nothing while a write is in flight,
 * and the lines held behind it were dropped. A stop now awaits `drained()` first. Oracle: the
 * bytes of the destination file, read back.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FailSafeLog } from '../../src/http/stdout-log.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-search-log-drained-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FailSafeLog.drained', () => {
  it('resolves only once every line written so far is in the destination, those held behind a write in flight too', async () => {
    const file = join(dir, 'log.ndjson');
    const fd = openSync(file, 'w');
    try {
      const log = new FailSafeLog(fd, 'a file', () => {});
      const lines = Array.from({ length: 200 }, (_, i) => `{"n":${i},"msg":"${'x'.repeat(100)}"}\n`);
      // the first line starts a write; the others are held behind it until it completes
      for (const line of lines) log.write(line);
      await log.drained(5_000);
      expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    } finally {
      closeSync(fd);
    }
  });

  it('resolves at once when the destination fails (its lines dropped, none held): a stop is not held', async () => {
    // an fd no file holds: every write fails (EBADF) and its lines are dropped; nothing is held
    const log = new FailSafeLog(65_000, 'nowhere', () => {});
    log.write('{"n":1}\n');
    const started = Date.now();
    await log.drained(200);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
