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
      return 'is a folder, not a file';
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
