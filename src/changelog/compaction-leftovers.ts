/**
 * What a compaction stopped part-way (SIGKILL, a crash, a power cut) leaves in a live
 * directory: `base.snapshot.next`, the new base being written (as large as the base), and
 * `changes.log.next`, the log's tail being copied (live-venues.ts, ChangeLog.keepFrom). Until
 * its rename neither is read by anything, and the next compaction writes both again. What the
 * stopped compaction had done differs (docs/updates.md, "Compaction", steps 1 to 3): with
 * `base.snapshot.next` (step 1) the base and the change log are as they were; with
 * `changes.log.next` (step 3) the new base had replaced the base and data-origin.json records
 * its seq S (step 2), while the log, not cut yet, still holds the batches up to S: replaying
 * them over the new base changes nothing, so nothing is lost (audit 67e F1: this said "as they
 * were" for both). `data-origin.json.tmp`, a record of
 * data-origin.json being written (data-origin.ts: by a compaction or at a start), is the
 * same: a kill or a failed rename left it, unread, data-origin.json as it was (audit 66g F3:
 * it stayed for good). At start, with the directory's lock held (so no
 * compaction of another process writes them), they are removed, saying so on stderr, rather
 * than holding the disk's space unmentioned until the next compaction (audit 65d F2).
 *
 * Something else at those paths is not a compaction's: a compaction writes regular files only.
 * An empty folder there holds nothing and is removed (rmdir removes a folder only while it is
 * empty), saying so. Anything more (a folder with files in it, a symbolic link, a pipe, a
 * device) is somebody's and is left as it is, but the start is refused naming it: every
 * compaction would fail on it (a folder), or write the new base or the log's copy through it
 * (a link), until it is moved away by hand (audit 66a F1).
 */
import { lstatSync, rmdirSync, unlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { VenueSearchError } from '../errors.js';
import { snapshotTarget } from '../snapshot/snapshot-target.js';
import { DATA_ORIGIN_FILE, recordedLastSeq } from './data-origin.js';
import { kindOf } from './live-dir-files.js';

/**
 * The files a stopped compaction may leave in `dir`: the new base beside the base (beside a
 * linked base's target), and the log's copy; `writes`: the next compaction writes there (not
 * at the plain name's `.next` once base.snapshot is a link).
 */
function leftoverPaths(dir: string): Array<{ path: string; writes: boolean }> {
  const base = join(dir, 'base.snapshot');
  let baseFile = base;
  try {
    baseFile = snapshotTarget(base).file; // a base.snapshot that is a link: the compaction writes beside its target
  } catch {
    // not a file a compaction could write (a folder, a device): only the plain name
  }
  const written = [`${baseFile}.next`, join(dir, 'changes.log.next'), join(dir, ORIGIN_TEMPORARY)];
  return [...new Set([`${base}.next`, ...written])].map((path) => ({ path, writes: written.includes(path) }));
}

/** data-origin.json's record being written (data-origin.ts writeOriginRecord). */
const ORIGIN_TEMPORARY = `${DATA_ORIGIN_FILE}.tmp`;

/** What a compaction writes at `path` (one of leftoverPaths), in words. */
function writtenThere(path: string): string {
  if (path.endsWith(ORIGIN_TEMPORARY)) return `the record of ${DATA_ORIGIN_FILE}`;
  return path.endsWith('changes.log.next') ? "the change log's copy" : 'the new base';
}

/** What the stopped writer of the file at `path` (one of leftoverPaths, in `dir`) had changed, and that nothing is lost. */
function stateLeftBy(dir: string, path: string): string {
  if (path.endsWith(ORIGIN_TEMPORARY)) return `${DATA_ORIGIN_FILE} is as it was`;
  if (!path.endsWith('changes.log.next')) return 'the base and the change log are as they were';
  // step 3: written only after step 2 renamed the new base and recorded its seq
  const log = join(dir, 'changes.log');
  const seq = foldedSeq(dir);
  const held = seq === undefined ? 'the batches it folded' : `the batches up to seq ${seq}`;
  const recorded = seq === undefined ? '' : ` (the seq ${join(dir, DATA_ORIGIN_FILE)} records)`;
  return `the new base, holding ${held}${recorded}, had replaced ${join(dir, 'base.snapshot')}; ${log} was not cut yet and still holds those batches: nothing is lost, replaying them over the new base changes nothing, and the next compaction cuts them`;
}

/** The last seq folded into the base, as data-origin.json records it; undefined when it records none or cannot be read (the start then names why). */
function foldedSeq(dir: string): number | undefined {
  try {
    return recordedLastSeq(dir) || undefined; // 0: none recorded (a release before 2026-11-29), or a log that never held a batch
  } catch {
    return undefined;
  }
}

/** Who leaves a file at `path` (one of leftoverPaths). */
function leftBy(path: string): string {
  return path.endsWith(ORIGIN_TEMPORARY)
    ? `left by a record of ${DATA_ORIGIN_FILE} that was stopped before it finished (killed or crashed) or whose rename failed`
    : 'left by a compaction that was stopped before it finished (killed or crashed)';
}

/**
 * Removes the leftovers of a compaction that stopped part-way in `dir` (call with its lock
 * held), and empty folders at their paths, one line on stderr for each; throws
 * VenueSearchError (nothing changed) when something else is at one of those paths.
 */
export function removeCompactionLeftovers(dir: string): void {
  for (const { path, writes } of leftoverPaths(dir)) {
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch {
      continue; // none
    }
    if (!st.isFile() && !writes) continue; // no compaction writes there: left alone
    if (st.isDirectory() && removeEmptyFolder(path)) continue;
    if (!st.isFile()) {
      throw new VenueSearchError(
        'invalid_data',
        `${path} is ${st.isDirectory() ? 'a folder with files in it' : kindOf(st)}, where a compaction writes ${writtenThere(path)}: every compaction would fail on it, or write through it. ` +
          'It is not something a compaction leaves, so it was left as it is: move it away, then start again',
        { param: '--live-dir', value: dir },
      );
    }
    const left = `${path} (${st.size} bytes), ${leftBy(path)}`;
    try {
      unlinkSync(path);
      process.stderr.write(`venue-search: removed ${left}; ${stateLeftBy(dir, path)}\n`);
    } catch (err) {
      // harmless where it stays (the next compaction replaces it): the start goes on
      process.stderr.write(`venue-search: could not remove ${left}: ${(err as Error).message}; it holds disk space until the next compaction replaces it\n`);
    }
  }
}

/** Removes the folder at `path` if it is empty (saying so on stderr); false when it holds anything (or cannot be removed). */
function removeEmptyFolder(path: string): boolean {
  try {
    rmdirSync(path); // refuses a folder that is not empty: nothing in one is ever removed
  } catch {
    return false;
  }
  process.stderr.write(`venue-search: removed the empty folder ${path}, where a compaction writes ${writtenThere(path)} (every compaction would have failed on it)\n`);
  return true;
}
