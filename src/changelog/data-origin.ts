/**
 * Which --data file a live directory's base descends from. Once the directory holds a
 * compacted base, --data is no longer read (docs/updates.md), and a new data file shipped to
 * the machine is not served; `serve` warns then. The file's modification time cannot tell:
 * `rsync -a`, `cp -p` and object-storage tools keep the building machine's. So the directory
 * records, while its base is still --data itself, a fingerprint of that file's content.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The record in the live directory: `{ "fingerprint": "<size>:<sha256 hex>" }`. */
export const DATA_ORIGIN_FILE = 'data-origin.json';
/** Bytes hashed at each end of the file (the whole file when it is smaller than twice this). */
const END_BYTES = 1 << 20;

/** The file's size and the SHA-256 of its first and last MiB: a data file rebuilt differs in both, at the cost of reading 2 MiB. */
export function dataFingerprint(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(Math.min(size, 2 * END_BYTES));
    const read = (position: number, length: number) => {
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buffer, done, length - done, position + done);
        if (n === 0) break;
        done += n;
      }
      hash.update(buffer.subarray(0, done));
    };
    if (size <= 2 * END_BYTES) read(0, size);
    else {
      read(0, END_BYTES);
      read(size - END_BYTES, END_BYTES);
    }
    return `${size}:${hash.digest('hex')}`;
  } finally {
    closeSync(fd);
  }
}

/** Records `dataPath` as the origin of the live directory `dir` (its base is that file now). */
export function recordDataOrigin(dir: string, dataPath: string): void {
  const file = join(dir, DATA_ORIGIN_FILE);
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ fingerprint: dataFingerprint(dataPath) })}\n`);
  renameSync(temporary, file);
}

/**
 * Whether `dataPath` is the file the live directory `dir` recorded as its origin; undefined
 * when the directory recorded none (made before this record existed) or it cannot be read.
 */
export function isDataOrigin(dir: string, dataPath: string): boolean | undefined {
  const file = join(dir, DATA_ORIGIN_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const { fingerprint } = JSON.parse(readFileSync(file, 'utf8')) as { fingerprint?: unknown };
    return typeof fingerprint === 'string' ? fingerprint === dataFingerprint(dataPath) : undefined;
  } catch {
    return undefined;
  }
}
