import { closeSync, openSync, readSync } from 'node:fs';

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

/**
 * What a file whose first bytes are `head` is, when it is a compressed or binary format that
 * no text reader here takes, said as the advice for the error ("is gzip-compressed:
 * decompress it first"); else undefined. By the formats' magic numbers.
 */
export function binaryFormatProblem(head: Uint8Array): string | undefined {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'is gzip-compressed: decompress it first (gunzip)';
  if (head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31) return 'is a Parquet file: import it with `venue-search import overture`';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'is a zip archive: extract it first';
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'is zstd-compressed: decompress it first (zstd -d)';
  if (head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68) return 'is bzip2-compressed: decompress it first (bunzip2)';
  return undefined;
}

/** The first bytes of a file (fewer when it is shorter); file errors as node:fs throws them. */
export function fileHead(path: string, bytes = 4): Buffer {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(bytes);
    const n = readSync(fd, head, 0, bytes, 0);
    return head.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The last `bytes` bytes of the file at `path`, of `size` bytes (fewer when it is shorter). */
export function fileTail(path: string, size: number, bytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const tail = Buffer.alloc(Math.min(bytes, size));
    const n = readSync(fd, tail, 0, tail.length, size - tail.length);
    return tail.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
