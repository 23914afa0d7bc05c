// audit 65d F2: a partial base.snapshot.next (and changes.log.next) left by a compaction that
// was killed part-way is removed at the next start, saying so; nothing acknowledged is lost.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-leftovers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 300 pubs of the OSM London extract, as venue records. */
const rows = loadLondonPubs().slice(0, 300);

describe('leftovers of a compaction stopped part-way (audit 65d F2)', () => {
  it('are removed at start, one line each on stderr; the base and the log are replayed as they were', async () => {
    expect(rows.length).toBe(300);
    const data = join(tmp, 'base.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live');
    const open = () => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
    let live = await open();
    await live.upsert(rows.slice(100, 200));
    await live.compact();
    await live.upsert(rows.slice(200, 300));
    await live.close();
    // what a compaction killed while writing leaves: the first part of a new base, and a log copy
    const base = join(dir, 'base.snapshot');
    const partial = readFileSync(base).subarray(0, statSync(base).size >> 1);
    writeFileSync(`${base}.next`, partial);
    writeFileSync(join(dir, 'changes.log.next'), readFileSync(join(dir, 'changes.log')).subarray(0, 100));
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      live = await open();
    } finally {
      process.stderr.write = write;
    }
    try {
      expect(existsSync(`${base}.next`)).toBe(false);
      expect(existsSync(join(dir, 'changes.log.next'))).toBe(false);
      expect(said).toEqual([
        `venue-search: removed ${base}.next (${partial.length} bytes), left by a compaction that was stopped before it finished (killed or crashed); the base and the change log are as they were\n`,
        `venue-search: removed ${join(dir, 'changes.log.next')} (100 bytes), left by a compaction that was stopped before it finished (killed or crashed); the base and the change log are as they were\n`,
      ]);
      expect(live.engine.size).toBe(300);
      expect(rows.every((r) => live.engine.has(r.id))).toBe(true);
    } finally {
      await live.close();
    }
  }, 60_000);
});
