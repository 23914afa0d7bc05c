import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { isFileError } from '../data/file-problem.js';
import { VenueSearchError } from '../errors.js';
import type { VenueRecord } from '../schema/venue.js';
import { DEFAULT_MAX_KM_FROM_AUTHORITY, fhrsFarFromAuthority, fhrsRowToVenue, type FhrsRow } from './fhrs-to-venue.js';
import { checkFhrsOptions } from './import-options.js';
import { ImportReport } from './import-report.js';
import { fileTail } from '../data/file-problem.js';
import { inputFileProblem, textInputProblem } from './input-file.js';
import type { ImportOptions, ImportRun } from './osm-import.js';
import { admitRecord } from './venue-check.js';
import { jsonGivenToFhrs, snapshotGivenToImporter } from './wrong-importer.js';
import { institutionalWord } from './institutional-names.js';
import { utf8FileStream } from './utf8-file.js';

/**
 * FHRS import: a CSV with the FSA API's column names (header row, RFC 4180) to venue
 * records. The rows are read first (the far-from-authority check needs each authority's
 * median point; 33,000 London rows are 6.5 MB), then mapped and yielded one by one.
 */
export interface FhrsImportOptions extends ImportOptions {
  /** Skip rows further than this from their authority's median point (km); `Infinity` keeps all. */
  readonly maxKmFromAuthority?: number | undefined;
  /**
   * Skip `Restaurant/Cafe/Canteen` rows whose name or address names a nursery, school,
   * college, care home, hospital or contract caterer (institutional-names.ts): staff, school
   * and care-home canteens, not public places to eat. Counted as `institutional_canteen`.
   */
  readonly skipInstitutional?: boolean | undefined;
}

/** Columns a row needs to become a venue (docs/import.md): a file without one of them is refused. */
const REQUIRED_COLUMNS = ['FHRSID', 'BusinessName', 'BusinessType', 'Latitude', 'Longitude'] as const;

/** A row whose number of fields differs from the header's (a cut or broken line): reported, never mapped. */
interface BrokenRow {
  /** The line of the file it ends on (1 = the header). */
  readonly line: number;
  readonly fields: number;
}

interface FhrsFile {
  readonly rows: FhrsRow[];
  readonly broken: BrokenRow[];
  readonly columns: number;
  /** The line of a last row without a line end (a cut download: its last field may be cut inside a number), or undefined. */
  readonly truncatedLine: number | undefined;
}

/** The skip reason of a last row without a line end (audit 68e F6). */
export const TRUNCATED_REASON = 'truncated_line';

async function readRows(path: string): Promise<FhrsFile> {
  const problem = textInputProblem(path) ?? snapshotGivenToImporter(path) ?? jsonGivenToFhrs(path);
  if (problem !== undefined) throw new VenueSearchError('invalid_data', `FHRS file ${path} ${problem}`, { file: path });
  // imported at the first read, not with the package (lazy-package.ts)
  const { parse } = await import('csv-parse');
  const rows: FhrsRow[] = [];
  const broken: BrokenRow[] = [];
  const input = utf8FileStream(path, 'FHRS');
  // Rows as arrays, so that a row with too few or too many fields is seen (a cut last line
  // would otherwise map its cut field: a longitude "-0." read as 0, 4 km off).
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, info: true });
  // pipe() does not forward a read error (a missing file) to the parser: do it here.
  input.once('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | null = null;
  /** The last data row read: its line, and whether it went to `broken`. */
  let last: { line: number; broken: boolean } | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (header === null) {
        header = record;
        checkHeader(path, header);
        continue;
      }
      last = { line: info.lines, broken: record.length !== header.length };
      if (last.broken) broken.push({ line: info.lines, fields: record.length });
      else {
        const row: Record<string, string> = {};
        for (let c = 0; c < header.length; c++) row[header[c]!] = record[c]!;
        rows.push(row);
      }
    }
  } catch (err) {
    if (err instanceof VenueSearchError) throw err;
    const why = isFileError(err) ? inputFileProblem(err) : `is not readable CSV: ${(err as Error).message}`;
    throw new VenueSearchError('invalid_data', `FHRS file ${path} ${why}`, { file: path });
  }
  if (header === null) throw new VenueSearchError('invalid_data', `FHRS file ${path} is empty: a header row (${REQUIRED_COLUMNS.join(', ')}, ...) is expected`, { file: path });
  // Every row above the last ends with a line end (the header's at least): a last one without is cut, not mapped,
  // unless its last field is quoted and closed (a cut inside quotes is refused by the parser).
  let truncatedLine: number | undefined;
  if (last !== undefined && !endsWholeRow(path)) {
    truncatedLine = last.line;
    if (last.broken) broken.pop();
    else rows.pop();
  }
  return { rows, broken, columns: header.length, truncatedLine };
}

/**
 * Whether the file at `path` (not empty) ends with a whole row: a line feed or carriage return,
 * or the closing quote of a quoted last field (`...,"-0.0793"`: a row that cannot have been cut
 * within its last value; audit 68i F2: such a row was dropped as cut).
 */
function endsWholeRow(path: string): boolean {
  const byte = fileTail(path, statSync(path).size, 1)[0];
  return byte === 10 || byte === 13 || byte === 0x22;
}

/** Refuses a header without a column a venue needs, naming the missing ones and the first columns found. */
function checkHeader(path: string, header: readonly string[]): void {
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length === 0) return;
  const found = header.slice(0, 5).map((c) => JSON.stringify(c.slice(0, 40))).join(', ');
  throw new VenueSearchError('invalid_data', `FHRS file ${path} has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''} (the FSA API's column names are expected); its header starts ${found}`, {
    file: path,
  });
}

async function* mapRows(rows: readonly FhrsRow[], report: ImportReport, options: FhrsImportOptions, file?: FhrsFile): AsyncGenerator<VenueRecord> {
  const broken = file?.broken ?? [];
  for (const b of broken) {
    report.read++;
    report.skip('wrong_column_count', `line ${b.line}`, `${b.fields} fields, the header has ${file!.columns}`);
  }
  const truncated = file?.truncatedLine;
  if (truncated !== undefined) {
    report.read++;
    report.skip(TRUNCATED_REASON, `line ${truncated}`, 'the last row has no line end: the file looks cut short');
  }
  const maxKm = options.maxKmFromAuthority ?? DEFAULT_MAX_KM_FROM_AUTHORITY;
  const far = Number.isFinite(maxKm) ? fhrsFarFromAuthority(rows, maxKm) : new Map<string, number>();
  const seen = new Set<string>();
  let canteen: string | undefined;
  for (const row of rows) {
    report.read++;
    const ref = `fhrs:${row.FHRSID?.trim() || `row ${report.read}`}`;
    const out = fhrsRowToVenue(row);
    const km = row.FHRSID ? far.get(row.FHRSID.trim()) : undefined;
    if (!out.ok) report.skip(out.reason, ref, out.detail);
    else if (km !== undefined) {
      report.skip('far_from_local_authority', ref, `${km.toFixed(0)} km from ${row.LocalAuthorityName ?? '?'}`);
    } else if (options.skipInstitutional === true && (canteen = institutionalCanteen(row, out.record)) !== undefined) {
      report.skip(INSTITUTIONAL_REASON, ref, canteen);
    } else if (admitRecord(out.record, ref, seen, report)) yield out.record;
    options.onProgress?.(report.read, rows.length + broken.length + (truncated === undefined ? 0 : 1));
  }
}

/** The skip reason of `skipInstitutional`. */
export const INSTITUTIONAL_REASON = 'institutional_canteen';

/** For a `Restaurant/Cafe/Canteen` row whose name or address names an institution, that word; else undefined. */
function institutionalCanteen(row: FhrsRow, record: VenueRecord): string | undefined {
  if (row.BusinessType?.trim() !== 'Restaurant/Cafe/Canteen') return undefined;
  return institutionalWord(record.name, record.formattedAddress);
}

/** Maps FHRS rows already in memory (for example parsed by the caller). */
export function importFhrsRows(rows: readonly FhrsRow[], given?: FhrsImportOptions): ImportRun {
  const options = checkFhrsOptions(given);
  const report = new ImportReport(options.source ?? 'fhrs');
  return { report, records: mapRows(rows, report, options) };
}

/** Imports an FHRS CSV file. */
export function importFhrs(path: string, given?: FhrsImportOptions): ImportRun {
  const options = checkFhrsOptions(given);
  const report = new ImportReport(options.source ?? basename(path));
  async function* records(): AsyncGenerator<VenueRecord> {
    const file = await readRows(path);
    yield* mapRows(file.rows, report, options, file);
  }
  return { report, records: records() };
}
