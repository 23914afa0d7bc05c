/**
 * readSnapshotAsync: the file read by the thread pool in three parts (before the kd-tree's
 * section, the section, after it), then restored as readSnapshot restores it.
 * The oracles: an engine built from the fixture records themselves (JSON.parse of each line),
 * for what a good file answers; and, for bad files, readSnapshot's own refusal of the same
 * file (each of those is checked against the format elsewhere: snapshot.test.ts,
 * damaged-sections.test.ts), which the read-ahead must give word for word.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { readSnapshot, readSnapshotAsync } from '../../src/snapshot/read-snapshot.js';
import type { SnapshotHeader } from '../../src/snapshot/snapshot-format.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { prng } from '../support/oracle.js';
import { resealHeader } from '../support/snapshot-header-seal.js';
import { loadFixtureVenues } from '../search/support.js';

const FIXTURES = new URL('../../fixtures/venues.ndjson', import.meta.url);
const venues = loadFixtureVenues();
const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-read-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 10, 21, 19, 30);
const built = createEngine(venues).warm();
const file = join(dir, 'fixtures.vsnap');
writeSnapshot(built, file);
const bytes = readFileSync(file);
const headerAt = bytes.readDoubleLE(8);
const header = JSON.parse(bytes.toString('utf8', headerAt, headerAt + bytes.readDoubleLE(16))) as SnapshotHeader;

/** What reading `path` gives: the engine, or the refusal's code and message. */
async function outcome(read: () => Engine | Promise<Engine>): Promise<{ engine: Engine } | { code: unknown; message: string }> {
  try {
    return { engine: await read() };
  } catch (e) {
    return { code: (e as { code?: unknown }).code, message: (e as Error).message };
  }
}

describe('readSnapshotAsync on the 3,000 fixture venues', () => {
  it('gives every record, search, find and detail of the engine built from the records', async () => {
    const restored = await readSnapshotAsync(file);
    expect(restored.size).toBe(venues.length);
    for (const v of venues) expect(restored.store.record(restored.store.indexOf(v.id))).toEqual(v);
    const rnd = prng(57);
    for (let q = 0; q < 40; q++) {
      const [lat, lon] = venues[Math.floor(rnd() * venues.length)]!.location.coordinates;
      const [lat2, lon2] = venues[Math.floor(rnd() * venues.length)]!.location.coordinates;
      const body =
        q % 2 === 0
          ? { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 500 + rnd() * 3000 }, preferences: q % 4 === 0 ? { vibes: ['cosy'] } : {} }
          : { locations: [{ lat, lon }, { lat: lat2, lon: lon2 }], mode: { mode: 'PATH', maxDistance: 300 + rnd() * 2000 } };
      expect(restored.search(body, { now: NOW, limit: 20 })).toEqual(built.search(body, { now: NOW, limit: 20 }));
    }
    for (const v of venues.slice(0, 30)) {
      expect(restored.find({ q: v.name }, { now: NOW })).toEqual(built.find({ q: v.name }, { now: NOW }));
      expect(restored.advanced(v.id, { now: NOW })).toEqual(built.advanced(v.id, { now: NOW }));
    }
  });

  it("restores the kd-tree from its section's part: kdbush's data is the section's bytes, in a buffer holding nothing else", async () => {
    const restored = await readSnapshotAsync(file);
    const tree = header.sections.tree!;
    const data = new Uint8Array(restored.spatial.treeData);
    expect(data.byteLength).toBe(tree.byteLength);
    expect(Buffer.from(data).equals(bytes.subarray(tree.offset, tree.offset + tree.byteLength))).toBe(true);
  });
});

describe('readSnapshotAsync refuses what readSnapshot refuses, in the same words', () => {
  const cases: Array<[string, string]> = [];
  const write = (name: string, b: Uint8Array): string => {
    const path = join(dir, name);
    writeFileSync(path, b);
    return path;
  };
  for (let k = 1; k < 10; k++) cases.push([`cut at ${k}/10`, write(`cut-${k}.vsnap`, bytes.subarray(0, Math.floor((bytes.length * k) / 10)))]);
  cases.push(['the first 5 bytes', write('head-5.vsnap', bytes.subarray(0, 5))]);
  cases.push(['an NDJSON file', FIXTURES.pathname]);
  cases.push(['a missing file', join(dir, 'nope.vsnap')]);
  cases.push(['a folder', dir]);
  // a kd-tree id past the venue count (kdbush: an 8-byte header, then Uint16 ids at 3,000 points)
  const flipped = Buffer.from(bytes);
  flipped[header.sections.tree!.offset + 9]! ^= 0xff;
  cases.push(['a kd-tree id flipped', write('tree-id.vsnap', flipped)]);
  // the header's place in the prefix beyond the file
  const farHeader = Buffer.from(bytes);
  farHeader.writeDoubleLE(bytes.length, 8);
  cases.push(['a header past the end', write('far-header.vsnap', farHeader)]);

  it.each(cases)('%s', async (_, path) => {
    const sync = await outcome(() => readSnapshot(path));
    expect(sync).not.toHaveProperty('engine');
    expect(await outcome(() => readSnapshotAsync(path))).toEqual(sync);
  });

  it("a header that places a section across the kd-tree section's end (read from the file again, not from the parts read ahead): as readSnapshot", async () => {
    // scheduleOffsets (Uint32, the opening-hours rows' starts, the section after the tree's
    // next) moved to start 8 bytes before the tree's end: its bytes span the second and third
    // parts read ahead, and are the tree's last 8 bytes, then scheduleOf's first.
    const tree = header.sections.tree!;
    const offsets = header.sections.scheduleOffsets!;
    const moved = Buffer.from(bytes);
    const key = `"scheduleOffsets":{"offset":${offsets.offset},`;
    const at = moved.indexOf(key, headerAt);
    expect(at).toBeGreaterThan(headerAt);
    const to = String(tree.offset + tree.byteLength - 8);
    expect(to.length).toBe(String(offsets.offset).length); // the header keeps its length
    moved.write(`"scheduleOffsets":{"offset":${to},`, at, 'latin1');
    const path = write('across.vsnap', resealHeader(moved));
    const sync = await outcome(() => readSnapshot(path));
    // refused: its first start is not 0 (a tree byte)
    expect(sync).toMatchObject({ code: 'invalid_data', message: expect.stringMatching(/section scheduleOffsets/) as unknown });
    expect(await outcome(() => readSnapshotAsync(path))).toEqual(sync);
  });

  it('options: validate is refused naming readSnapshotAsync, an unknown option naming it', async () => {
    await expect(readSnapshotAsync(file, { validate: true } as never)).rejects.toThrow(/options\.validate is not an option of readSnapshotAsync \(its options: places, recordCacheSize\)/);
    await expect(readSnapshotAsync(file, { recordCacheSize: 3 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(readSnapshotAsync('' as string)).rejects.toThrow(/path must be the snapshot file to read/);
  });
});

