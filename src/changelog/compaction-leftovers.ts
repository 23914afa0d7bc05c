/**
 * What a compaction stopped part-way (SIGKILL, a crash, a power cut) leaves in a live
 * directory: `base.snapshot.next`, the new base being written (as large as the base), and
 * `changes.log.next`, the log's tail being copied (live-venues.ts, ChangeLog.keepFrom). Until
 * its rename neither is read by anything: the base and the change log are as they were, and
 * the next compaction writes both again. `data-origin.json.tmp`, a record of
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
import { DATA_ORIGIN_FILE } from './data-origin.js';
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

/** What is as it was when the file at `path` (one of leftoverPaths) was left. */
function unchangedBy(path: string): string {
  return path.endsWith(ORIGIN_TEMPORARY) ? `${DATA_ORIGIN_FILE} is as it was` : 'the base and the change log are as they were';
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
      process.stderr.write(`venue-search: removed ${left}; ${unchangedBy(path)}\n`);
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
