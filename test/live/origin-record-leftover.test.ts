// audit 66g F3: `data-origin.json.tmp`, a record of data-origin.json being written, left by a
// kill before its rename or by a failed rename, stayed in the live directory for good. Now a
// failed record removes it, and a start removes one a kill left, as it removes a compaction's
// leftovers (one stderr line; a folder with files in it there refuses the start).
// Oracle: the files on disk (data-origin.json byte for byte), the stderr lines, and the
// engine holding every real row sent.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordCompaction } from '../../src/changelog/data-origin.js';
import { loadLondonPubs } from '../search/support.js';
import { closedLiveDir as closedLiveDirOf } from './support/closed-live-dir.js';
import { stderrOf } from './support/stderr-capture.js';

const tmp = mkdtempSync(join(tmpdir(), 'origin-record-leftover-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 200 pubs of the OSM London extract. */
const rows = loadLondonPubs().slice(0, 200);

/** A closed live directory over rows 0-99 with batch 1 (rows 100-199) logged, and its origin record's paths. */
async function closedLiveDir(name: string) {
  const { dir, open } = await closedLiveDirOf(tmp, rows, name);
  return { dir, open, origin: join(dir, 'data-origin.json'), temporary: join(dir, 'data-origin.json.tmp') };
}


describe('data-origin.json.tmp left behind (audit 66g F3)', () => {
  it('one a kill left before its rename is removed at start, saying so; data-origin.json is as it was', async () => {
    const { open, origin, temporary } = await closedLiveDir('killed');
    const recorded = readFileSync(origin);
    // what a record killed after its write and before its rename leaves: the whole new record
    const record = `${JSON.stringify({ ...JSON.parse(recorded.toString('utf8')), lastSeq: 1 })}\n`;
    writeFileSync(temporary, record);
    const { value: live, said } = await stderrOf(open);
    try {
      expect(said).toEqual([
        `venue-search: removed ${temporary} (${Buffer.byteLength(record)} bytes), left by a record of data-origin.json that was stopped before it finished (killed or crashed) or whose rename failed; data-origin.json is as it was\n`,
      ]);
      expect(existsSync(temporary)).toBe(false);
      expect(readFileSync(origin).equals(recorded)).toBe(true);
      expect(live.engine.size).toBe(200);
      expect(rows.every((r) => live.engine.has(r.id))).toBe(true);
    } finally {
      await live.close();
    }
  }, 60_000);

  it('a record whose rename fails (a folder with a file in it at data-origin.json) removes its temporary file', async () => {
    const dir = join(tmp, 'rename-fails');
    mkdirSync(join(dir, 'data-origin.json'), { recursive: true });
    writeFileSync(join(dir, 'data-origin.json', 'keep'), 'somebody else');
    expect(() => recordCompaction(dir, 1)).toThrow(/rename .*data-origin\.json\.tmp/);
    expect(existsSync(join(dir, 'data-origin.json.tmp'))).toBe(false);
    expect(readFileSync(join(dir, 'data-origin.json', 'keep'), 'utf8')).toBe('somebody else');
  });

  it('a folder with files in it at data-origin.json.tmp refuses the start, naming it, and is left as it is', async () => {
    const { open, temporary } = await closedLiveDir('folder');
    mkdirSync(temporary);
    writeFileSync(join(temporary, 'x'), 'keep');
    await expect(open()).rejects.toThrow(`${temporary} is a folder with files in it, where a compaction writes the record of data-origin.json`);
    expect(readFileSync(join(temporary, 'x'), 'utf8')).toBe('keep');
  }, 60_000);
});
