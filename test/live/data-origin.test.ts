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
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';

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
    recordDataOrigin(live, dataFingerprint(origin));
    const copy = join(dir, 'copy.ndjson');
    copyFileSync(origin, copy);
    expect(isDataOrigin(live, copy)).toBe(true);
    const rebuilt = dataFile('rebuilt.ndjson', 'c');
    utimesSync(rebuilt, 1_000_000, 1_000_000); // as cp -p keeps an older time
    expect(isDataOrigin(live, rebuilt)).toBe(false);
  });
});

describe('a live directory restarted with another --data before its first compaction (audit 59e)', () => {
  const venue = (id: string, lat: number) => ({ id, name: `Venue ${id}`, location: { type: 'Point' as const, coordinates: [lat, -0.12] as [number, number] } });
  const open = (dataPath: string, liveDir: string) =>
    LiveVenues.open({ dataPath, dir: liveDir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });

  it('is refused while the change log holds changes made over the first file, naming the ways out; the record is kept', async () => {
    const first = join(dir, 'first.vsnap');
    const second = join(dir, 'second.vsnap');
    writeSnapshot(createEngine([venue('a', 51.5), venue('b', 51.51)]), first);
    writeSnapshot(createEngine([venue('x', 53.4), venue('y', 53.41)]), second);
    const liveDir = join(dir, 'restarted');
    const live = await open(first, liveDir);
    await live.upsert([venue('c', 51.52)]);
    await live.close();
    const recorded = readFileSync(join(liveDir, 'data-origin.json'), 'utf8');
    await expect(open(second, liveDir)).rejects.toThrow(
      `--data ${second} is not the file ${liveDir} started from (its fingerprint is in ${join(liveDir, 'data-origin.json')}), and ${join(liveDir, 'changes.log')} holds changes made over that file`,
    );
    expect(readFileSync(join(liveDir, 'data-origin.json'), 'utf8')).toBe(recorded);
    // the first file still opens, with its change
    const again = await open(first, liveDir);
    expect(again.engine.has('c')).toBe(true);
    await again.close();
    // an empty log has nothing to replay: the other file is served and recorded
    const emptyDir = join(dir, 'no-changes');
    await (await open(first, emptyDir)).close();
    const other = await open(second, emptyDir);
    expect(other.engine.has('x')).toBe(true);
    await other.close();
    expect(isDataOrigin(emptyDir, second)).toBe(true);
  });
});

