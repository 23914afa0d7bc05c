/**
 * A live engine with durable changes, for a service (docs/updates.md):
 * - the base: the data file given at start, or `base.snapshot` in the live directory once a
 *   compaction wrote one;
 * - `changes.log` in the live directory: every accepted batch, appended and synced before
 *   it is acknowledged (change-log.ts), replayed over the base at start;
 * - compaction, when the engine holds more than `compactAfter` pending changes: a worker
 *   thread builds the current records' base and writes it as `base.snapshot.next`; then, on
 *   the main thread, it is renamed to `base.snapshot` (directory synced), the log is cut to
 *   the batches the new base does not hold, the snapshot is loaded (read asynchronously)
 *   and swapped in with those batches applied on top (Engine.adopt). Queries keep running
 *   on the old base until that swap, which is synchronous and short.
 * Writes (batches, compaction steps) run one at a time, in arrival order.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../engine.js';
import type { RemoveResult, UpsertResult } from '../live/live-changes.js';
import type { VenueRecord } from '../schema/venue.js';
import { restoreSnapshot } from '../snapshot/read-snapshot.js';
import { ChangeLog, syncDirectoryAsync, type Change, type LogEntry } from './change-log.js';
import type { CompactionJob, CompactionReply } from './compaction-worker.js';
import { siblingModule, startWorker } from './start-worker.js';

export interface LiveVenuesOptions {
  /** The venues file or snapshot the service was started with. */
  readonly dataPath: string;
  /** Where the change log and the compacted snapshots live (created if missing). */
  readonly dir: string;
  /** Pending changes that start a compaction (default 50,000; 0: only on request). */
  readonly compactAfter?: number;
  /** Loads an engine from a venues file or snapshot (the CLI's loadEngineFile). */
  readonly load: (path: string) => Promise<Engine>;
  /** Told of each finished compaction (logs, benchmarks). */
  readonly onCompaction?: (report: CompactionReport) => void;
}

export interface CompactionReport {
  /** Venues in the new base. */
  readonly venues: number;
  /** Batches folded in (log entries up to this seq). */
  readonly upToSeq: number;
  /** Worker time: load, replay, build, write (ms). */
  readonly buildMs: number;
  /** Whole compaction, start to swap (ms). */
  readonly totalMs: number;
  /** The synchronous swap on the main thread (restore + re-apply + adopt), ms. */
  readonly swapMs: number;
}

/** The last state each venue named by `changes` is left in: its record, or null (removed). */
export function foldChanges(changes: readonly Change[]): Map<string, VenueRecord | null> {
  const last = new Map<string, VenueRecord | null>();
  for (const c of changes) {
    if (c.op === 'upsert') for (const r of c.records) last.set(r.id, r);
    else for (const id of c.ids) last.set(id, null);
  }
  return last;
}

/** Applies logged batches to an engine, folded to the last state of each venue first (one upsert, one remove). */
export function applyLogged(engine: Engine, ...changes: Change[]): void {
  const last = foldChanges(changes);
  const upserts: VenueRecord[] = [];
  const removes: string[] = [];
  for (const [id, r] of last) {
    if (r === null) removes.push(id);
    else upserts.push(r);
  }
  if (upserts.length > 0) engine.upsert(upserts);
  if (removes.length > 0) engine.remove(removes);
}

export class LiveVenues {
  readonly engine: Engine;
  private readonly options: LiveVenuesOptions;
  private readonly log: ChangeLog;
  /** Log entries not in the current base file (all of them until the first compaction). */
  private sinceBase: LogEntry[];
  private queue: Promise<unknown> = Promise.resolve();
  private compacting: Promise<CompactionReport> | null = null;

  private constructor(engine: Engine, log: ChangeLog, entries: LogEntry[], options: LiveVenuesOptions) {
    this.engine = engine;
    this.log = log;
    this.sinceBase = entries;
    this.options = options;
  }

  static basePath(options: Pick<LiveVenuesOptions, 'dataPath' | 'dir'>): string {
    const compacted = join(options.dir, 'base.snapshot');
    return existsSync(compacted) ? compacted : options.dataPath;
  }

  /** Loads the base and replays the log over it. */
  static async open(options: LiveVenuesOptions): Promise<LiveVenues> {
    mkdirSync(options.dir, { recursive: true });
    const engine = await options.load(LiveVenues.basePath(options));
    const { log, entries } = await ChangeLog.open(join(options.dir, 'changes.log'));
    applyLogged(engine, ...entries.map((e) => e.change));
    return new LiveVenues(engine, log, entries, options);
  }

  /** Inserts or replaces venues: validated, logged and synced, then applied. Throws VenueSearchError for a bad batch (nothing logged). */
  upsert(records: readonly unknown[]): Promise<UpsertResult & { seq: number }> {
    return this.serial(async () => {
      this.engine.checkUpsert(records);
      const change: Change = { op: 'upsert', records: records as VenueRecord[] };
      const seq = await this.log.append(change);
      this.sinceBase.push({ seq, change });
      const result = this.engine.upsert(change.records);
      this.maybeCompact();
      return { ...result, seq };
    });
  }

  /** Removes venues; ids no venue has are reported and not logged. */
  remove(ids: readonly string[]): Promise<RemoveResult & { seq: number | null }> {
    return this.serial(async () => {
      const known = ids.filter((id) => this.engine.has(id));
      let seq: number | null = null;
      if (known.length > 0) {
        const change: Change = { op: 'remove', ids: known };
        seq = await this.log.append(change);
        this.sinceBase.push({ seq, change });
      }
      const result = this.engine.remove(ids);
      this.maybeCompact();
      return { ...result, seq };
    });
  }

  /** Starts a compaction unless one runs; resolves when it is swapped in. */
  compact(): Promise<CompactionReport> {
    this.compacting ??= this.runCompaction().finally(() => {
      this.compacting = null;
    });
    return this.compacting;
  }

  /** The compaction under way, if any. */
  get compaction(): Promise<CompactionReport> | null {
    return this.compacting;
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
    await this.compacting?.catch(() => {});
    await this.log.close();
  }

  private maybeCompact(): void {
    const after = this.options.compactAfter ?? 50_000;
    if (after > 0 && this.compacting === null && this.engine.pendingChanges >= after) {
      this.compact().catch(() => {
        // a failed compaction leaves the base and the log as they were; the next batch retries
      });
    }
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private async runCompaction(): Promise<CompactionReport> {
    const t0 = performance.now();
    const dir = this.options.dir;
    const job: CompactionJob = await this.serial(async () => ({
      basePath: LiveVenues.basePath(this.options),
      logPath: this.log.path,
      upToSeq: this.log.lastSeq,
      outPath: join(dir, 'base.snapshot.next'),
    }));
    const reply = await new Promise<CompactionReply>((resolve, reject) => {
      const worker = startWorker(siblingModule(import.meta.url, 'compaction-worker'), { ...job });
      worker.once('message', (m: CompactionReply) => resolve(m));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`compaction worker exited with ${code}`)));
    });
    if (!reply.ok) throw new Error(`compaction failed: ${reply.error}`);
    return this.serial(async () => {
      const target = join(dir, 'base.snapshot');
      await rename(job.outPath, target);
      await syncDirectoryAsync(dir);
      const after = this.sinceBase.filter((e) => e.seq > job.upToSeq);
      await this.log.keepAfter(job.upToSeq, after);
      this.sinceBase = after;
      const bytes = await readFile(target);
      const s0 = performance.now();
      const fresh = restoreSnapshot(bytes, target);
      if (after.length > 0) applyLogged(fresh, ...after.map((e) => e.change));
      this.engine.adopt(fresh);
      const swapMs = performance.now() - s0;
      const report: CompactionReport = { venues: this.engine.size, upToSeq: job.upToSeq, buildMs: reply.ms, totalMs: performance.now() - t0, swapMs };
      this.options.onCompaction?.(report);
      return report;
    });
  }
}
