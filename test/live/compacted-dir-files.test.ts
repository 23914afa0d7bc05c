// audit 69c F3 and F2: a compacted live directory without its change log, or without its
// record while the log holds no batch, is refused at start (acknowledged batches were not
// served; a new batch got seq 1 again), and the ways out the messages give work.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-compacted-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 200 pubs of the OSM London extract, as venue records. */
const rows = loadLondonPubs().slice(0, 200);
const data = join(tmp, 'base.vsnap');
writeSnapshot(createEngine(rows.slice(0, 100)), data);
const open = (dir: string) => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });

/** A live directory: batches 1 and 2 (rows 100..149) compacted, then `after` batches of 10 rows each (rows 150..) logged since. */
async function compactedDir(name: string, after: number): Promise<string> {
  const dir = join(tmp, name);
  const live = await open(dir);
  expect((await live.upsert(rows.slice(100, 125))).seq).toBe(1);
  expect((await live.upsert(rows.slice(125, 150))).seq).toBe(2);
  expect(await live.compact()).toMatchObject({ upToSeq: 2 });
  for (let k = 0; k < after; k++) expect((await live.upsert(rows.slice(150 + 10 * k, 160 + 10 * k))).seq).toBe(3 + k);
  await live.close();
  expect(existsSync(join(dir, 'base.snapshot'))).toBe(true);
  expect(readFileSync(join(dir, 'changes.log'), 'utf8').split('\n').filter((l) => l !== '')).toHaveLength(after); // a compaction leaves the file, empty when nothing came since
  return dir;
}

describe('a missing changes.log beside a compacted base (audit 69c F3)', () => {
  it('is refused, naming it; put back, its batch is served; an empty one made instead gives that batch up knowingly', async () => {
    expect(rows.length).toBe(200);
    const dir = await compactedDir('no-log', 1); // batch 3: rows 150..159, acknowledged, only in the log
    renameSync(join(dir, 'changes.log'), join(dir, 'changes.log.1'));
    await expect(open(dir)).rejects.toThrow(`${join(dir, 'changes.log')} is missing beside the compacted base ${join(dir, 'base.snapshot')}`);
    expect(existsSync(join(dir, 'changes.log'))).toBe(false); // nothing changed
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    renameSync(join(dir, 'changes.log.1'), join(dir, 'changes.log'));
    let live = await open(dir);
    expect(rows.slice(0, 160).every((r) => live.engine.has(r.id))).toBe(true);
    expect(live.engine.size).toBe(160);
    await live.close();
    // the other way out: an empty log, the batch since the compaction given up
    renameSync(join(dir, 'changes.log'), join(dir, 'changes.log.1'));
    writeFileSync(join(dir, 'changes.log'), '');
    live = await open(dir);
    expect(live.engine.size).toBe(150);
    expect((await live.upsert(rows.slice(160, 170))).seq).toBe(3); // follows lastSeq 2 of the record
    await live.close();
  }, 60_000);
});

describe('a missing data-origin.json beside a compacted base (audit 69c F2)', () => {
  it('with an empty log: refused, naming it; the record written again as the docs say, the next batch follows its lastSeq', async () => {
    const dir = await compactedDir('no-record', 0);
    rmSync(join(dir, 'data-origin.json'));
    await expect(open(dir)).rejects.toThrow(`${join(dir, 'data-origin.json')} is missing beside the compacted base ${join(dir, 'base.snapshot')}, and ${join(dir, 'changes.log')} holds no batch`);
    expect(existsSync(join(dir, 'data-origin.json'))).toBe(false); // nothing written
    writeFileSync(join(dir, 'data-origin.json'), '{"compacted":true,"lastSeq":2}\n'); // 2: the highest seq acknowledged
    const live = await open(dir);
    expect(live.engine.size).toBe(150);
    expect((await live.upsert(rows.slice(150, 160))).seq).toBe(3);
    await live.close();
  }, 60_000);

  it('with a batch in the log: starts, the next seq follows the log (as before)', async () => {
    const dir = await compactedDir('no-record-log', 1);
    rmSync(join(dir, 'data-origin.json'));
    const live = await open(dir);
    expect(live.engine.size).toBe(160);
    expect((await live.upsert(rows.slice(160, 170))).seq).toBe(4);
    await live.close();
  }, 60_000);

  it('a base put by hand in a new directory (no record, no log yet) starts from it', async () => {
    const dir = join(tmp, 'seeded');
    mkdirSync(dir);
    writeSnapshot(createEngine(rows.slice(0, 120)), join(dir, 'base.snapshot'));
    const live = await open(dir);
    expect(live.engine.size).toBe(120);
    expect((await live.upsert(rows.slice(120, 130))).seq).toBe(1);
    await live.close();
  }, 60_000);

  it('a new directory (no base, no record, no log) still starts from --data', async () => {
    const live = await open(join(tmp, 'new'));
    expect(live.engine.size).toBe(100);
    expect((await live.upsert(rows.slice(100, 110))).seq).toBe(1);
    await live.close();
  }, 60_000);
});
