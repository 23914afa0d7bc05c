/**
 * The compaction worker's reading of the change log (src/changelog/log-follower.ts): entries
 * applied once each, in order, never past the seq asked for, a line being written left for
 * later, the log's replacement at a compaction followed. Then the whole path: a live service
 * compacting again and again while batches stream in, its worker applying each batch once
 * logged, every new base compared with an engine built from scratch on the expected records.
 */
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { logLine, type LogEntry } from '../../src/changelog/change-log.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { LogFollower } from '../../src/changelog/log-follower.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { FIXTURES_PATH, loadFixtureVenues } from '../search/support.js';
import { ChangeStream, seeded } from './change-stream.js';
import { compareWithScratch } from './oracle-compare.js';

const tmp = mkdtempSync(join(tmpdir(), 'log-follower-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let files = 0;
/** A fresh log path in its own directory. */
function logPath(): string {
  return join(tmp, `changes-${files++}.log`);
}

const entry = (seq: number): LogEntry => ({ seq, change: { op: 'remove', ids: [`venue-${seq}`] } });
const lines = (...seqs: number[]): string => seqs.map((s) => logLine(entry(s))).join('');

/** A follower over `path` that records the seqs it applies. */
function follow(path: string): { follower: LogFollower; applied: number[]; apply: (e: LogEntry) => void } {
  const applied: number[] = [];
  return { follower: new LogFollower(path), applied, apply: (e) => applied.push(e.seq) };
}

describe('LogFollower', () => {
  it('applies the entries up to the seq asked for, in order, each once, and none past it', () => {
    const path = logPath();
    writeFileSync(path, lines(1, 2, 3, 4, 5));
    const { follower, applied, apply } = follow(path);
    expect(follower.catchUp(3, apply)).toBe(3);
    expect(applied).toEqual([1, 2, 3]);
    expect(follower.catchUp(3, apply)).toBe(0);
    expect(follower.catchUp(5, apply)).toBe(2);
    expect(applied).toEqual([1, 2, 3, 4, 5]);
    expect(follower.appliedSeq).toBe(5);
  });

  it('leaves a line being written for a later catch-up', () => {
    const path = logPath();
    const third = logLine(entry(3));
    writeFileSync(path, lines(1, 2) + third.slice(0, 20));
    const { follower, applied, apply } = follow(path);
    expect(() => follower.catchUp(3, apply)).toThrow(`change log ${path}: entry 3 was logged, but the log holds entries up to 2 only`);
    expect(applied).toEqual([1, 2]);
    appendFileSync(path, third.slice(20));
    appendFileSync(path, lines(4));
    expect(follower.catchUp(4, apply)).toBe(2);
    expect(applied).toEqual([1, 2, 3, 4]);
  });

  it('follows the log replaced at a compaction: the new file from its start, the entries applied skipped', () => {
    for (const told of [true, false]) {
      const path = logPath();
      writeFileSync(path, lines(1, 2, 3, 4));
      const { follower, applied, apply } = follow(path);
      follower.catchUp(4, apply);
      // As ChangeLog.keepFrom leaves it: the entries after the new base, then more appended.
      writeFileSync(`${path}.next`, lines(3, 4, 5));
      renameSync(`${path}.next`, path);
      appendFileSync(path, lines(6));
      if (told) follower.replaced();
      expect(follower.catchUp(6, apply)).toBe(2);
      expect(applied).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });

  it('starts at the first entry of a log that begins after seq 1, and refuses a gap, naming it', () => {
    const path = logPath();
    writeFileSync(path, lines(7, 8, 10));
    const { follower, applied, apply } = follow(path);
    expect(() => follower.catchUp(10, apply)).toThrow(`change log ${path}: entry 10 follows entry 8, the entries between are missing`);
    expect(applied).toEqual([7, 8]);
    expect(follower.appliedSeq).toBe(8);
  });

  it('does not count an entry whose apply throws, and applies it at the next catch-up', () => {
    const path = logPath();
    writeFileSync(path, lines(1, 2, 3));
    const { follower, applied, apply } = follow(path);
    let refuse = true;
    const flaky = (e: LogEntry) => {
      if (e.seq === 2 && refuse) throw new Error('not now');
      apply(e);
    };
    expect(() => follower.catchUp(3, flaky)).toThrow('not now');
    expect(follower.appliedSeq).toBe(1);
    refuse = false;
    expect(follower.catchUp(3, flaky)).toBe(2);
    expect(applied).toEqual([1, 2, 3]);
  });

  it('reads no log as empty', () => {
    const { follower, apply } = follow(logPath());
    expect(follower.catchUp(0, apply)).toBe(0);
    expect(() => follower.catchUp(1, apply)).toThrow('holds entries up to 0 only');
  });
});

const STALE_WORDS = ['tapas', 'ramen', 'gastropub', 'taproom', 'creperie', 'buzzing', 'hidden_gem', 'industrial', 'serves_brunch'];

describe('the compaction worker applying batches once logged', () => {
  it('compacts again and again as batches stream in, some during a compaction; each new base, and a restart, equal an engine built from scratch', async () => {
    const dir = join(tmp, 'live');
    const load = async (p: string) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine;
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir, compactAfter: 0, load });
    const stream = new ChangeStream(loadFixtureVenues(), 31);
    const rnd = seeded(3131);
    const stale = () => ({ ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
    const send = async (): Promise<void> => {
      const { change } = stream.batch(1 + Math.floor(rnd() ** 2 * 300), 0);
      if (change.kind === 'upsert') await live.upsert(change.records);
      else await live.remove(change.ids);
      stream.apply(change);
    };
    let seq = 0;
    for (let round = 0; round < 5; round++) {
      for (let b = 0; b < 3 + round; b++) await send();
      const compaction = live.compact();
      // Batches logged while the worker folds: not in the new base, applied over it.
      const during = round % 2 === 0 ? 2 : 0;
      for (let b = 0; b < during; b++) await send();
      const report = await compaction;
      expect(report.upToSeq).toBeGreaterThan(seq);
      // The venues of the base written (which may hold batches logged after upToSeq that the
      // worker had applied already), not the engine's after the batches re-applied over it.
      expect(report.venues).toBe(readSnapshot(join(dir, 'base.snapshot')).size);
      seq = report.upToSeq;
      compareWithScratch(live.engine, [...stream.expected.values()], 700 + round, stale());
    }
    await live.close();
    const again = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir, compactAfter: 0, load });
    compareWithScratch(again.engine, [...stream.expected.values()], 799, stale());
    // A worker started over the last base and a log holding batches after it compacts them too.
    for (let b = 0; b < 3; b++) {
      const { change } = stream.batch(50, 0);
      if (change.kind === 'upsert') await again.upsert(change.records);
      else await again.remove(change.ids);
      stream.apply(change);
    }
    await again.compact();
    compareWithScratch(again.engine, [...stream.expected.values()], 800, stale());
    // A log replayed past the threshold at open (a service stopped before compacting) is compacted at once.
    for (let b = 0; b < 2; b++) {
      const { change } = stream.batch(40, 0);
      if (change.kind === 'upsert') await again.upsert(change.records);
      else await again.remove(change.ids);
      stream.apply(change);
    }
    const pending = again.engine.pendingChanges;
    await again.close();
    const over = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir, compactAfter: pending, load });
    expect(over.compaction).not.toBeNull();
    expect((await over.compaction)!.venues).toBe(stream.expected.size);
    expect(over.engine.pendingChanges).toBe(0);
    compareWithScratch(over.engine, [...stream.expected.values()], 801, stale());
    await over.close();
  }, 300_000);
});
