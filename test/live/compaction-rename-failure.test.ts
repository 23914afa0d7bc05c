/**
 * audit 66g F2: a compaction whose rename of `base.snapshot.next` onto the base fails (EIO)
 * left the new base, as large as the base, on disk until the next start, though the error
 * says nothing is left behind. The rename is made to fail as the auditor's strace did: EIO
 * from that rename (the service's renameNewBase replaced on this instance, as
 * compaction-failure-steps.test.ts replaces an adopt; every other file call is the real one).
 * Oracle: the files read back from disk (the base's venues by id against the real rows, the
 * log's seqs) and the directory's listing.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLog } from '../../src/changelog/change-log.js';
import { CompactionFailedError } from '../../src/changelog/compactor.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'compaction-rename-failure-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 300 pubs of the OSM London extract. */
const rows = loadLondonPubs().slice(0, 300);
const snapshotIds = (path: string) => [...readSnapshot(path).currentRecords()].map((r) => r.id).sort();

describe('a compaction whose rename of the new base fails (audit 66g F2)', () => {
  it('says the base and the log are as they were, and they are: the new base is removed, the old one and the log unchanged', async () => {
    const data = join(tmp, 'data.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live');
    const open = () => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
    const live = await open();
    const base = join(dir, 'base.snapshot');
    try {
      // a first compaction: base.snapshot holds rows 0-199
      await live.upsert(rows.slice(100, 200));
      await live.compact();
      const baseBytes = readFileSync(base);
      await live.upsert(rows.slice(200, 300));
      const seam = live as unknown as { renameNewBase: (from: string, to: string) => Promise<void> };
      seam.renameNewBase = async (from, to) => {
        throw Object.assign(new Error(`EIO: i/o error, rename '${from}' -> '${to}'`), { code: 'EIO', errno: -5, syscall: 'rename' });
      };
      const failed = await live.compact().catch((e: unknown) => e);
      delete (seam as { renameNewBase?: unknown }).renameNewBase; // the class's own again
      expect(failed).toBeInstanceOf(CompactionFailedError);
      expect((failed as Error).message).toBe(`compaction failed: EIO: i/o error, rename '${base}.next' -> '${base}'; the base and the change log are as they were`);
      // as they were: the base byte for byte, the log with its one batch; nothing else written
      expect(readFileSync(base).equals(baseBytes)).toBe(true);
      expect(snapshotIds(base)).toEqual(rows.slice(0, 200).map((r) => r.id).sort());
      expect(readLog(join(dir, 'changes.log')).entries.map((e) => e.seq)).toEqual([2]);
      expect(existsSync(`${base}.next`)).toBe(false);
      expect(readdirSync(dir).filter((f) => f.endsWith('.next') || f.endsWith('.tmp'))).toEqual([]);
      // the next compaction does it all again
      await live.compact();
      expect(snapshotIds(base)).toEqual(rows.map((r) => r.id).sort());
    } finally {
      await live.close();
    }
  }, 60_000);
});
