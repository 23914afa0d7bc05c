/**
 * Which --data a live directory started from is known by content (src/changelog/data-origin.ts):
 * a file shipped with `cp -p` or `rsync -a` keeps an older modification time, and a rebuilt
 * one may keep its size. The oracle is node:crypto's SHA-256 of the whole file, computed here.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFingerprint, isDataOrigin, recordDataOrigin } from '../../src/changelog/data-origin.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-search-origin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 9 MiB data file (more than two of the fingerprint's read chunks) whose middle byte is `middle`. */
function dataFile(name: string, middle: string): string {
  const bytes = Buffer.alloc(9 << 20, 'a');
  bytes.write(middle, bytes.length >> 1);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('the --data a live directory started from, by content', () => {
  it('the fingerprint is the size and the SHA-256 of the whole file', () => {
    const path = dataFile('whole.ndjson', 'b');
    expect(dataFingerprint(path)).toBe(`${9 << 20}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
  });

  it('a copy with the same content is the origin; one letter changed in the middle, same size, older time, is not; no record says nothing', () => {
    const origin = dataFile('origin.ndjson', 'b');
    const live = join(dir, 'live');
    expect(isDataOrigin(dir, origin)).toBeUndefined();
    mkdirSync(live);
    recordDataOrigin(live, origin);
    const copy = join(dir, 'copy.ndjson');
    copyFileSync(origin, copy);
    expect(isDataOrigin(live, copy)).toBe(true);
    const rebuilt = dataFile('rebuilt.ndjson', 'c');
    utimesSync(rebuilt, 1_000_000, 1_000_000); // as cp -p keeps an older time
    expect(isDataOrigin(live, rebuilt)).toBe(false);
  });
});
