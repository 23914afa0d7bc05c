/**
 * The files a live directory keeps, and the one check, made before anything opens them, that
 * each is a regular file (or a symbolic link to one) or absent (audit 67a F1, F2). Anything
 * else there is somebody's and is left as it is, and the start is refused naming the path
 * and what is there: a pipe would hold the start for good (opening it waits for a writer
 * that never comes: the service never opened its port and kept the lock), and a folder was
 * reported as the live directory's own problem ("cannot be used: it is a folder").
 *
 * The directory's other paths are a compaction's temporary files (`base.snapshot.next`,
 * `changes.log.next`, `data-origin.json.tmp`), removed or refused by
 * compaction-leftovers.ts, which runs with the lock held.
 */
import { lstatSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { VenueSearchError } from '../errors.js';
import { DATA_ORIGIN_FILE } from './data-origin.js';

interface KeptFile {
  readonly name: string;
  /** What the directory keeps there, in words. */
  readonly holds: string;
  /**
   * Whether a link to nothing is refused here: for every file but the base, where it would
   * be read as absent (an empty log, no record: a batch's seq used again) or written through.
   * A base that is a link to nothing is named by the base's load, with the advice to put it back.
   */
  readonly danglingRefused: boolean;
  /** What to do once the thing in the way is moved away, when more than starting again. */
  readonly after?: string;
}

/** Every file a live directory keeps (live-venues.ts, change-log.ts, data-origin.ts, live-dir-lock.ts). */
const KEPT_FILES: readonly KeptFile[] = [
  {
    name: 'changes.log',
    holds: 'the change log',
    danglingRefused: true,
    after: '; if the change log held batches, put it back from a copy of the live directory (docs/updates.md, "A damaged change log")',
  },
  {
    name: DATA_ORIGIN_FILE,
    holds: 'the record of its origin and of its last compaction',
    danglingRefused: true,
    after: `; write the record again as docs/updates.md says ("A damaged ${DATA_ORIGIN_FILE}"), so that no batch's seq is used twice`,
  },
  // moved away from a directory that was compacted, the start says the base is missing and what to do
  { name: 'base.snapshot', holds: 'the compacted base', danglingRefused: false },
  { name: 'changes.log.torn', holds: 'the torn lines cut from the end of the change log', danglingRefused: true },
  { name: 'lock', holds: 'the lock naming the service that holds it', danglingRefused: true },
];

/** What `st` (not a regular file) is, in words. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a pipe';
  if (st.isSocket()) return 'a socket';
  return 'a device';
}

/** What is in the way at `path`, in words ("a pipe", "a link to a folder"); null when nothing is (absent, a regular file, or a link to one). */
function inTheWay(path: string, danglingRefused: boolean): string | null {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return null; // absent (or the directory itself is not there yet)
  }
  if (st.isFile()) return null;
  if (!st.isSymbolicLink()) return kindOf(st);
  let target: Stats;
  try {
    target = statSync(path);
  } catch {
    return danglingRefused ? 'a link to nothing' : null;
  }
  return target.isFile() ? null : `a link to ${kindOf(target)}`;
}

/**
 * Throws VenueSearchError (param `--live-dir`; nothing changed) when one of the files the
 * live directory `dir` keeps is something other than a regular file or a link to one.
 * Reads no file: only the entries' kinds (lstat, stat).
 */
export function checkLiveDirFiles(dir: string): void {
  for (const file of KEPT_FILES) {
    const path = join(dir, file.name);
    const kind = inTheWay(path, file.danglingRefused);
    if (kind === null) continue;
    throw new VenueSearchError(
      'invalid_data',
      `${path} is ${kind}, where the live directory keeps ${file.holds} (a file). It was left as it is: move it away, then start again${file.after ?? ''}`,
      { param: '--live-dir', value: dir },
    );
  }
}
