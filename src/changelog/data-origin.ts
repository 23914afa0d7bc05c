/**
 * Which --data file a live directory's base descends from. Once the directory holds a
 * compacted base, --data is no longer read (docs/updates.md), and a new data file shipped to
 * the machine is not served; `serve` warns then. The file's modification time cannot tell:
 * `rsync -a`, `cp -p` and object-storage tools keep the building machine's. So the directory
 * records, while its base is still --data itself, a fingerprint of that file's whole content.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VenueSearchError } from '../errors.js';

/** The record in the live directory: `{ "fingerprint": "<size>:<sha256 hex>" }`. */
export const DATA_ORIGIN_FILE = 'data-origin.json';
/** Bytes read at a time while hashing. */
const CHUNK_BYTES = 4 << 20;

/**
 * The file's size and the SHA-256 of its whole content: a rebuilt file differs even where a
 * single letter changed and the size stayed. Reads the file once (about 0.7 s for 450 MB on
 * the 2-core test machine), at a live-data service's start only.
 */
export function dataFingerprint(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(Math.min(size, CHUNK_BYTES));
    for (let position = 0; position < size; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      position += n;
    }
    return `${size}:${hash.digest('hex')}`;
  } finally {
    closeSync(fd);
  }
}

/**
 * What the live directory records in DATA_ORIGIN_FILE: the origin's fingerprint, and whether a
 * compaction has written its base (`base.snapshot`) there. Once it has, the changes folded into
 * that base are no longer in the change log, so a start without it would serve --data without
 * them: the start is refused instead (LiveVenues.basePath).
 */
interface OriginRecord {
  readonly fingerprint?: string;
  readonly compacted?: true;
  /**
   * The seq of the last batch the latest compaction folded into the base (absent: none
   * recorded). A compaction empties the change log of those batches, so the next seq cannot be
   * read from the log alone: it continues from here (audit 65d F1: it restarted at 1).
   */
  readonly lastSeq?: number;
}

/**
 * The record of `dir` ({} when there is none). A record that cannot be read, is not JSON, or
 * holds a field of the wrong kind is refused (VenueSearchError, param `--live-dir`), never
 * taken as none: it is written atomically (writeOriginRecord), so only damage since (a disk, a
 * copy, an edit) makes one, and taking it as none would forget `lastSeq` and number the next
 * batch with a seq already used once a compaction emptied the log (audit 67a F8: it was
 * rewritten as {"compacted":true} without a word). Its fields cannot be told from the rest of
 * the directory in every case (an empty log holds no seq), so nothing is guessed.
 */
function readOriginRecord(dir: string): OriginRecord {
  const file = join(dir, DATA_ORIGIN_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // none: no file, or no directory yet (a file in its way is named when it is made); a folder
    // there holds none either (a start refuses one, live-dir-files.ts; a write's rename fails on it)
    if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return {};
    throw damagedRecord(file, dir, (err as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw damagedRecord(file, dir, `it is not JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw damagedRecord(file, dir, 'it is not a JSON object');
  const { fingerprint, compacted, lastSeq } = parsed as { fingerprint?: unknown; compacted?: unknown; lastSeq?: unknown };
  const wrong =
    fingerprint !== undefined && typeof fingerprint !== 'string'
      ? 'fingerprint'
      : compacted !== undefined && compacted !== true
        ? 'compacted'
        : lastSeq !== undefined && !(Number.isSafeInteger(lastSeq) && (lastSeq as number) >= 0) // 0: a compaction of a log that never held a batch
          ? 'lastSeq'
          : undefined;
  if (wrong !== undefined) throw damagedRecord(file, dir, `its field ${wrong} is ${JSON.stringify((parsed as Record<string, unknown>)[wrong])}`);
  return {
    ...(fingerprint === undefined ? {} : { fingerprint: fingerprint as string }),
    ...(compacted === undefined ? {} : { compacted: true as const }),
    ...(lastSeq === undefined ? {} : { lastSeq: lastSeq as number }),
  };
}

/** The refusal of a record `file` of the live directory `dir` that cannot be read (`why`). */
function damagedRecord(file: string, dir: string, why: string): VenueSearchError {
  return new VenueSearchError(
    'invalid_data',
    `${file} cannot be read: ${why}. It records the seq of the last batch compacted into the base (the next batch's seq follows it), whether a compaction wrote base.snapshot, and which --data the directory started from; ` +
      `without it a new batch could get a seq already used. Nothing was changed: restore the live directory from a copy, or write the record again as docs/updates.md says ("A damaged ${DATA_ORIGIN_FILE}")`,
    { param: '--live-dir', value: dir },
  );
}

function writeOriginRecord(dir: string, record: OriginRecord): void {
  const file = join(dir, DATA_ORIGIN_FILE);
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    try {
      writeFileSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd); // its content durable before the rename makes it the record
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (err) {
    // the file opened above is this record's: it goes (one a kill left, or this removal
    // could not remove, the next start removes: compaction-leftovers.ts)
    try {
      rmSync(temporary, { force: true });
    } catch {
      // the record's own error is the one to report
    }
    throw err;
  }
}

/** Records `fingerprint` (dataFingerprint of --data) as the origin of the live directory `dir` (its base is that file now). */
export function recordDataOrigin(dir: string, fingerprint: string): void {
  writeOriginRecord(dir, { ...readOriginRecord(dir), fingerprint });
}

/** The fingerprint the live directory `dir` recorded as its origin; undefined when it recorded none (made before this record existed). Throws for a record that cannot be read (readOriginRecord). */
export function recordedDataOrigin(dir: string): string | undefined {
  return readOriginRecord(dir).fingerprint;
}

/**
 * Records that a compaction renamed its base into the live directory `dir` (call it after that
 * rename is durable, and sync the directory after it). Returns false when it was recorded already.
 */
export function recordCompactedBase(dir: string): boolean {
  const record = readOriginRecord(dir);
  if (record.compacted === true) return false;
  writeOriginRecord(dir, { ...record, compacted: true });
  return true;
}

/**
 * Records that a compaction renamed its base, holding the batches up to `upToSeq`, into the
 * live directory `dir` (call it after that rename is durable and before the log is cut; sync
 * the directory after it).
 */
export function recordCompaction(dir: string, upToSeq: number): void {
  const record = readOriginRecord(dir);
  writeOriginRecord(dir, { ...record, compacted: true, lastSeq: Math.max(upToSeq, record.lastSeq ?? 0) });
}

/** The seq of the last batch a compaction folded into the base of `dir` (0: none recorded; directories compacted before 2026-11-30 recorded none). */
export function recordedLastSeq(dir: string): number {
  return readOriginRecord(dir).lastSeq ?? 0;
}

/**
 * Refuses a record whose `lastSeq` leaves a gap before the change log's first batch
 * (`firstLoggedSeq`; undefined: an empty log): a compaction cuts the log only after the record
 * says the base holds what was cut, so the log always starts at most one after `lastSeq`, and
 * a gap comes only from an edit (a hand-written `lastSeq` too low). Replayed anyway, every
 * later compaction failed ("entry 6 follows entry 3, the entries between are missing"), while
 * the start had said nothing (audit 68b F7). A record without `lastSeq` (written by a release
 * before 2026-11-30) is not checked.
 */
export function checkRecordBeforeLog(dir: string, firstLoggedSeq: number | undefined): void {
  const { lastSeq } = readOriginRecord(dir);
  if (lastSeq === undefined || firstLoggedSeq === undefined || firstLoggedSeq <= lastSeq + 1) return;
  const file = join(dir, DATA_ORIGIN_FILE);
  throw new VenueSearchError(
    'invalid_data',
    `${file} records lastSeq ${lastSeq} (the base holds the batches up to ${lastSeq}), but ${join(dir, 'changes.log')} starts at batch ${firstLoggedSeq}: ` +
      `batches ${lastSeq + 1} to ${firstLoggedSeq - 1} would be in neither, and every compaction would fail. A compaction never leaves such a gap, so the record was edited: ` +
      `nothing was changed; write it again with lastSeq ${firstLoggedSeq - 1} (the log's first batch minus 1), as docs/updates.md says ("A damaged ${DATA_ORIGIN_FILE}"), or restore the live directory from a copy`,
    { param: '--live-dir', value: dir },
  );
}

/** Whether the live directory `dir` recorded that a compaction wrote its base there (directories compacted before 2026-11-29 recorded none). */
export function recordedCompactedBase(dir: string): boolean {
  return readOriginRecord(dir).compacted === true;
}

/**
 * Whether `dataPath` is the file the live directory `dir` recorded as its origin; undefined
 * when the directory recorded none. Throws for a record that cannot be read (readOriginRecord).
 */
export function isDataOrigin(dir: string, dataPath: string): boolean | undefined {
  const recorded = recordedDataOrigin(dir);
  return recorded === undefined ? undefined : recorded === dataFingerprint(dataPath);
}
