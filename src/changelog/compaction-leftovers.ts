/**
 * What a compaction stopped part-way (SIGKILL, a crash, a power cut) leaves in a live
 * directory: `base.snapshot.next`, the new base being written (as large as the base), and
 * `changes.log.next`, the log's tail being copied (live-venues.ts, ChangeLog.keepFrom). Until
 * its rename neither is read by anything: the base and the change log are as they were, and
 * the next compaction writes both again. At start, with the directory's lock held (so no
 * compaction of another process writes them), they are removed, saying so on stderr, rather
 * than holding the disk's space unmentioned until the next compaction (audit 65d F2).
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTarget } from '../snapshot/snapshot-target.js';

/** The files a stopped compaction may leave in `dir`: the new base beside the base (beside a linked base's target), and the log's copy. */
function leftoverPaths(dir: string): string[] {
  const base = join(dir, 'base.snapshot');
  let baseFile = base;
  try {
    baseFile = snapshotTarget(base).file; // a base.snapshot that is a link: the compaction writes beside its target
  } catch {
    // not a file a compaction could write (a folder, a device): only the plain name
  }
  return [...new Set([`${base}.next`, `${baseFile}.next`, join(dir, 'changes.log.next')])];
}

/** Removes the leftovers of a compaction that stopped part-way in `dir` (call with its lock held), one line on stderr for each. */
export function removeCompactionLeftovers(dir: string): void {
  for (const path of leftoverPaths(dir)) {
    let bytes: number;
    try {
      const st = lstatSync(path);
      if (!st.isFile()) continue; // not what a compaction writes: left alone
      bytes = st.size;
    } catch {
      continue; // none
    }
    const left = `${path} (${bytes} bytes), left by a compaction that was stopped before it finished (killed or crashed)`;
    try {
      unlinkSync(path);
      process.stderr.write(`venue-search: removed ${left}; the base and the change log are as they were\n`);
    } catch (err) {
      // harmless where it stays (the next compaction replaces it): the start goes on
      process.stderr.write(`venue-search: could not remove ${left}: ${(err as Error).message}; it holds disk space until the next compaction replaces it\n`);
    }
  }
}
