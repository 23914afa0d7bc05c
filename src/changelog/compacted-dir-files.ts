/**
 * What a live directory served from its compacted base (`base.snapshot`) must hold beside
 * it, checked at start before the base is loaded:
 * - `changes.log`, once `data-origin.json` records a compaction: a start creates the log
 *   (ChangeLog.open) before it records one (a compaction, or a start loading the base), and a
 *   compaction replaces the log by renaming its cut copy over it, so such a directory always
 *   has one (empty when nothing came since the compaction). Missing, it was moved or
 *   deleted, and the batches acknowledged since the last compaction are only in it: read as
 *   an empty log they were silently not served (audit 69c F3), as a link to nothing was
 *   (live-dir-files.ts). A base put in a new directory by hand (no record, no log yet) starts.
 * - `data-origin.json`, when the log is there and holds no batch: the record's `lastSeq` is
 *   then the only place the next seq can follow (a snapshot records none); without it the
 *   next batch was acknowledged as seq 1 again (audit 69c F2). With a batch in the log the
 *   next seq follows the log's last line, and the start writes the record again (a directory
 *   compacted by a release before 2026-11-29, which wrote none, starts so too).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { VenueSearchError } from '../errors.js';
import { firstLoggedSeq } from './change-log.js';
import { DATA_ORIGIN_FILE, recordedCompactedBase } from './data-origin.js';

/** Whether there is a directory entry at `path`, whatever it is (a link to nothing included). */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Throws VenueSearchError (param `--live-dir`; nothing changed) when `dir`, whose base is `base.snapshot`, lacks its change log though it recorded a compaction, or its record while the log holds no batch. */
export function checkCompactedDirFiles(dir: string): void {
  const log = join(dir, 'changes.log');
  const base = join(dir, 'base.snapshot');
  const refuse = (message: string): never => {
    throw new VenueSearchError('invalid_data', message, { param: '--live-dir', value: dir });
  };
  const logThere = entryExists(log);
  if (!logThere && recordedCompactedBase(dir)) {
    refuse(
      `${log} is missing beside the compacted base ${base}: a compaction always leaves a change log (an empty one when no batch came since), so it was moved or deleted, and the batches acknowledged since the last compaction are only in it. ` +
        `Nothing was changed: put it back (from a copy of the live directory), or, if the changes since the last compaction are knowingly given up, create an empty one (: > ${log}) and start again (docs/updates.md, "A missing change log")`,
    );
  }
  const record = join(dir, DATA_ORIGIN_FILE);
  if (logThere && entryExists(base) && !entryExists(record) && firstLoggedSeq(log) === undefined) {
    refuse(
      `${record} is missing beside the compacted base ${base}, and ${log} holds no batch: the record's lastSeq is the only place the next batch's seq can follow (a snapshot records none), and without it a new batch would get a seq already used. ` +
        `Nothing was changed: restore the live directory from a copy, or write the record again with a lastSeq at least the highest seq the directory acknowledged (printf '{"compacted":true,"lastSeq":%d}\\n' N > ${record}), as docs/updates.md says ("A damaged ${DATA_ORIGIN_FILE}")`,
    );
  }
}
