// audit 65d F1: seq only grows for one live directory, across compactions and restarts (it
// restarted at 1 once a compaction had emptied the log and the service restarted).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-seq-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 400 pubs of the OSM London extract, as venue records. */
const rows = loadLondonPubs().slice(0, 400);

/** The seqs of the change log's lines, parsed by hand (`<crc> {"seq":n,...}`). */
function loggedSeqs(dir: string): number[] {
  return readFileSync(join(dir, 'changes.log'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => Number(/^[0-9a-f]{8} \{"seq":(\d+),/.exec(l)![1]));
}

describe('seq across compactions and restarts (audit 65d F1)', () => {
  it('goes on from the last batch folded into the base, also once the log is empty; every acknowledged record is served', async () => {
    expect(rows.length).toBe(400); // the precondition: enough real rows
    const data = join(tmp, 'base.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live');
    const open = () => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
    const seqs: number[] = [];
    let live = await open();
    for (let i = 100; i < 250; i += 50) seqs.push((await live.upsert(rows.slice(i, i + 50))).seq);
    expect(await live.compact()).toMatchObject({ upToSeq: 3 });
    expect(loggedSeqs(dir)).toEqual([]);
    await live.close();
    // restarted over an empty log
    live = await open();
    seqs.push((await live.upsert(rows.slice(250, 300))).seq);
    await live.close();
    live = await open();
    seqs.push((await live.upsert(rows.slice(300, 350))).seq);
    expect(loggedSeqs(dir)).toEqual([4, 5]); // the first logged batch numbered above 1 (docs/snapshots.md)
    await live.compact();
    await live.close();
    live = await open();
    seqs.push((await live.upsert(rows.slice(350, 400))).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
    expect(loggedSeqs(dir)).toEqual([6]);
    // the records: every input row, once
    expect(live.engine.size).toBe(400);
    expect(rows.every((r) => live.engine.has(r.id))).toBe(true);
    await live.close();
  }, 60_000);
});
