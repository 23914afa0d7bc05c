/**
 * Which --data a live directory started from is known by content (src/changelog/data-origin.ts):
 * a file shipped with `cp -p` or `rsync -a` keeps an older modification time, and a rebuilt
 * one may keep its size. The oracle is node:crypto's SHA-256 of the whole file, computed here.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFingerprint, isDataOrigin, recordDataOrigin } from '../../src/changelog/data-origin.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { dataFileProblem, loadEngineFile } from '../../src/cli/load-engine.js';
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


describe('a live directory compacted by a release before 2026-11-29, which recorded no compaction (audit 62a 6)', () => {
  const venue = (id: string, lat: number) => ({ id, name: `Venue ${id}`, location: { type: 'Point' as const, coordinates: [lat, -0.12] as [number, number] } });
  /** What serve does: the base to load must be there (dataFileProblem, as the command checks it), then open. */
  const start = async (dataPath: string, liveDir: string) => {
    const base = LiveVenues.basePath({ dataPath, dir: liveDir });
    const problem = dataFileProblem(base, base === dataPath ? 'data' : 'base');
    if (problem !== null) throw new Error(problem);
    return LiveVenues.open({ dataPath, dir: liveDir, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
  };
  /** The refusal serve prints for a missing compacted base. */
  const missing = (base: string) =>
    `the live directory's compacted base ${base} is missing: the changes compacted into it are no longer in the change log, so --data is not served without it. Put it back (docs/snapshots.md: copy it, never move it), or start with a fresh --live-dir to serve --data without those changes`;
  /** A log line as every release wrote it: the CRC-32 of the JSON in 8 hex digits, a space, the JSON. */
  const logLine = (json: string) => `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
  const data = join(dir, 'old-release-data.vsnap');
  writeSnapshot(createEngine([venue('a', 51.5), venue('b', 51.51)]), data);

  /**
   * The directory an older release leaves after `PUT old:1` (seq 1), `POST /admin/compact`,
   * then the batches `logged` (bytes of changes.log): data-origin.json holds the fingerprint
   * alone (size and SHA-256 of --data), base.snapshot holds --data and old:1.
   */
  function oldReleaseDirectory(name: string, logged: string): { liveDir: string; base: string; origin: string } {
    const liveDir = join(dir, name);
    mkdirSync(liveDir);
    const bytes = readFileSync(data);
    const origin = `{"fingerprint":"${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}"}\n`;
    writeFileSync(join(liveDir, 'data-origin.json'), origin);
    writeFileSync(join(liveDir, 'changes.log'), logged);
    const base = join(liveDir, 'base.snapshot');
    writeSnapshot(createEngine([venue('a', 51.5), venue('b', 51.51), venue('old:1', 51.52)]), base);
    return { liveDir, base, origin };
  }

  it('its change log starting at seq 2 says a compaction cut batch 1: without base.snapshot the start is refused, naming it, not served from --data', async () => {
    const { liveDir, base } = oldReleaseDirectory('old-log-at-2', logLine(JSON.stringify({ seq: 2, op: 'upsert', records: [venue('old:2', 51.53)] })));
    rmSync(base);
    await expect(start(data, liveDir)).rejects.toThrow(missing(base));
  });

  it('with no batch since its compaction (an empty log), the first start that loads base.snapshot records the compaction; without it, the next start is refused', async () => {
    const { liveDir, base, origin } = oldReleaseDirectory('old-empty-log', '');
    const live = await start(data, liveDir);
    expect(live.engine.has('old:1')).toBe(true);
    await live.close();
    expect(JSON.parse(readFileSync(join(liveDir, 'data-origin.json'), 'utf8'))).toEqual({ ...JSON.parse(origin), compacted: true });
    rmSync(base);
    await expect(start(data, liveDir)).rejects.toThrow(missing(base));
  });

  it('a directory never compacted (its log starts at seq 1, no base) is served from --data with its changes', async () => {
    const liveDir = join(dir, 'never-compacted');
    mkdirSync(liveDir);
    writeFileSync(join(liveDir, 'changes.log'), logLine(JSON.stringify({ seq: 1, op: 'upsert', records: [venue('new:1', 51.53)] })));
    const live = await start(data, liveDir);
    expect(live.engine.has('a') && live.engine.has('new:1')).toBe(true);
    await live.close();
  });
});
