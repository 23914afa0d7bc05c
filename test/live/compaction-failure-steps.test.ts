/**
 * audit 66a F1: a compaction that fails after the new base was renamed in says which steps
 * took effect and that nothing is lost (before: "the base and the change log are as they
 * were" at every step, though the base had been replaced and data-origin.json's lastSeq
 * advanced). Each step is made to fail for real: a folder where it writes (the cut's
 * `changes.log.next`, the record's `data-origin.json.tmp`); the swap by an adopt that throws.
 * Oracle: the files read back from disk (the base's venues by id against the real rows sent,
 * data-origin.json's lastSeq, the log's seqs) and a restart holding every venue sent.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { readLog } from '../../src/changelog/change-log.js';
import { CompactionFailedError } from '../../src/changelog/compactor.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { buildApp } from '../../src/http/app.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadLondonPubs } from '../search/support.js';
import { stderrOf } from './support/stderr-capture.js';

const tmp = mkdtempSync(join(tmpdir(), 'compaction-failure-steps-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Real rows: the first 300 pubs of the OSM London extract; the data file holds 0-99, batch 1 100-199, batch 2 200-299. */
const rows = loadLondonPubs().slice(0, 300);
const ids = (from: number, to: number) => rows.slice(from, to).map((r) => r.id);
const TOKEN = 'operator-token-0123456789abcdef';

/** A live directory `name` over a snapshot of rows 0-99, holding batch 1 (rows 100-199), logged as seq 1. */
async function liveWithOneBatch(name: string) {
  const data = join(tmp, `${name}.vsnap`);
  writeSnapshot(createEngine(rows.slice(0, 100)), data);
  const dir = join(tmp, name);
  const open = () => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
  const live = await open();
  expect((await live.upsert(rows.slice(100, 200))).seq).toBe(1);
  return { live, dir, open, base: join(dir, 'base.snapshot'), origin: join(dir, 'data-origin.json'), log: join(dir, 'changes.log') };
}

/** The venue ids of the snapshot at `path`, read back from disk, sorted. */
const snapshotIds = (path: string) => [...readSnapshot(path).currentRecords()].map((r) => r.id).sort();
const lastSeqOf = (origin: string) => (JSON.parse(readFileSync(origin, 'utf8')) as { lastSeq?: number }).lastSeq;
const loggedSeqs = (log: string) => readLog(log).entries.map((e) => e.seq);
/** What the message says of nothing lost while the log still holds the base's batches. */
const replaySafe = (log: string) => `nothing is lost: ${log} still holds the batches the new base holds, and replaying them over it (at a start) changes nothing; the next compaction cuts them`;

describe('a compaction that fails after the new base was renamed in (audit 66a F1)', () => {
  it('cutting the log fails (a folder at changes.log.next): 503 saying the base was replaced and seq 1 recorded, the log not cut; a restart holds every venue', async () => {
    expect(rows.length).toBe(300);
    const { live, dir, open, base, origin, log } = await liveWithOneBatch('cut');
    const app = await buildApp({ engine: live.engine, accounts: new SqliteAccountsStore(':memory:'), admin: { live, token: TOKEN } });
    const blocker = join(dir, 'changes.log.next');
    mkdirSync(blocker);
    let reopened: LiveVenues | undefined;
    try {
      const answer = await app.inject({ method: 'POST', url: '/admin/compact', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.statusCode).toBe(503);
      const message = (answer.json() as { message: string }).message;
      expect(message).toBe(
        `compaction failed: EISDIR: illegal operation on a directory, open '${blocker}'; ` +
          `done: the new base, holding the batches up to 1, replaced ${base}; ${origin} records seq 1; not done: cutting ${log}; ${replaySafe(log)}`,
      );
      // on disk: the base replaced by one holding rows 0-199, lastSeq 1, the log still holding seq 1
      expect(snapshotIds(base)).toEqual(ids(0, 200).sort());
      expect(lastSeqOf(origin)).toBe(1);
      expect(loggedSeqs(log)).toEqual([1]);
      // the log goes on taking batches
      expect((await live.upsert(rows.slice(200, 300))).seq).toBe(2);
      expect(loggedSeqs(log)).toEqual([1, 2]);
      await app.close();
      await live.close();
      // the start removes the empty folder; the replay of seq 1 over a base holding it changes nothing
      const { value, said } = await stderrOf(open);
      reopened = value;
      expect(existsSync(blocker)).toBe(false);
      expect(said).toEqual([`venue-search: removed the empty folder ${blocker}, where a compaction writes the change log's copy (every compaction would have failed on it)\n`]);
      expect(reopened.engine.size).toBe(300);
      expect(ids(0, 300).every((id) => reopened!.engine.has(id))).toBe(true);
      await reopened.compact();
      expect(snapshotIds(base)).toEqual(ids(0, 300).sort());
      expect(loggedSeqs(log)).toEqual([]);
    } finally {
      await app.close();
      await live.close();
      await reopened?.close();
    }
  }, 60_000);

  it('recording seq 1 fails (a folder at data-origin.json.tmp): says the base was replaced, the seq not recorded nor the log cut', async () => {
    const { live, open, base, origin, log } = await liveWithOneBatch('record');
    const blocker = `${origin}.tmp`;
    mkdirSync(blocker);
    let reopened: LiveVenues | undefined;
    try {
      const failed = await live.compact().catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(CompactionFailedError);
      expect((failed as Error).message).toBe(
        `compaction failed: EISDIR: illegal operation on a directory, open '${blocker}'; ` +
          `done: the new base, holding the batches up to 1, replaced ${base}; not done: recording seq 1 in ${origin}, cutting ${log}; ${replaySafe(log)}`,
      );
      expect(snapshotIds(base)).toEqual(ids(0, 200).sort());
      expect(lastSeqOf(origin)).toBeUndefined();
      expect(loggedSeqs(log)).toEqual([1]);
      await live.close();
      rmdirSync(blocker);
      // the start loads the new base (it is there) and replays seq 1 over it; the next seq follows it
      reopened = await open();
      expect(reopened.engine.size).toBe(200);
      expect(ids(0, 200).every((id) => reopened!.engine.has(id))).toBe(true);
      expect((await reopened.upsert(rows.slice(200, 300))).seq).toBe(2);
    } finally {
      await live.close();
      await reopened?.close();
    }
  }, 60_000);

  it('the swap fails (an adopt that throws): says the base was replaced, seq 1 recorded and the log cut; the service keeps its venues', async () => {
    const { live, base, origin, log } = await liveWithOneBatch('swap');
    const engine = live.engine as unknown as { adopt: (...a: unknown[]) => void };
    engine.adopt = () => {
      throw new Error('adopt refused (injected)');
    };
    try {
      const failed = await live.compact().catch((e: unknown) => e);
      expect((failed as Error).message).toBe(
        `compaction failed: adopt refused (injected); done: the new base, holding the batches up to 1, replaced ${base}; ${origin} records seq 1; ${log} was cut to the batches after 1; ` +
          'not done: swapping the new base in, so the service answers from the venues it held (the same ones) until the next compaction; nothing is lost: a start loads the new base and the batches after 1',
      );
      expect(snapshotIds(base)).toEqual(ids(0, 200).sort());
      expect(lastSeqOf(origin)).toBe(1);
      expect(loggedSeqs(log)).toEqual([]);
      expect(live.engine.size).toBe(200);
      expect(ids(0, 200).every((id) => live.engine.has(id))).toBe(true);
    } finally {
      await live.close();
    }
  }, 60_000);

  it('writing the new base fails (a folder at base.snapshot.next): the base and the log are as they were, and it says so', async () => {
    const { live, dir, log } = await liveWithOneBatch('build');
    mkdirSync(join(dir, 'base.snapshot.next'));
    try {
      await expect(live.compact()).rejects.toThrow(/^compaction failed: .*EISDIR.*; the base and the change log are as they were$/);
      expect(existsSync(join(dir, 'base.snapshot'))).toBe(false);
      expect(loggedSeqs(log)).toEqual([1]);
    } finally {
      await live.close();
    }
  }, 60_000);
});
