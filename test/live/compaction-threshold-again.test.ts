// Audit 75b F3: batches that came while a compaction ran left the pending changes over the
// threshold, and no compaction started until the next change came (6,962 pending over a
// threshold of 150, until a restart). Now the threshold is checked again when a compaction ends.
// Oracle: the batches' seqs and sizes, counted here; real rows of the OSM London extract.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-threshold-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rows = loadLondonPubs().slice(0, 600);

describe('the threshold after a compaction (audit 75b F3)', () => {
  it('batches logged while a compaction ran start the next one when it ends, and a closing service starts none', async () => {
    expect(rows.length).toBe(600); // the precondition: enough real rows
    const data = join(tmp, 'base.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 200)), data);
    const live = await LiveVenues.open({ dataPath: data, dir: join(tmp, 'live'), compactAfter: 100, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
    await live.compactorReady;
    // The first batch reaches the threshold: its compaction takes the log up to seq 1. The
    // next three are queued behind that compaction's start, so they are not in it.
    expect((await live.upsert(rows.slice(200, 300))).seq).toBe(1);
    const first = live.compaction;
    expect(first).not.toBeNull();
    const batches = [1, 2, 3].map((k) => live.upsert(rows.slice(200 + 100 * k, 300 + 100 * k)));
    expect((await Promise.all(batches)).map((b) => b.seq)).toEqual([2, 3, 4]);
    expect(await first).toMatchObject({ upToSeq: 1 });
    // 300 changes still pending, over the threshold of 100: the next compaction is under way
    const second = live.compaction;
    expect(second).not.toBeNull();
    expect(await second).toMatchObject({ upToSeq: 4 });
    expect(live.engine.pendingChanges).toBe(0);
    expect(live.compaction).toBeNull(); // nothing pending: none started
    expect(live.engine.size).toBe(600);
    // A close while a compaction runs: it is awaited, and none starts after it
    void live.upsert(rows.slice(0, 100));
    await live.upsert(rows.slice(100, 200)); // 200 pending: the threshold's compaction started at the first
    expect(live.compaction).not.toBeNull();
    await live.close();
    expect(live.compaction).toBeNull();
  }, 60_000);
});
