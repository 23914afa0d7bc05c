import { fstatSync, openSync, statSync, type Stats } from 'node:fs';
import { formatFromName, type VenueFileFormat } from '../data/read-venues.js';

/**
 * `serve --workers N`: every worker serves the data file the service started with, also after
 * --data is replaced while the service runs (a new snapshot shipped, to be served after a
 * restart: docs/deploy.md) and a worker that died is replaced (audit 64b 7: the replacement
 * loaded the new file, so one port answered from two data sets in turn).
 *
 * The primary opens the file before it starts any worker and keeps it open for its life, so
 * the file it started with stays readable as /proc/<primary pid>/fd/<n> (Linux) after a rename
 * puts another file at the path. The workers are told its identity (device, inode, size,
 * modification time) in the environment. A worker whose --data no longer is that file loads
 * the held one and says so; where it cannot (no /proc, or the file was changed in place, so
 * the held one is not as it was either) it loads --data as it is now and warns that this
 * service's workers now serve different data.
 *
 * The held path (/proc/<pid>/fd/<n>) has no name to take a format from, so the format --data's
 * name gives is passed with it (audit 65a F8: a `.geojson` whose first 4 KiB did not say
 * FeatureCollection was sniffed as NDJSON, and every replacement worker failed to start).
 */

/** The environment variable that carries the held file to the workers (JSON: HeldDataFile). */
const HELD_DATA_ENV = 'VENUE_SEARCH_HELD_DATA';

/** The file the primary holds open: its descriptor in the primary, and what identifies its contents. */
interface HeldDataFile {
  readonly pid: number;
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
  /** Bytes. */
  readonly size: number;
  /** Modification time, ms since the epoch. */
  readonly mtimeMs: number;
}

/** In the primary, before it starts workers: opens `path` for its life and tells the workers of it. Nothing held when it cannot be opened (the workers say why). */
export function holdDataFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  const s = fstatSync(fd);
  if (!s.isFile()) return;
  const held: HeldDataFile = { pid: process.pid, fd, dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
  process.env[HELD_DATA_ENV] = JSON.stringify(held);
}

function sameFile(s: Stats, held: HeldDataFile): boolean {
  return s.dev === held.dev && s.ino === held.ino && s.size === held.size && s.mtimeMs === held.mtimeMs;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** What a worker of `serve` loads for --data (dataFileToLoad). */
export interface DataFileToLoad {
  /** --data, or the primary's held file. */
  readonly path: string;
  /**
   * The venues file format to read `path` in: the one --data's name gives (read-venues.ts's
   * rule), so that the held file is read as the first worker read it; undefined: from `path`'s
   * own name, else sniffed from the content (the same bytes as the first worker's, so the same answer).
   */
  readonly format: VenueFileFormat | undefined;
  /** A line to print, or null. */
  readonly warning: string | null;
}

/**
 * In a worker: the path to load for --data `path` (it, or the primary's held file when a new
 * file took its place since the service started), its format, and a warning line to print, or
 * null when `path` is the file the service started with (or nothing is held: a single process).
 */
export function dataFileToLoad(path: string): DataFileToLoad {
  const text = process.env[HELD_DATA_ENV];
  const format = formatFromName(path);
  if (text === undefined) return { path, format, warning: null };
  const held = JSON.parse(text) as HeldDataFile;
  const now = statOrNull(path);
  if (now !== null && sameFile(now, held)) return { path, format, warning: null };
  const heldPath = `/proc/${held.pid}/fd/${held.fd}`;
  const kept = statOrNull(heldPath);
  if (kept !== null && sameFile(kept, held)) {
    return {
      path: heldPath,
      format,
      warning: `venue-search: --data ${path} was replaced since this service started; this worker serves the file the service started with, as its other workers do (restart the service to serve the new one)`,
    };
  }
  return {
    path,
    format,
    warning: `venue-search: warning: --data ${path} changed since this service started, and the file it started with is gone or was changed in place: this worker serves ${path} as it is now, its other workers the file as it was; restart the service so that all serve one data set`,
  };
}
