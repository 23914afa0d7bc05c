// audit 66g F4: a `serve` start refused by the live directory said `cannot load <--data> with
// the changes in <dir>: ...` even when the service would load the directory's compacted base,
// and even when nothing failed to load (a folder with files in it at base.snapshot.next).
// Now a thing in the way is named as the live directory's (`--live-dir <dir> cannot be used`),
// and a load that failed names the file it read: base.snapshot once there is one.
// Oracle: the paths the test made, and the refusal text of compaction-leftovers.ts and
// change-log.ts written out by hand.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { refusedServe } from './support/refused-serve.js';
import { loadLondonPubs } from '../search/support.js';

const { tmp, data, serve } = refusedServe('serve-refusal-names', 120_000);
/** Real rows: pubs of the OSM London extract, as batches. */
const rows = loadLondonPubs().slice(0, 30);

/** A closed live directory over the fixtures, compacted once (base.snapshot holds batch 1), then holding batches 2 and 3 in its log. */
async function compactedLiveDir(name: string): Promise<string> {
  const dir = join(tmp, name);
  const live = await LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
  await live.upsert(rows.slice(0, 10));
  await live.compact();
  await live.upsert(rows.slice(10, 20));
  await live.upsert(rows.slice(20, 30));
  await live.close();
  return dir;
}

describe('serve refused by its live directory names what is wrong (audit 66g F4)', () => {
  it('a folder with files in it at base.snapshot.next: the live directory cannot be used, not "cannot load --data"', async () => {
    const dir = await compactedLiveDir('leftover');
    mkdirSync(join(dir, 'base.snapshot.next', 'y'), { recursive: true });
    const refused = await serve(dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `venue-search: --live-dir ${dir} cannot be used: ${join(dir, 'base.snapshot.next')} is a folder with files in it, where a compaction writes the new base: ` +
        'every compaction would fail on it, or write through it. It is not something a compaction leaves, so it was left as it is: move it away, then start again',
    );
  }, 120_000);

  it('a change log that cannot be read over the compacted base: names base.snapshot, the file it loads, not --data', async () => {
    const dir = await compactedLiveDir('damaged-log');
    const log = join(dir, 'changes.log');
    // the log's two whole lines (seqs 2 and 3) swapped: each line intact, their order not
    const [second, third] = readFileSync(log, 'utf8').split('\n');
    writeFileSync(log, `${third}\n${second}\n`);
    const refused = await serve(dir);
    expect(refused.code).toBe(1);
    // after the line saying the base loaded
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(`venue-search: cannot load ${join(dir, 'base.snapshot')} with the changes in ${dir}: change log ${log} line 2: seq 2 does not follow 3`);
  }, 120_000);
});
