// audit 67a F1, F2, F8, F9: what a `serve` start says about the files of its live directory.
// - F1: a pipe at changes.log, data-origin.json or lock held the start for good (open(2) waits
//   for a writer): no port, the lock kept. Now refused at once, naming the path.
// - F2: a folder at changes.log read "--live-dir X cannot be used: it is a folder", and one at
//   data-origin.json was blamed on data-origin.json.tmp. Now the path in the way is named.
// - F8: a damaged data-origin.json was rewritten as {"compacted":true}, and the next batch got
//   seq 1 again. Now the start is refused naming the file, and nothing is written.
// - F9: a damaged compacted base was advised `venue-search import`. Now the live directory's
//   way out: restore it from a copy.
// Real `serve` processes (each killed after 60 s, so that a hang fails the test rather than
// holding it) over real live directories; the oracle is the paths the test made, the message
// texts written out by hand, and the files read back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { refusedServe } from './support/refused-serve.js';
import { loadLondonPubs } from '../search/support.js';

/** Past any start of the fixtures here (a few seconds); a start that hangs is killed then. */
const HANG_MS = 60_000;
const { tmp, data, serve } = refusedServe('live-dir-files', HANG_MS);
/** Real rows: pubs of the OSM London extract. */
const rows = loadLondonPubs().slice(0, 20);

const open = (dir: string) => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });

/** A closed live directory over the fixtures, compacted once after batch 1 (so its log is empty and data-origin.json holds lastSeq 1). */
async function compactedLiveDir(name: string): Promise<string> {
  const dir = join(tmp, name);
  const live = await open(dir);
  await live.upsert(rows.slice(0, 10));
  await live.compact();
  await live.close();
  return dir;
}

/** The last line `serve` wrote on stderr. */
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1);

describe('something other than a file where the live directory keeps one (audit 67a F1, F2)', () => {
  it('a pipe at changes.log, data-origin.json or lock: refused at once, naming it; the pipe and the directory are left as they were', async () => {
    const cases = [
      ['changes.log', 'the change log', '; if the change log held batches, put it back from a copy of the live directory (docs/updates.md, "A damaged change log")'],
      ['data-origin.json', 'the record of its origin and of its last compaction', '; write the record again as docs/updates.md says ("A damaged data-origin.json"), so that no batch\'s seq is used twice'],
      ['lock', 'the lock naming the service that holds it', ''],
    ] as const;
    for (const [name, holds, after] of cases) {
      const dir = await compactedLiveDir(`pipe-${name}`);
      rmSync(join(dir, name), { force: true });
      execFileSync('mkfifo', [join(dir, name)]);
      const refused = await serve(dir);
      expect(refused.code, `${name}: ${refused.stderr}`).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `venue-search: --live-dir ${dir} cannot be used: ${join(dir, name)} is a pipe, where the live directory keeps ${holds} (a file). It was left as it is: move it away, then start again${after}`,
      );
      // no lock left behind (a pipe at lock stays the pipe it was)
      expect(execFileSync('find', [dir, '-maxdepth', '1', '-type', 'p'], { encoding: 'utf8' }).trim()).toBe(join(dir, name));
      if (name !== 'lock') expect(() => readFileSync(join(dir, 'lock'))).toThrow(/ENOENT/);
    }
  }, 300_000);

  it('a folder at changes.log or data-origin.json names that path, not the live directory or data-origin.json.tmp', async () => {
    for (const [name, holds] of [
      ['changes.log', 'the change log'],
      ['data-origin.json', 'the record of its origin and of its last compaction'],
    ] as const) {
      const dir = await compactedLiveDir(`folder-${name}`);
      rmSync(join(dir, name));
      mkdirSync(join(dir, name));
      const refused = await serve(dir);
      expect(refused.code).toBe(1);
      expect(lastLine(refused.stderr)).toMatch(`venue-search: --live-dir ${dir} cannot be used: ${join(dir, name)} is a folder, where the live directory keeps ${holds} (a file). It was left as it is`);
      expect(refused.stderr).not.toContain('.tmp');
    }
  }, 300_000);

  it('a link to nothing at changes.log (a log moved to a volume not mounted) is refused, not read as an empty log', async () => {
    const dir = await compactedLiveDir('dangling-log');
    rmSync(join(dir, 'changes.log'));
    symlinkSync(join(tmp, 'unmounted', 'changes.log'), join(dir, 'changes.log'));
    const refused = await serve(dir);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.stderr)).toMatch(`venue-search: --live-dir ${dir} cannot be used: ${join(dir, 'changes.log')} is a link to nothing, where the live directory keeps the change log (a file).`);
  }, 120_000);
});

describe('a damaged data-origin.json (audit 67a F8)', () => {
  it('refuses the start naming it; the record is left as it was, so the next batch is not given a seq already used', async () => {
    const dir = await compactedLiveDir('origin-damaged');
    const record = join(dir, 'data-origin.json');
    // the record the compaction wrote: batch 1 folded into the base, the log empty
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ compacted: true, lastSeq: 1 });
    expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe('');
    writeFileSync(record, '{nope\n');
    const refused = await serve(dir);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.stderr)).toMatch(
      new RegExp(
        `^venue-search: --live-dir ${dir} cannot be used: ${record} cannot be read: it is not JSON \\(.+\\)\\. It records the seq of the last batch compacted into the base .* Nothing was changed: ` +
          'restore the live directory from a copy, or write the record again as docs/updates.md says \\("A damaged data-origin.json"\\)$',
      ),
    );
    expect(readFileSync(record, 'utf8')).toBe('{nope\n');
    // the library's open refuses it too, and writes nothing
    await expect(open(dir)).rejects.toMatchObject({ code: 'invalid_data', param: '--live-dir' });
    expect(readFileSync(record, 'utf8')).toBe('{nope\n');
    expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe('');
  }, 120_000);

  it('a field of the wrong kind is damage too; the record written as docs/updates.md says numbers the next batch after it', async () => {
    const dir = await compactedLiveDir('origin-field');
    const record = join(dir, 'data-origin.json');
    writeFileSync(record, '{"compacted":true,"lastSeq":"1"}\n');
    await expect(open(dir)).rejects.toThrow(`${record} cannot be read: its field lastSeq is "1".`);
    // the way out of docs/updates.md: the base is there and the log is empty, so lastSeq is the last seq acknowledged (1 here)
    writeFileSync(record, '{"compacted":true,"lastSeq":1}\n');
    const live = await open(dir);
    expect((await live.upsert(rows.slice(10, 11))).seq).toBe(2);
    await live.close();
  }, 120_000);
});

describe('a damaged compacted base (audit 67a F9)', () => {
  it('is not read as a venues file to import: the advice is the live directory\'s, restore it from a copy', async () => {
    const dir = await compactedLiveDir('base-garbage');
    const base = join(dir, 'base.snapshot');
    writeFileSync(base, 'hello\n');
    const refused = await serve(dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain('import');
    expect(lastLine(refused.stderr)).toBe(
      `venue-search: cannot load ${base} with the changes in ${dir}: ${base} is not a usable venue-search snapshot: it does not start with "VSNAPSHT"; ` +
        'a compaction writes the base whole, so this is damage since it was written (a disk, a copy, an edit), and the changes compacted into it are only there: ' +
        'restore the live directory from a copy taken while its service was stopped, then send the changes accepted since that copy again (docs/updates.md, "A damaged compacted base")',
    );
    expect(readFileSync(base, 'utf8')).toBe('hello\n');
  }, 120_000);

  it('a base cut short gets the same advice', async () => {
    const dir = await compactedLiveDir('base-cut');
    const base = join(dir, 'base.snapshot');
    const whole = readFileSync(base);
    writeFileSync(base, whole.subarray(0, whole.length >> 1));
    const refused = await serve(dir);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.stderr)).toMatch(`venue-search: cannot load ${base} with the changes in ${dir}: ${base} is not a usable venue-search snapshot: it is truncated`);
    expect(lastLine(refused.stderr)).toMatch(/; a compaction writes the base whole, .* \(docs\/updates\.md, "A damaged compacted base"\)$/);
  }, 120_000);
});
