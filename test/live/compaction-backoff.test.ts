/**
 * After a compaction that failed, the threshold (`compactAfter`) waits before it starts
 * another (audit 65d F4: every accepted batch started one again, each a fold and a base
 * written until the disk refused): 30 s after the first failure of a series, doubled after
 * each, at most 10 min, then at the first change after the wait; a success ends the series;
 * an explicit compaction tries at once.
 * The failure: a folder at `base.snapshot.next`, where the worker writes the new base (the
 * open fails, EISDIR, after the fold), as a full disk makes that write fail. The clock is
 * injected (LiveVenuesOptions.now). Oracle: the waits and times computed here by hand from
 * docs/updates.md, the tries counted by the failures reported and the compactions done.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NextAutomaticCompaction } from '../../src/changelog/compaction-backoff.js';
import type { CompactionFailedError } from '../../src/changelog/compactor.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { writeFixturesSnapshot } from '../support/fixtures-snapshot.js';

const tmp = mkdtempSync(join(tmpdir(), 'compaction-backoff-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

describe('automatic compaction after a failed one', () => {
  it('waits 30 s, then 60, 120 ... at most 600 s between tries; a request tries at once; a success starts the series again', async () => {
    const dir = join(tmp, 'live');
    let clock = T0;
    const failures: Array<{ error: CompactionFailedError; next: NextAutomaticCompaction | null; at: number }> = [];
    let compactions = 0;
    const live = await LiveVenues.open({
      dataPath: writeFixturesSnapshot(tmp),
      dir,
      compactAfter: 5,
      now: () => clock,
      load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine,
      onCompaction: () => compactions++,
      onCompactionFailed: (error, next) => failures.push({ error, next, at: clock }),
    });
    const blocker = join(dir, 'base.snapshot.next');
    mkdirSync(blocker);
    let n = 0;
    /** One batch of one new venue; then waits for the compaction it started, if any; whether it started one. */
    const change = async (): Promise<boolean> => {
      n++;
      await live.upsert([{ id: `backoff-${n}`, name: `Backoff Arms ${n}`, location: { type: 'Point', coordinates: [-0.12, 51.5] }, primaryGenre: 'pub' }]);
      const started = live.compaction;
      await started?.catch(() => {});
      return started !== null;
    };
    try {
      // 4 changes: under the threshold; the 5th starts the first try, which fails
      for (let k = 0; k < 4; k++) expect(await change()).toBe(false);
      expect(await change()).toBe(true);
      expect(failures.length).toBe(1);
      expect(failures[0]!.error.message).toMatch(/^compaction failed: .*EISDIR.*; the base and the change log are as they were$/);
      expect(failures[0]!.next).toEqual({
        at: T0 + 30_000,
        waitMs: 30_000,
        note: 'the next automatic compaction is not before 2026-11-30T12:00:30.000Z (in 30 s), at the first change after that; POST /admin/compact tries at once',
      });

      // within the wait: changes are taken, no compaction is started (before: one per change)
      for (let k = 0; k < 5; k++) expect(await change()).toBe(false);
      clock = T0 + 29_999;
      expect(await change()).toBe(false);
      expect(failures.length).toBe(1);

      // the wait over: the first change tries again; it fails and the wait doubles
      clock = T0 + 30_000;
      expect(await change()).toBe(true);
      expect(failures.length).toBe(2);
      expect(failures[1]!.next?.waitMs).toBe(60_000);
      expect(failures[1]!.next?.at).toBe(T0 + 90_000);

      // a request is not held back; its failure counts in the series
      clock = T0 + 31_000;
      await expect(live.compact()).rejects.toThrow(/EISDIR/);
      expect(failures.length).toBe(3);
      expect(failures[2]!.next?.at).toBe(T0 + 31_000 + 120_000);
      expect(await change()).toBe(false);

      // 240, 480, then 600 s (the longest), and 600 again
      for (const wait of [240_000, 480_000, 600_000, 600_000]) {
        clock = failures.at(-1)!.next!.at;
        expect(await change()).toBe(true);
        expect(failures.at(-1)!.next).toMatchObject({ at: clock + wait, waitMs: wait });
      }
      expect(failures.at(-1)!.next!.note).toContain(`(in 600 s)`);
      expect(failures.length).toBe(7);

      // room again: the first change after the wait compacts, and the series ends
      rmSync(blocker, { recursive: true });
      clock = failures.at(-1)!.next!.at;
      expect(await change()).toBe(true);
      expect(compactions).toBe(1);
      expect(live.engine.pendingChanges).toBe(0);
      mkdirSync(blocker);
      for (let k = 0; k < 4; k++) expect(await change()).toBe(false);
      expect(await change()).toBe(true);
      expect(failures.length).toBe(8);
      expect(failures[7]!.next).toMatchObject({ at: clock + 30_000, waitMs: 30_000 });
    } finally {
      await live.close();
    }
  }, 120_000);

  it('with compactAfter 0 (on request only) a failure names no automatic try', async () => {
    const dir = join(tmp, 'on-request');
    const nexts: Array<NextAutomaticCompaction | null> = [];
    const live = await LiveVenues.open({
      dataPath: writeFixturesSnapshot(tmp),
      dir,
      compactAfter: 0,
      now: () => T0,
      load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine,
      onCompactionFailed: (_error, next) => nexts.push(next),
    });
    mkdirSync(join(dir, 'base.snapshot.next'));
    try {
      await live.upsert([{ id: 'on-request-1', name: 'On Request', location: { type: 'Point', coordinates: [-0.12, 51.5] }, primaryGenre: 'pub' }]);
      await expect(live.compact()).rejects.toThrow(/EISDIR/);
      expect(nexts).toEqual([null]);
    } finally {
      await live.close();
    }
  }, 60_000);
});
