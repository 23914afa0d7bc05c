/**
 * The rules shared by every output written whole and renamed into place (`import -o`,
 * `--report-json`, `snapshot -o`, a live directory's base.snapshot): where the bytes land,
 * which permission bits the new file gets, and what a refused temporary file means.
 */
import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeProblem } from './file-problem.js';

/** Links followed at most (Linux's own limit, ELOOP beyond). */
const MAX_LINKS = 40;

/**
 * The absolute path a write to `path` lands on: symbolic links followed, those whose target
 * does not exist yet included (a write creates that target), and the folders resolved as far
 * as they exist (realpath of the nearest existing folder, then the rest as written). Two
 * paths that resolve alike name one file, whether or not it exists yet. A link that leads to
 * something other than a regular file (a device, a pipe, a folder) is kept as it is: what it
 * leads to is reached through it (/dev/stdout's /proc/self/fd/1 reads as "pipe:[…]").
 */
export function resolvedPath(path: string): string {
  let at = resolve(path);
  for (let links = 0; links < MAX_LINKS; links++) {
    const full = join(resolvedFolder(dirname(at)), basename(at));
    const entry = lstatOrNull(full);
    if (entry === null || !entry.isSymbolicLink()) return full;
    const followed = statOrNull(full);
    if (followed !== null && !followed.isFile()) return full;
    at = resolve(dirname(full), readlinkSync(full));
  }
  // a link loop: the write fails on it, naming the cause
  return at;
}

/** realpath of `folder`, or of its nearest existing ancestor with the rest appended. */
function resolvedFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    const parent = dirname(folder);
    return parent === folder ? folder : join(resolvedFolder(parent), basename(folder));
  }
}

/** Where an output written whole goes: `file`, the resolved path; `entry`, what is there now (through a link kept, see resolvedPath), or null. */
export interface ReplacedFile {
  readonly file: string;
  readonly entry: Stats | null;
}

export function replacedFile(path: string): ReplacedFile {
  const file = resolvedPath(path);
  return { file, entry: statOrNull(file) ?? lstatOrNull(file) };
}

/**
 * Why `path` cannot be an output file because it names a folder, or null: what is there is a
 * folder (through a link too), or the name itself says folder whatever is there: it ends in
 * `/` (or is `.`, `..`, or ends in `/.` or `/..`). Such a name never becomes a file: resolving it
 * would drop the slash and write (or replace) the file `name` instead. The one rule for every
 * output written whole (`snapshot -o`, writeSnapshot, `import -o`, `--report-json`); callers
 * refuse it before any work, naming their option.
 */
export function folderProblem(path: string, entry: Stats | null): string | null {
  if (entry?.isDirectory() === true) return 'it is a folder';
  const end = /(?:^|\/)(\.{0,2})$/.exec(path);
  return end === null ? null : `the name ends in "${end[1] === '' ? '/' : end[0]}", so it names a folder`;
}

/** The permission bits the new file is made with: the replaced file's (an output kept private stays so); undefined for a new file. */
export function keptMode(entry: Stats | null): number | undefined {
  return entry?.isFile() === true ? entry.mode & 0o777 : undefined;
}

/**
 * What is at `entry` when it is not a regular file ("a folder", "a character device"...),
 * for a message saying why a rename may not replace it; null for a regular file or nothing.
 */
export function notARegularFile(entry: Stats | null): string | null {
  if (entry === null || entry.isFile()) return null;
  if (entry.isDirectory()) return 'a folder';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  if (entry.isFIFO()) return 'a named pipe';
  if (entry.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Why the temporary file beside `file` could not be made: a folder that refuses it is the
 * cause, not the output file (which may well be writable).
 */
export function partFileProblem(err: unknown, file: string): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return `${writeProblem(err)} in its folder ${dirname(file)} (the output is written beside it, then renamed in)`;
  return writeProblem(err);
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
