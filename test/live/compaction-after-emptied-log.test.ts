// audit 67e F4: after a compaction emptied the change log and the service restarted, the
// compaction worker refused the log ("entry N was logged, but the log holds entries up to 0
// only": it counted the log from 0, not from the seq the compacted base holds), so the first
// compaction failed (POST /admin/compact: 503; an automatic one: the 30 s wait). Real LiveVenues
// on a real directory; oracle: the records expected, kept here by hand from real OSM rows, and
// the new base.snapshot read back from disk.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompactionFailedError } from '../../src/changelog/compactor.js';
import { LiveVenues, type CompactionReport } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'compaction-emptied-log-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 300 pubs of the OSM London extract. */
const rows = loadLondonPubs().slice(0, 300);

/** [id, name] of each record, sorted by id. */
const idsAndNames = (records: Iterable<VenueRecord>) => [...records].map((r) => [r.id, r.name]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));

/** The records of the live directory's base.snapshot, read back from the file. */
const baseOnDisk = (dir: string) => idsAndNames(readSnapshot(join(dir, 'base.snapshot')).currentRecords());

/** Opens the live directory `dir` over `data` as `serve` does, collecting compaction failures (and reports) in the arrays given. */
const openLive = (data: string, dir: string, compactAfter: number, failures: string[], compactions: CompactionReport[] = []) =>
  LiveVenues.open({
    dataPath: data,
    dir,
    compactAfter,
    load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine,
    onCompaction: (r) => compactions.push(r),
    onCompactionFailed: (e: CompactionFailedError) => failures.push(e.message),
  });

describe('the first compaction after a restart on a log a compaction emptied (audit 67e F4)', () => {
  it('succeeds, on request and by the threshold; the new base holds every acknowledged change', async () => {
    expect(rows.length).toBe(300); // the precondition: enough real rows
    const data = join(tmp, 'base.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live');
    const failures: string[] = [];
    const compactions: CompactionReport[] = [];
    const open = (compactAfter: number) => openLive(data, dir, compactAfter, failures, compactions);
    // The oracle: the records a client was acknowledged, by id.
    const expected = new Map<string, VenueRecord>(rows.slice(0, 100).map((r) => [r.id, r]));
    const upsert = async (live: LiveVenues, from: number, to: number) => {
      const { seq } = await live.upsert(rows.slice(from, to));
      for (const r of rows.slice(from, to)) expected.set(r.id, r);
      return seq;
    };

    let live = await open(0);
    await upsert(live, 100, 150);
    await upsert(live, 150, 200);
    expect(await live.compact()).toMatchObject({ upToSeq: 2 });
    await live.close();
    expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe(''); // emptied by the compaction
    expect(JSON.parse(readFileSync(join(dir, 'data-origin.json'), 'utf8'))).toMatchObject({ lastSeq: 2 });

    // Restarted: the worker loads the compacted base (holding up to seq 2) over the empty log.
    live = await open(0);
    expect(await live.compactorReady).toMatchObject({ entries: 0 });
    // a compaction with nothing new, then one right after a batch and a remove
    expect(await live.compact()).toMatchObject({ upToSeq: 2, venues: 200 });
    expect(await upsert(live, 200, 230)).toBe(3);
    const removed = rows.slice(0, 10).map((r) => r.id);
    expect((await live.remove(removed)).seq).toBe(4);
    for (const id of removed) expect.soft(expected.delete(id)).toBe(true);
    expect(await live.compact()).toMatchObject({ upToSeq: 4, venues: expected.size });
    expect(baseOnDisk(dir)).toEqual(idsAndNames(expected.values()));
    await live.close();
    expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe('');

    // Restarted with the threshold at 1: the first batch, sent at once, starts a compaction that succeeds.
    live = await open(1);
    expect(await upsert(live, 230, 300)).toBe(5);
    expect(live.compaction).not.toBeNull();
    expect(await live.compaction).toMatchObject({ upToSeq: 5, venues: expected.size });
    expect(baseOnDisk(dir)).toEqual(idsAndNames(expected.values()));
    expect(idsAndNames(live.engine.currentRecords())).toEqual(idsAndNames(expected.values()));
    await live.close();

    expect(failures).toEqual([]);
    expect(compactions.map((c) => c.upToSeq)).toEqual([2, 2, 4, 5]);
  }, 120_000);

  // audit 67g F0: a data-origin.json written by hand with a lastSeq above batches the log still
  // held (docs/updates.md allows "any number certainly above" only over an empty log): the worker
  // skipped the log's entries up to lastSeq, and the compaction dropped them from base and log.
  it('a lastSeq written by hand above batches the log holds: the compaction keeps them', async () => {
    const data = join(tmp, 'base-f0.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live-f0');
    const failures: string[] = [];
    const open = () => openLive(data, dir, 0, failures);
    const expected = new Map<string, VenueRecord>(rows.slice(0, 100).map((r) => [r.id, r]));
    let live = await open();
    await live.upsert(rows.slice(100, 120));
    expect(await live.compact()).toMatchObject({ upToSeq: 1 });
    for (const r of rows.slice(100, 120)) expected.set(r.id, r);
    // two batches acknowledged after the compaction: seq 2 and 3, in the log only
    expect((await live.upsert(rows.slice(120, 150))).seq).toBe(2);
    expect((await live.upsert(rows.slice(150, 180))).seq).toBe(3);
    for (const r of rows.slice(120, 180)) expected.set(r.id, r);
    await live.close();
    const originPath = join(dir, 'data-origin.json');
    const origin = JSON.parse(readFileSync(originPath, 'utf8')) as Record<string, unknown>;
    expect(origin).toMatchObject({ compacted: true, lastSeq: 1 });
    writeFileSync(originPath, JSON.stringify({ ...origin, lastSeq: 1000 }));

    live = await open();
    expect(await live.compact()).toMatchObject({ venues: expected.size });
    expect(baseOnDisk(dir)).toEqual(idsAndNames(expected.values()));
    expect(idsAndNames(live.engine.currentRecords())).toEqual(idsAndNames(expected.values()));
    // the next batch follows the record's seq: none used twice
    expect((await live.upsert(rows.slice(180, 190))).seq).toBe(1001);
    await live.close();
    expect(failures).toEqual([]);
  }, 120_000);

  // audit 68b F7: a lastSeq written by hand below the log's first batch minus 1 (the base holds
  // up to 3, the log 4 and 5, the record says 1): the start said nothing and replayed, then every
  // compaction failed ("entry 4 follows entry 1, the entries between are missing").
  it('a lastSeq written by hand below the log\'s first batch minus 1: the start is refused, naming both and the value to write; with that value it starts and compacts', async () => {
    const data = join(tmp, 'base-f7.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live-f7');
    const failures: string[] = [];
    const open = () => openLive(data, dir, 0, failures);
    const expected = new Map<string, VenueRecord>(rows.slice(0, 100).map((r) => [r.id, r]));
    let live = await open();
    for (const [from, to] of [[100, 110], [110, 120], [120, 130]] as const) await live.upsert(rows.slice(from, to));
    expect(await live.compact()).toMatchObject({ upToSeq: 3 });
    expect((await live.upsert(rows.slice(130, 140))).seq).toBe(4);
    expect((await live.upsert(rows.slice(140, 150))).seq).toBe(5);
    for (const r of rows.slice(100, 150)) expected.set(r.id, r);
    await live.close();
    const originPath = join(dir, 'data-origin.json');
    const origin = JSON.parse(readFileSync(originPath, 'utf8')) as Record<string, unknown>;
    expect(origin).toMatchObject({ compacted: true, lastSeq: 3 });
    writeFileSync(originPath, JSON.stringify({ ...origin, lastSeq: 1 }));
    const logBefore = readFileSync(join(dir, 'changes.log'));

    await expect(open()).rejects.toThrow(
      `${originPath} records lastSeq 1 (the base holds the batches up to 1), but ${join(dir, 'changes.log')} starts at batch 4: batches 2 to 3 would be in neither, and every compaction would fail.`,
    );
    await expect(open()).rejects.toThrow('write it again with lastSeq 3 (the log\'s first batch minus 1)');
    expect(readFileSync(join(dir, 'changes.log'))).toEqual(logBefore); // nothing changed
    expect(JSON.parse(readFileSync(originPath, 'utf8'))).toMatchObject({ lastSeq: 1 });

    // the value the refusal names, written as docs/updates.md says: it starts, and compacts
    writeFileSync(originPath, JSON.stringify({ ...origin, lastSeq: 3 }));
    live = await open();
    expect(await live.compact()).toMatchObject({ upToSeq: 5, venues: expected.size });
    expect(baseOnDisk(dir)).toEqual(idsAndNames(expected.values()));
    await live.close();
    expect(failures).toEqual([]);
  }, 120_000);
});
