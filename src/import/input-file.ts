/**
 * What the importers (`import osm`, `import fhrs`, `import overture`) say of an input they
 * cannot read, after "<kind> file <path>": the file problems of src/data/file-problem.ts, and
 * a pipe or `-` said as such (audit 68e F4). The importers read files, not streams: each looks
 * at a file's start before reading it (binary formats, the wrong importer's files) and
 * Parquet is read from its end (its footer). `import merge` reads a pipe (readVenues reads
 * its input once, in order).
 */
import { statSync } from 'node:fs';
import { binaryFormatProblem, fileHead, fileProblem, fileTail } from '../data/file-problem.js';

/** Said of a pipe or `-` given to an importer. */
const FILES_ONLY = 'the importers read files only; write the data to a file first (e.g. `gunzip -k data.csv.gz`) and give its path';

/** {@link fileProblem}, with a pipe (a read at an offset fails: ESPIPE) and `-` (no such file) said as such. */
export function inputFileProblem(err: unknown): string {
  const e = err as NodeJS.ErrnoException | null;
  if (e?.code === 'ESPIPE') return `is a pipe, not a file: ${FILES_ONLY}`;
  if (e?.code === 'ENOENT' && e.path === '-') return `not found (\`-\`, standard input, is not read): ${FILES_ONLY}`;
  return fileProblem(err);
}

/**
 * Why the file at `path` cannot be an importer's text input, said after its name ("not
 * found", "is a pipe, not a file: ...", "is gzip-compressed: ..."), or undefined when it can
 * be: the check `import osm` and `import fhrs` make before reading a row.
 */
export function textInputProblem(path: string): string | undefined {
  try {
    return binaryFormatProblem(fileHead(path));
  } catch (err) {
    return inputFileProblem(err);
  }
}

/** Parquet's magic number, at a file's start and end (its footer ends with it). */
const PAR1 = Buffer.from('PAR1', 'latin1');
/** The magic number, the footer's 4-byte length and the magic number again. */
const SMALLEST_PARQUET_BYTES = 12;

/**
 * Why the file at `path` cannot be read as Parquet, said after its name, for the files that
 * the Parquet reader would otherwise report in its own terms (audit 68e F5): a pipe, an empty
 * file, a compressed one, and a Parquet file cut short (its footer, at the end, is missing).
 * Undefined when it may be Parquet (the reader then says what else is wrong).
 */
export function parquetInputProblem(path: string): string | undefined {
  let head: Buffer;
  let size: number;
  try {
    size = statSync(path).size;
    head = fileHead(path, 4);
  } catch (err) {
    return inputFileProblem(err);
  }
  if (size === 0) return 'is empty: a GeoParquet file of Overture places is expected';
  // a file that does not start as Parquet: a compressed one is named, other text is left to the reader's hints
  if (!head.equals(PAR1)) return binaryFormatProblem(head);
  // its mark, the footer's length and its mark again at the least (audit 77e F2: a 4-byte "PAR1" was the reader's "Offset is outside the bounds of the DataView")
  if (size < SMALLEST_PARQUET_BYTES) return `is truncated (${size} bytes; a Parquet file holds at least ${SMALLEST_PARQUET_BYTES}): the file was cut short; download it again`;
  return fileTail(path, size, PAR1.length).equals(PAR1) ? undefined : 'is truncated (no Parquet footer): the file was cut short; download it again';
}
