// audit 65d F2: a partial base.snapshot.next (and changes.log.next) left by a compaction that
// was killed part-way is removed at the next start, saying so; nothing acknowledged is lost.
// audit 67e F1: what it says is true of the step the compaction was killed in.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';
import { closedLiveDir as closedLiveDirOf } from './support/closed-live-dir.js';
import { stderrOf } from './support/stderr-capture.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-leftovers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 300 pubs of the OSM London extract, as venue records. */
const rows = loadLondonPubs().slice(0, 300);

describe('leftovers of a compaction stopped part-way (audit 65d F2)', () => {
  it('a new base being written (step 1): removed at start, saying the base and the log are as they were; they are replayed as they were', async () => {
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
    // what a compaction killed while writing its new base leaves: the first part of it
    const base = join(dir, 'base.snapshot');
    const partial = readFileSync(base).subarray(0, statSync(base).size >> 1);
    writeFileSync(`${base}.next`, partial);
    const { value, said } = await stderrOf(open);
    live = value;
    try {
      expect(existsSync(`${base}.next`)).toBe(false);
      expect(said).toEqual([
        `venue-search: removed ${base}.next (${partial.length} bytes), left by a compaction that was stopped before it finished (killed or crashed); the base and the change log are as they were\n`,
      ]);
      expect(live.engine.size).toBe(300);
      expect(rows.every((r) => live.engine.has(r.id))).toBe(true);
    } finally {
      await live.close();
    }
  }, 60_000);

  // audit 67e F1: the log's copy is written in step 3, after step 2 replaced the base and
  // recorded its seq; the start said "the base and the change log are as they were" there too.
  it('the log being cut (step 3): removed at start, saying the new base had replaced the base and the log still holds its batches; nothing is lost, the next compaction cuts them', async () => {
    const data = join(tmp, 'step3.vsnap');
    writeSnapshot(createEngine(rows.slice(0, 100)), data);
    const dir = join(tmp, 'live-step3');
    const open = () => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
    const log = join(dir, 'changes.log');
    let live = await open();
    await live.upsert(rows.slice(100, 150));
    await live.upsert(rows.slice(150, 200));
    await live.remove(rows.slice(0, 20).map((r) => r.id));
    const uncut = readFileSync(log); // seqs 1 to 3, as step 3 finds it
    await live.compact(); // steps 1 to 3: the new base (up to seq 3), lastSeq 3, the log cut
    await live.close();
    // what a kill while step 3 copied the log's tail leaves: the log not cut yet, a part of its copy
    // (steps 1 and 2 done: the new base renamed onto base.snapshot, data-origin.json records seq 3)
    writeFileSync(log, uncut);
    writeFileSync(join(dir, 'changes.log.next'), uncut.subarray(0, 100));
    expect(JSON.parse(readFileSync(join(dir, 'data-origin.json'), 'utf8'))).toMatchObject({ lastSeq: 3 });
    const { value, said } = await stderrOf(open);
    live = value;
    // the oracle: the rows acknowledged, by hand
    const expected = rows.slice(20, 200).map((r) => r.id).sort();
    try {
      expect(existsSync(join(dir, 'changes.log.next'))).toBe(false);
      expect(said).toEqual([
        `venue-search: removed ${join(dir, 'changes.log.next')} (100 bytes), left by a compaction that was stopped before it finished (killed or crashed); ` +
          `the new base, holding the batches up to seq 3 (the seq ${join(dir, 'data-origin.json')} records), had replaced ${join(dir, 'base.snapshot')}; ` +
          `${log} was not cut yet and still holds those batches: nothing is lost, replaying them over the new base changes nothing, and the next compaction cuts them\n`,
      ]);
      // true: the base on disk holds the batches up to 3, the log still holds them, the service every acknowledged change
      expect([...readSnapshot(join(dir, 'base.snapshot')).currentRecords()].map((r) => r.id).sort()).toEqual(expected);
      expect(readFileSync(log).equals(uncut)).toBe(true);
      expect([...live.engine.currentRecords()].map((r) => r.id).sort()).toEqual(expected);
      // the next compaction cuts them
      expect(await live.compact()).toMatchObject({ upToSeq: 3, venues: expected.length });
      expect(readFileSync(log, 'utf8')).toBe('');
      expect([...readSnapshot(join(dir, 'base.snapshot')).currentRecords()].map((r) => r.id).sort()).toEqual(expected);
    } finally {
      await live.close();
    }
  }, 60_000);
});

// audit 66a F1: a folder or a link where a compaction writes (a compaction never leaves one)
// made every compaction fail until removed by hand. An empty folder is removed at start; any
// other thing there is left as it is and the start is refused, naming it.
describe('other things at the paths a compaction writes (audit 66a F1)', () => {
  const closedLiveDir = (name: string) => closedLiveDirOf(tmp, rows, name);

  it('empty folders at base.snapshot.next and changes.log.next: removed at start, one line each; a compaction then succeeds', async () => {
    const { dir, open } = await closedLiveDir('empty-folders');
    const nextBase = join(dir, 'base.snapshot.next');
    const nextLog = join(dir, 'changes.log.next');
    mkdirSync(nextBase);
    mkdirSync(nextLog);
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    let live: LiveVenues;
    try {
      live = await open();
    } finally {
      process.stderr.write = write;
    }
    try {
      expect(said).toEqual([
        `venue-search: removed the empty folder ${nextBase}, where a compaction writes the new base (every compaction would have failed on it)\n`,
        `venue-search: removed the empty folder ${nextLog}, where a compaction writes the change log's copy (every compaction would have failed on it)\n`,
      ]);
      expect(existsSync(nextBase) || existsSync(nextLog)).toBe(false);
      await live.compact();
      expect([...readSnapshot(join(dir, 'base.snapshot')).currentRecords()].map((r) => r.id).sort()).toEqual(rows.slice(0, 200).map((r) => r.id).sort());
    } finally {
      await live.close();
    }
  }, 60_000);

  it('a folder with a file in it at changes.log.next, a link at base.snapshot.next: the start is refused naming it; both left as they were', async () => {
    const { dir, open } = await closedLiveDir('refused');
    const nextLog = join(dir, 'changes.log.next');
    mkdirSync(nextLog);
    writeFileSync(join(nextLog, 'notes.txt'), 'an operator file\n');
    await expect(open()).rejects.toThrow(
      `${nextLog} is a folder with files in it, where a compaction writes the change log's copy: every compaction would fail on it, or write through it. ` +
        'It is not something a compaction leaves, so it was left as it is: move it away, then start again',
    );
    expect(readFileSync(join(nextLog, 'notes.txt'), 'utf8')).toBe('an operator file\n');
    rmSync(nextLog, { recursive: true });
    const nextBase = join(dir, 'base.snapshot.next');
    const elsewhere = join(tmp, 'elsewhere.bin');
    writeFileSync(elsewhere, 'not to be overwritten\n');
    symlinkSync(elsewhere, nextBase);
    // the lock was released by the refusal: this start gets as far as the link
    await expect(open()).rejects.toThrow(`${nextBase} is a symbolic link, where a compaction writes the new base: every compaction would fail on it, or write through it.`);
    expect(lstatSync(nextBase).isSymbolicLink()).toBe(true);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not to be overwritten\n');
    rmSync(nextBase);
    const live = await open();
    try {
      expect(live.engine.size).toBe(200);
    } finally {
      await live.close();
    }
  }, 60_000);
});
