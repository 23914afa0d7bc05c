/**
 * The snapshot half of the "load + build" workload (issue 2): the engine built from the
 * NDJSON is written as a snapshot (timed: the one-off cost), then loaded the way a restarted
 * service loads it: in a fresh process (the cold-start child), timed from spawn to the first
 * answer, with the child's own load time. Loading inside this process would also time a
 * full garbage collection of the bench's multi-GB heap, which a restart never has.
 * Untimed check: the child's answers to 20 POINT and 20 PATH searches have the same digest
 * as this process's engine built from the records. Then the same file served by
 * `venue-search serve` (bench/lib/serve-start.ts): spawn to a find and a search answered
 * over HTTP, the figure of issue 16's start-up goal.
 */
import { rmSync, statSync } from 'node:fs';
import type { Engine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { spawnTimed } from '../workloads/cold-start.js';
import { median, timeOnce } from './measure.js';
import { childScript } from './paths.js';
import { serveStartFigures } from './serve-start.js';
import { answersDigest, checkBodies } from './snapshot-check.js';

export interface SnapshotFigures {
  readonly writeMs: number;
  /** Medians over the runs, ms. */
  readonly loadMs: number;
  readonly loadAndFirstSearchMs: number;
  readonly spawnToAnswerMs: number;
  /** From the child's process start (its performance.now(), node's own start included) to a search and a find answered. */
  readonly startToSearchAndFindMs: number;
  /** `venue-search serve --data <snapshot> --workers 1`: spawn -> a find and a search answered over HTTP (bench/lib/serve-start.ts). */
  readonly serveSpawnToFindAndSearchMs: number;
  /** The same with huge pages (bench/lib/huge-pages.ts); NaN where glibc does not honour them. */
  readonly serveWithHugePagesSpawnToFindAndSearchMs: number;
  /** The serve child's own start-up phases, ms since its process started (medians). */
  readonly servePhases: Readonly<Record<string, number>>;
  readonly fileMegabytes: number;
  readonly checkedSearches: number;
  readonly runs: number;
}

export async function snapshotFigures(engine: Engine, path: string, runs: number): Promise<SnapshotFigures> {
  const write = timeOnce(() => writeSnapshot(engine, path));
  const expected = answersDigest(engine);
  const load: number[] = [];
  const first: number[] = [];
  const wall: number[] = [];
  const both: number[] = [];
  for (let k = 0; k < runs; k++) {
    const { ms, answer } = await spawnTimed([...childScript('cold-start-child'), path, '--check']);
    if (answer.digest !== expected) throw new Error('the snapshot engine answers the check searches differently from the engine built from the records');
    load.push(answer.read! - answer.imported);
    first.push(answer.answered! - answer.imported);
    wall.push(ms);
    both.push(answer.found!);
  }
  const fileMegabytes = statSync(path).size / 1e6;
  const serve = await serveStartFigures(path, runs);
  rmSync(path, { force: true });
  return {
    writeMs: write.ms,
    loadMs: median(load),
    loadAndFirstSearchMs: median(first),
    spawnToAnswerMs: median(wall),
    startToSearchAndFindMs: median(both),
    serveSpawnToFindAndSearchMs: median(serve.spawnToFindAndSearchMs),
    serveWithHugePagesSpawnToFindAndSearchMs: serve.hugePagesSpawnToFindAndSearchMs.length > 0 ? median(serve.hugePagesSpawnToFindAndSearchMs) : Number.NaN,
    servePhases: serve.phases,
    fileMegabytes,
    checkedSearches: checkBodies().length,
    runs,
  };
}
