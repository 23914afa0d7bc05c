import { closeSync, existsSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { fileProblem } from '../data/file-problem.js';
import { createEngineFromFile } from '../data/read-engine.js';
import type { VenueFileFormat } from '../data/read-venues.js';
import { createEngine, type Engine } from '../engine.js';
import { readSnapshotAsync } from '../snapshot/read-snapshot.js';
import { isSnapshot, MAGIC } from '../snapshot/snapshot-format.js';
import { readSharedSnapshot, shareEngine, type SharedSnapshot } from '../snapshot/shared-snapshot.js';
import { progressBar } from './progress-bar.js';
import { readThreads } from './read-threads.js';
import { seaWarning } from './sea-warning.js';

/**
 * Whether the file at `path` starts like a snapshot (reads its first bytes only); a file cut
 * shorter than the magic but starting with its first bytes counts too, so that it is
 * reported as a truncated snapshot, not as malformed JSON.
 */
export function isSnapshotFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(MAGIC.length);
    const n = readSync(fd, head, 0, head.length, 0);
    if (n < MAGIC.length) return n > 0 && MAGIC.startsWith(Buffer.from(head.subarray(0, n)).toString('latin1'));
    return isSnapshot(head);
  } finally {
    closeSync(fd);
  }
}

/** Whether `path` is a symbolic link (a dangling one included). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Why `path`, given with --data (or, with `role` 'base', a live directory's compacted base),
 * cannot be read: missing, not a file, or not readable (one line naming it); null when it can
 * be opened for reading. An empty --data file (0 bytes) is refused too, unless `noRecords`
 * (a live-data service: see loadEngineFile); an empty base is damage, always refused.
 */
export function dataFileProblem(path: string, role: 'data' | 'base' = 'data', noRecords = false): string | null {
  const what = role === 'data' ? '--data' : "the live directory's compacted base";
  if (!existsSync(path)) {
    if (role === 'data') return `data file not found: ${path} (give a venues NDJSON, JSON or GeoJSON file, or a snapshot, with --data)`;
    // the changes compacted into the base left the change log: --data alone would lose them
    return `${what} ${path} is missing${isLink(path) ? ' (a link to nothing)' : ''}: the changes compacted into it are no longer in the change log, so --data is not served without it. Put it back (docs/snapshots.md: copy it, never move it), or start with a fresh --live-dir to serve --data without those changes`;
  }
  const stat = statSync(path);
  if (!stat.isFile()) return `${what} must be a file; ${path} is not${role === 'base' ? ' (compactions write it there: move whatever is in the way)' : ''}`;
  // as `snapshot` refuses it: an export that failed, not a data set (a live directory's base is written whole, so there it is damage)
  if (stat.size === 0 && !(noRecords && role === 'data')) return `${path} is empty: it holds no venue records (an empty file is a mistake, not a data set)`;
  try {
    closeSync(openSync(path, 'r'));
  } catch (err) {
    return `cannot read ${what} ${path}: ${fileProblem(err)}`;
  }
  return null;
}

/**
 * The engine over a data file given on the command line: a snapshot (`venue-search
 * snapshot`) is loaded as it is; a venues file (NDJSON, JSON array, GeoJSON) is read,
 * validated and built, with this process's share of the cores (`processes`: how many read it
 * at once; read-threads.ts). Throws VenueSearchError for bad data; `fail` is called for a
 * path that is missing or not a file, and for a venues file holding no records (a snapshot
 * of 0 venues is served: a live directory's base once every venue was removed).
 */
export async function loadEngineFile(
  path: string,
  fail: (message: string) => never,
  report: LoadReport = null,
  processes = 1,
  /** A venues file of no records is served (a live-data service to be filled by its admin routes). */
  allowNoRecords = false,
  /** A venues file's format when `path`'s name does not give it (a held file: held-data-file.ts); undefined: from the name, else sniffed. */
  format?: VenueFileFormat,
): Promise<{ engine: Engine; snapshot: boolean }> {
  const problem = dataFileProblem(path, 'data', allowNoRecords);
  if (problem !== null) fail(problem);
  const started = performance.now();
  // No records, one rule whatever the bytes: 0 bytes (what `import` writes for no venue) as
  // blank lines, `[]` or a FeatureCollection without features (read below).
  if (statSync(path).size === 0) {
    report?.write(`venue-search: read 0 venues from ${path} (an empty file) in ${secondsSince(started)}\n`);
    return { engine: createEngine([]), snapshot: false };
  }
  if (isSnapshotFile(path)) {
    // read by the thread pool: serve loads its HTTP packages meanwhile (service-commands.ts)
    const engine = await readSnapshotAsync(path);
    report?.write(`venue-search: loaded ${engine.size} venues from the snapshot ${path} in ${secondsSince(started)}\n`);
    // An index of older rules is built again by each process that serves it (audit 75d F4: nothing said so)
    if (!engine.findBuilt) report?.write(`venue-search: the snapshot ${path} holds a name index of older rules: it is built again at start (write the snapshot again to keep it: venue-search snapshot --data ${path} --out <new file>)\n`);
    return { engine, snapshot: true };
  }
  const bar = report === null ? null : progressBar(report, 'bytes');
  let engine: Engine;
  try {
    const threads = readThreads(processes, statSync(path).size);
    engine = (await createEngineFromFile(path, { threads, format, ...(bar === null ? {} : { onProgress: (p) => bar.update(p.bytes, p.totalBytes) }) })).engine;
  } finally {
    bar?.stop();
  }
  // as for an empty file (dataFileProblem): blank lines, `[]` or a FeatureCollection without features is a mistake, not a data set
  if (engine.size === 0 && !allowNoRecords) {
    fail(`${path} holds no venue records (an empty data set is a mistake, not one to serve; a live-data service, --admin-token-file, starts from one)`);
  }
  report?.write(`venue-search: read ${engine.size} venues from ${path} in ${secondsSince(started)}\n`);
  const atSea = seaWarning(engine, path);
  if (atSea !== null) report?.write(`${atSea}\n`);
  return { engine, snapshot: false };
}

/**
 * Where a command reports loading its data: a bar of the bytes read while a venues file is
 * read (on a terminal only) and a line when it is loaded; null: silently.
 */
export type LoadReport = (Writable & { isTTY?: boolean }) | null;

/** `1.2 s` since `started` (a performance.now() time). */
export function secondsSince(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/**
 * The data file given on the command line as a snapshot in shared memory, for engine threads
 * (`serve --engine-threads`): a snapshot is read into it directly; a venues file is built
 * once and laid out as a snapshot in shared memory (no temporary file: a stop during the start
 * leaves nothing behind). Errors and `processes` as for loadEngineFile.
 */
export async function loadSharedSnapshot(path: string, fail: (message: string) => never, report: LoadReport = null, processes = 1, format?: VenueFileFormat): Promise<SharedSnapshot> {
  const problem = dataFileProblem(path);
  if (problem !== null) fail(problem);
  if (isSnapshotFile(path)) return readSharedSnapshot(path);
  const { engine } = await loadEngineFile(path, fail, report, processes, false, format);
  try {
    return shareEngine(engine, path);
  } catch (e) {
    if (e instanceof RangeError) fail(`${path}: its venues make a snapshot over 2 GiB, too large to lay out in memory as serve starts; write it once with \`venue-search snapshot --data ${path} --out <file>\` and serve that file`);
    throw e;
  }
}
