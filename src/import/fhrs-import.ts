import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'csv-parse';
import { fileProblem, isFileError } from '../data/file-problem.js';
import { VenueSearchError } from '../errors.js';
import type { VenueRecord } from '../schema/venue.js';
import { DEFAULT_MAX_KM_FROM_AUTHORITY, fhrsFarFromAuthority, fhrsRowToVenue, type FhrsRow } from './fhrs-to-venue.js';
import { ImportReport } from './import-report.js';
import type { ImportOptions, ImportRun } from './osm-import.js';
import { admitRecord } from './venue-check.js';

/**
 * FHRS import: a CSV with the FSA API's column names (header row, RFC 4180) to venue
 * records. The rows are read first (the far-from-authority check needs each authority's
 * median point; 33,000 London rows are 6.5 MB), then mapped and yielded one by one.
 */
export interface FhrsImportOptions extends ImportOptions {
  /** Skip rows further than this from their authority's median point (km); `Infinity` keeps all. */
  readonly maxKmFromAuthority?: number;
}

async function readRows(path: string): Promise<FhrsRow[]> {
  const rows: FhrsRow[] = [];
  const input = createReadStream(path);
  const parser = parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true });
  // pipe() does not forward a read error (a missing file) to the parser: do it here.
  input.once('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const row of parser) rows.push(row as FhrsRow);
  } catch (err) {
    const why = isFileError(err) ? fileProblem(err) : `is not readable CSV: ${(err as Error).message}`;
    throw new VenueSearchError('invalid_data', `FHRS file ${path} ${why}`, { file: path });
  }
  if (rows.length > 0 && !('FHRSID' in (rows[0] as object))) {
    throw new VenueSearchError('invalid_data', `FHRS file ${path} has no FHRSID column; got ${Object.keys(rows[0] as object).slice(0, 5).join(', ')}`, {
      file: path,
    });
  }
  return rows;
}

async function* mapRows(rows: readonly FhrsRow[], report: ImportReport, options: FhrsImportOptions): AsyncGenerator<VenueRecord> {
  const maxKm = options.maxKmFromAuthority ?? DEFAULT_MAX_KM_FROM_AUTHORITY;
  const far = Number.isFinite(maxKm) ? fhrsFarFromAuthority(rows, maxKm) : new Map<string, number>();
  const seen = new Set<string>();
  for (const row of rows) {
    report.read++;
    const ref = `fhrs:${row.FHRSID?.trim() || `row ${report.read}`}`;
    const out = fhrsRowToVenue(row);
    const km = row.FHRSID ? far.get(row.FHRSID.trim()) : undefined;
    if (!out.ok) report.skip(out.reason, ref, out.detail);
    else if (km !== undefined) {
      report.skip('far_from_local_authority', ref, `${km.toFixed(0)} km from ${row.LocalAuthorityName ?? '?'}`);
    } else if (admitRecord(out.record, ref, seen, report)) yield out.record;
    options.onProgress?.(report.read, rows.length);
  }
}

/** Maps FHRS rows already in memory (for example parsed by the caller). */
export function importFhrsRows(rows: readonly FhrsRow[], options: FhrsImportOptions = {}): ImportRun {
  const report = new ImportReport(options.source ?? 'fhrs');
  return { report, records: mapRows(rows, report, options) };
}

/** Imports an FHRS CSV file. */
export function importFhrs(path: string, options: FhrsImportOptions = {}): ImportRun {
  const report = new ImportReport(options.source ?? basename(path));
  async function* records(): AsyncGenerator<VenueRecord> {
    yield* mapRows(await readRows(path), report, options);
  }
  return { report, records: records() };
}
