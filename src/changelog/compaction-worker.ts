/**
 * Worker thread of a compaction (live-venues.ts): builds the base of the current records
 * off the main thread and writes it as a snapshot. Loads the current base file, replays the
 * change log up to `upToSeq`, writes the snapshot to `outPath` (synced to disk), and posts
 * `{ok: true, venues, ms}` or `{ok: false, error}`.
 */
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { loadEngineFile } from '../cli/load-engine.js';
import { writeSnapshot } from '../snapshot/write-snapshot.js';
import { readLog } from './change-log.js';
import { createEngine } from '../engine.js';
import type { VenueRecord } from '../schema/venue.js';
import { foldChanges } from './live-venues.js';

export interface CompactionJob {
  readonly basePath: string;
  readonly logPath: string;
  readonly upToSeq: number;
  readonly outPath: string;
}

export type CompactionReply = { ok: true; venues: number; ms: number } | { ok: false; error: string };

async function run(job: CompactionJob): Promise<CompactionReply> {
  const t0 = performance.now();
  const { engine } = await loadEngineFile(job.basePath, (message) => {
    throw new Error(message);
  });
  // The current records straight from the base and the folded log (validated when they
  // were accepted), built once: no live layer in between.
  const last = foldChanges(readLog(job.logPath).entries.filter((e) => e.seq <= job.upToSeq).map((e) => e.change));
  const records: VenueRecord[] = [];
  const store = engine.store;
  for (let i = 0; i < store.size; i++) if (!last.has(store.id(i))) records.push(store.record(i));
  for (const r of last.values()) if (r !== null) records.push(r);
  const built = createEngine(records, { validate: false });
  writeSnapshot(built, job.outPath);
  const fd = openSync(job.outPath, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { ok: true, venues: built.size, ms: performance.now() - t0 };
}

run(workerData as CompactionJob).then(
  (reply) => parentPort!.postMessage(reply),
  (err: unknown) => parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies CompactionReply),
);
