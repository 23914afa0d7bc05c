/** What {@link fileProblem} says of a folder given where a file is read. */
export const IS_A_FOLDER = 'is a folder, not a file';

/**
 * What went wrong opening or reading a file, for a message that names the file: "not found"
 * for a missing path, and so on; the system's own message for the rarer errors. `err` as
 * node:fs throws it (an Error with `code` and `syscall`).
 */
export function fileProblem(err: unknown): string {
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return 'not found';
    case 'EISDIR':
      return IS_A_FOLDER;
    case 'EACCES':
    case 'EPERM':
      return 'not readable: permission denied';
    default:
      return `not readable: ${(err as Error).message}`;
  }
}

/** Whether `err` comes from the operating system (node:fs, streams over files), not from a parser. */
export function isFileError(err: unknown): boolean {
  return typeof (err as NodeJS.ErrnoException | null)?.syscall === 'string';
}

/**
 * What went wrong creating a file for writing, for a message that names the file ("cannot
 * write --output x: its folder does not exist"); the system's own message for the rarer errors.
 */
export function writeProblem(err: unknown): string {
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return 'its folder does not exist';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return (err as Error).message;
  }
}
