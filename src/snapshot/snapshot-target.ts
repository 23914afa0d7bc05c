import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { VenueSearchError, type VenueSearchErrorCode } from '../errors.js';
import { folderProblem, keptMode, notARegularFile, partFileProblem, replacedFile } from '../data/replaced-file.js';

/** Where a snapshot written to `path` goes: `file` (a link's target, the link kept) and the mode the new file gets. */
export interface SnapshotTarget {
  readonly file: string;
  readonly mode: number | undefined;
}

/**
 * Where a snapshot written to `path` goes, checked before any build work: a symbolic link is
 * followed (its target gets the snapshot, the link stays a link); something that is not a
 * regular file (a device such as /dev/null, a named pipe, a socket, a folder, a name ending in
 * `/`: folderProblem) is refused,
 * since renaming the snapshot into place would replace it with a file; so is a folder that
 * cannot take the temporary file. `param` names the path in the error (`path` for
 * writeSnapshot, `out` for the command), `code` is the error's.
 */
export function snapshotTarget(path: string, param = 'path', code: VenueSearchErrorCode = 'invalid_data'): SnapshotTarget {
  const { file, entry } = replacedFile(path);
  const named = file === path ? path : `${path} (${file})`;
  const folder = folderProblem(path, entry);
  if (folder !== null) throw new VenueSearchError(code, `cannot write snapshot ${path}: ${folder}; give a file`, { file: path, param, value: path });
  const what = notARegularFile(entry);
  if (what !== null) {
    throw new VenueSearchError(code, `cannot write snapshot ${named}: it is ${what}; renaming the snapshot into place would replace it with a file; give a regular file`, { file: path, param, value: path });
  }
  try {
    accessSync(dirname(file), constants.W_OK);
  } catch (err) {
    throw new VenueSearchError(code, `cannot write snapshot ${named}: ${partFileProblem(err, file)}`, { file: path, param, value: path });
  }
  return { file, mode: keptMode(entry) };
}
