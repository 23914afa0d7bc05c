/**
 * A live engine with durable changes, for a service (docs/updates.md):
 * - the base: the data file given at start, or `base.snapshot` in the live directory once a
 *   compaction wrote one;
 * - `changes.log` in the live directory: every accepted batch, appended and synced before
 *   it is acknowledged (change-log.ts), replayed over the base at start;
 * - compaction, when the engine holds more than `compactAfter` pending changes: the
 *   compaction worker (compactor.ts; it loaded the base into an engine of its own at open,
 *   and applies each batch to it once logged, in the background) folds the batches into the
 *   new base (Engine.compact), writes it as
 *   `base.snapshot.next` (synced), then hands its bytes, kd-tree and search columns over
 *   (shared, not copied); on the main thread the
 *   file is renamed to `base.snapshot` (directory synced), the log is cut to the batches the
 *   new base does not hold, and the new base is restored over the handed-over bytes and
 *   swapped in with those batches applied on top (Engine.adopt), in steps of one event-loop
 *   turn each. Queries keep running on the old base until the adopt.
 * Writes (batches, compaction steps) run one at a time, in arrival order. One process at a
 * time holds the live directory (live-dir-lock.ts): a second service on it is refused.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Engine } from '../engine.js';
import { VenueSearchError } from '../errors.js';
import type { RemoveResult, UpsertResult } from '../live/live-changes.js';
import type { VenueRecord } from '../schema/venue.js';
import { restoreSnapshotInSteps } from '../snapshot/read-snapshot.js';
import { snapshotTarget } from '../snapshot/snapshot-target.js';
import { ChangeLog, firstLoggedSeq, syncDirectoryAsync, type Change } from './change-log.js';
import type { CompactionJob } from './compaction-worker.js';
import { removeCompactionLeftovers } from './compaction-leftovers.js';
import { CompactionBackoff, type NextAutomaticCompaction } from './compaction-backoff.js';
import { CompactionFailedError, Compactor, type CompactionProgress, type CompactionResult, type CompactorStart } from './compactor.js';
import { LiveDirLock } from './live-dir-lock.js';
import { checkLiveDirFiles } from './live-dir-files.js';
import { checkCompactedDirFiles, entryExists } from './compacted-dir-files.js';
import { applyLogged } from './fold-changes.js';
import { checkRecordBeforeLog, DATA_ORIGIN_FILE, dataFingerprint, recordCompactedBase, recordCompaction, recordDataOrigin, recordedCompactedBase, recordedDataOrigin, recordedLastSeq } from './data-origin.js';

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
  /**
   * Told of each compaction that failed, started on request or by the threshold (logs), with
   * when the threshold may start the next (compaction-backoff.ts; null when `compactAfter` is 0).
   */
  readonly onCompactionFailed?: (error: CompactionFailedError, next: NextAutomaticCompaction | null) => void;
  /** The clock of the wait after a failed compaction (ms since the epoch; default Date.now). */
  readonly now?: () => number;
}

export interface CompactionReport {
  /** Venues in the new base. */
  readonly venues: number;
  /** Batches folded in (log entries up to this seq). */
  readonly upToSeq: number;
  /** Worker time of the job: apply the batches it has not applied yet (usually none), fold, write, hand over (ms). */
  readonly buildMs: number;
  /** Whole compaction, start to swap (ms). */
  readonly totalMs: number;
  /** The swap on the main thread (restore, search, re-apply, adopt; one event-loop turn each), ms in all. */
  readonly swapMs: number;
  /** Where the time went: the worker's phases and the main thread's steps, ms. */
  readonly phases: Readonly<Record<string, number>>;
}

/**
 * Creates `dir` and any missing parent. A recursive mkdir reports ENOENT for a parent on a
 * read-only file system; the folder's own mkdir then tells the real cause (EROFS, EACCES),
 * so that the message names it (audit 59e: "its folder does not exist" on a read-only mount).
 */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync(dirname(dir))) throw err;
    mkdirSync(dir);
  }
}


/**
 * Records --data as the live directory's origin, after checking it is the file the directory
 * started from when the change log holds batches: those were made over that file, and
 * replaying them over another (a new export shipped to the machine) could undo or repeat its
 * own changes, silently. Such a start is refused, naming the ways out; the recorded origin is
 * never overwritten then. With an empty log there is nothing to replay: the new file is
 * recorded.
 */
function checkAndRecordDataOrigin(dir: string, dataPath: string): void {
  const fingerprint = dataFingerprint(dataPath);
  const recorded = recordedDataOrigin(dir);
  if (recorded === fingerprint) return;
  const log = join(dir, 'changes.log');
  if (recorded !== undefined && existsSync(log) && statSync(log).size > 0) {
    throw new VenueSearchError(
      'invalid_data',
      `--data ${dataPath} is not the file ${dir} started from (its fingerprint is in ${join(dir, DATA_ORIGIN_FILE)}), and ${log} holds changes made over that file: ` +
        `start with that file, or with a fresh --live-dir to serve ${dataPath} without those changes; if ${dataPath} holds the same venues (a snapshot of that file), remove ${join(dir, DATA_ORIGIN_FILE)} to record it instead`,
      { param: '--data', value: dataPath },
    );
  }
  recordDataOrigin(dir, fingerprint);
}

export class LiveVenues {
  readonly engine: Engine;
  private readonly options: LiveVenuesOptions;
  private readonly log: ChangeLog;
  private queue: Promise<unknown> = Promise.resolve();
  private compacting: Promise<CompactionReport> | null = null;
  /** Set by {@link close}: the threshold starts no compaction from then on. */
  private closing = false;
  private readonly compactor: Compactor;
  /** Holds the threshold's compactions back after a failed one. */
  private readonly backoff = new CompactionBackoff();

  private constructor(
    engine: Engine,
    log: ChangeLog,
    options: LiveVenuesOptions,
    compactor: Compactor,
    /** This process's hold on the live directory (one service per directory). */
    private readonly lock: LiveDirLock,
    /** What open found: the log's batches replayed over the base, and the bytes of a torn last line cut off (0: none). */
    readonly opened: { readonly batches: number; readonly tornBytes: number; readonly tornWhole?: boolean } = { batches: 0, tornBytes: 0 },
  ) {
    this.engine = engine;
    this.log = log;
    this.compactor = compactor;
    this.options = options;
  }

  /**
   * The base to load: the live directory's compacted base when there is an entry at its path
   * (a dangling link included: loading it names it missing) or a compaction happened there
   * (then a missing base is named, not replaced by --data: the changes folded into it left
   * the change log), else --data. A compaction happened when the directory recorded one, or
   * when its change log starts above seq 1 (firstLoggedSeq: the lines before were cut by
   * one; a directory compacted by a release before 2026-11-29 recorded none). Throws
   * VenueSearchError (param `--live-dir`) for something other than a file where the directory
   * keeps one (live-dir-files.ts), before reading any, and for a record that cannot be read.
   */
  static basePath(options: Pick<LiveVenuesOptions, 'dataPath' | 'dir'>): string {
    checkLiveDirFiles(options.dir);
    const compacted = join(options.dir, 'base.snapshot');
    const folded = () => recordedCompactedBase(options.dir) || (firstLoggedSeq(join(options.dir, 'changes.log')) ?? 1) > 1;
    return entryExists(compacted) || folded() ? compacted : options.dataPath;
  }

  /** Loads the base and replays the log over it. */
  static async open(options: LiveVenuesOptions): Promise<LiveVenues> {
    makeDirectory(options.dir);
    checkLiveDirFiles(options.dir); // before the lock is opened: it is one of them
    const lock = LiveDirLock.acquire(options.dir);
    try {
      removeCompactionLeftovers(options.dir);
      const basePath = LiveVenues.basePath(options);
      if (basePath !== options.dataPath) checkCompactedDirFiles(options.dir);
      // while the base is --data itself, the directory records which file that is (data-origin.ts)
      if (basePath === options.dataPath) checkAndRecordDataOrigin(options.dir, options.dataPath);
      const engine = await options.load(basePath);
      // A compacted base loaded: from now on a start without it is refused (basePath), also in
      // a directory a release before 2026-11-29 compacted, which recorded nothing.
      if (basePath !== options.dataPath && recordCompactedBase(options.dir)) await syncDirectoryAsync(options.dir);
      const { log, entries, tornBytes, tornWhole } = await ChangeLog.open(join(options.dir, 'changes.log'), recordedLastSeq(options.dir));
      if (basePath !== options.dataPath) checkRecordBeforeLog(options.dir, entries[0]?.seq);
      applyLogged(engine, ...entries.map((e) => e.change));
      const live = new LiveVenues(engine, log, options, new Compactor(basePath, basePath === options.dataPath ? 0 : recordedLastSeq(options.dir), log.path, log.lastSeq), lock, tornBytes > 0 ? { batches: entries.length, tornBytes, tornWhole } : { batches: entries.length, tornBytes });
      // A log replayed past the threshold (a service stopped before its compaction ran) is
      // compacted now, not at the next change.
      live.maybeCompact();
      return live;
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * Inserts or replaces venues: validated and built, logged and synced, then applied (which
   * cannot fail). Throws VenueSearchError for a bad batch, and nothing is logged: a batch is
   * logged only once it has been built, so a logged batch always applies, here and at a
   * replay (the validation refuses whatever a build would, validateVenue, so the build is
   * the same at a replay).
   */
  upsert(records: readonly unknown[]): Promise<UpsertResult & { seq: number }> {
    return this.serial(async () => {
      const prepared = this.engine.prepareUpsert(records);
      const change: Change = { op: 'upsert', records: records as VenueRecord[] };
      this.lock.assertHeld(); // another service took the directory over: its log is not ours to write (audit 65d F3)
      const seq = await this.log.append(change);
      this.compactor.logged(seq);
      const result = prepared.apply();
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
        this.lock.assertHeld();
        seq = await this.log.append(change);
        this.compactor.logged(seq);
      }
      const result = this.engine.remove(ids);
      this.maybeCompact();
      return { ...result, seq };
    });
  }

  /** Starts a compaction unless one runs; resolves when it is swapped in. */
  compact(): Promise<CompactionReport> {
    this.compacting ??= this.runCompaction()
      .then((report) => {
        this.backoff.succeeded();
        return report;
      })
      .catch((err: unknown) => {
        const failed = err instanceof CompactionFailedError ? err : new CompactionFailedError(err);
        const next = this.backoff.failed(this.now());
        this.options.onCompactionFailed?.(failed, this.compactAfter > 0 ? next : null);
        throw failed;
      })
      .finally(() => {
        this.compacting = null;
        // Batches that came while it ran may have brought the pending changes to the threshold
        // again: without this they waited for the next change (audit 75b F3: 6,962 pending,
        // over a threshold of 150, until a restart). After a failure the backoff holds it.
        this.maybeCompact();
      });
    return this.compacting;
  }

  /**
   * Resolves when the compaction worker has loaded the base and applied the log's batches
   * (started by open, in the background), with the times it took; a compaction started
   * before waits for it.
   */
  get compactorReady(): Promise<CompactorStart> {
    return this.compactor.ready;
  }

  /** The compaction under way, if any. */
  get compaction(): Promise<CompactionReport> | null {
    return this.compacting;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.queue.catch(() => {});
    await this.compacting?.catch(() => {});
    await this.compactor.close();
    await this.log.close();
    this.lock.release();
  }

  private get compactAfter(): number {
    return this.options.compactAfter ?? 50_000;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The threshold's compaction: at `compactAfter` pending changes, unless one runs or a failed one's wait has not passed (compaction-backoff.ts). */
  private maybeCompact(): void {
    const after = this.compactAfter;
    if (after > 0 && !this.closing && this.compacting === null && this.engine.pendingChanges >= after && this.backoff.allows(this.now())) {
      this.compact().catch(() => {
        // reported through onCompactionFailed (saying which steps took effect; nothing is lost), and the first batch after the wait retries
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
    // The log's length when its entry upToSeq was the last: the entries after it start there.
    const target = join(dir, 'base.snapshot');
    // A base.snapshot that is a link (moved to another volume for space): its target gets the
    // new base, written beside it, and the link stays; a device or a folder there is refused
    // (snapshot-target.ts: the rule `snapshot -o` follows). The replaced file keeps its mode.
    const base = snapshotTarget(target);
    const { job, logBytes } = await this.serial(async () => ({
      job: { upToSeq: this.log.lastSeq, outPath: `${base.file}.next`, ...(base.mode !== undefined ? { mode: base.mode } : {}) } satisfies CompactionJob,
      logBytes: this.log.bytes,
    }));
    const built = await this.compactor.run(job);
    // Which steps took effect, for the message of a failure (CompactionFailedError).
    const progress: CompactionProgress = { upToSeq: job.upToSeq, baseFile: base.file, originFile: join(dir, DATA_ORIGIN_FILE), logFile: this.log.path, baseReplaced: false, seqRecorded: false, logCut: false };
    const cuts = this.log.cuts;
    return this.serial(async () => {
      let report: CompactionReport;
      try {
        report = await this.swapIn(built, job, logBytes, base.file, progress, t0);
      } catch (err) {
        progress.logCut = this.log.cuts > cuts; // the log's rename done, a later step of its cut failed
        throw new CompactionFailedError(err, progress);
      }
      this.options.onCompaction?.(report);
      return report;
    });
  }

  /** Step 2's rename of the new base onto the base (its own method: a test makes it fail, as a disk's EIO does). */
  private renameNewBase(from: string, to: string): Promise<void> {
    return rename(from, to);
  }

  /** Steps 2 to 4 of a compaction (docs/updates.md), on the main thread, each flagged in `progress` once done. */
  private async swapIn(built: CompactionResult, job: CompactionJob, logBytes: number, baseFile: string, progress: CompactionProgress, t0: number): Promise<CompactionReport> {
    const dir = this.options.dir;
    const target = join(dir, 'base.snapshot');
    const w0 = performance.now();
    this.lock.assertHeld(); // the base and the log are another service's once it took the directory over
    try {
      await this.renameNewBase(job.outPath, baseFile);
    } catch (err) {
      // Nothing reads the new base before its rename: it goes, as a partial one written by the
      // worker does (no partial file left behind, audit 66g F2: it held the base's size until
      // the next start). Should the removal fail too, the next start removes it.
      await rm(job.outPath, { force: true }).catch(() => {});
      throw err;
    }
    progress.baseReplaced = true;
    // a worker started again from now on loads the new base (the log's batches it holds replay as no change)
    this.compactor.rebase(target, job.upToSeq);
    await syncDirectoryAsync(dirname(baseFile));
    // Before the log is cut: from now on a start without the base is refused (basePath), and
    // the next seq follows upToSeq even once the log is empty (ChangeLog.open).
    recordCompaction(dir, job.upToSeq);
    progress.seqRecorded = true;
    await syncDirectoryAsync(dir);
    // The log cut to the entries after upToSeq (its bytes from logBytes on, copied as they are).
    const after = await this.log.keepFrom(logBytes);
    progress.logCut = true;
    this.compactor.logReplaced();
    // The swap, in steps of one event-loop turn each so that queries run between them
    // (each is a millisecond or so at 1M venues): restore over the handed-over bytes, tree
    // and columns; create the search; re-apply each batch that arrived meanwhile; adopt.
    // Queries see the old engine (the same current records) until the adopt.
    const steps: number[] = [];
    const step = async <T>(run: () => T): Promise<T> => {
      await new Promise((resolve) => setImmediate(resolve));
      const s = performance.now();
      const value = run();
      steps.push(performance.now() - s);
      return value;
    };
    const w1 = performance.now();
    const { bytes, tree, search } = built.built;
    // The restore in steps (the name dictionary and the record starts in parts): none long.
    // The running engine's name words are reused: the words both dictionaries share are not made again.
    const restoring = restoreSnapshotInSteps(new Uint8Array(bytes), target, {}, { tree, search, nameTokens: this.engine.nameTokensIfBuilt() });
    let fresh: Engine | undefined;
    while (fresh === undefined) {
      const r = await step(() => restoring.next());
      if (r.done === true) fresh = r.value;
    }
    const restoreSteps = steps.length;
    // The search's creation in two steps: its walker's check of the tree's order (known from
    // the header the worker wrote, else a pass over every id: 1 to 16 ms at 1M), then the rest.
    await step(() => fresh.spatial.positionsAreVenues);
    await step(() => fresh.searcher());
    const baseVenues = fresh.size;
    const replayFrom = steps.length;
    for (const e of after) await step(() => applyLogged(fresh, e.change));
    await step(() => this.engine.adopt(fresh));
    const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
    const restoreMs = sum(steps.slice(0, restoreSteps));
    const largestRestoreStepMs = Math.max(...steps.slice(0, restoreSteps));
    const searcherMs = (steps[restoreSteps] ?? 0) + (steps[restoreSteps + 1] ?? 0);
    const adoptMs = steps.at(-1) ?? 0;
    const replayMs = sum(steps.slice(replayFrom, -1));
    const phases = { ...built.phases, renameAndLogMs: w1 - w0, restoreMs, restoreSteps, largestRestoreStepMs, searcherMs, replayMs, adoptMs, largestSwapStepMs: Math.max(...steps) };
    return { venues: baseVenues, upToSeq: job.upToSeq, buildMs: built.ms, totalMs: performance.now() - t0, swapMs: steps.reduce((x, y) => x + y, 0), phases };
  }
}
