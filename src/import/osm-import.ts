import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { withoutByteOrderMark } from '../data/byte-order-mark.js';
import { VenueSearchError } from '../errors.js';
import type { VenueRecord } from '../schema/venue.js';
import { checkOsmOptions } from './import-options.js';
import { ImportReport } from './import-report.js';
import { inputFileProblem, textInputProblem } from './input-file.js';
import type { OpeningHoursConversion } from './osm-opening-hours.js';
import { featureCollectionRows, holdsFeatures, isFeature, isPointsLineFile, namesOsmElement, pointsLineIdProblem, pointsLineRow, POINTS_LINE_ID_FORMS, beginsJsonTextSequence, withoutRecordSeparator, type OsmRow } from './osm-sources.js';
import { LineRecords, splitAfterValue, type LineRecord } from './osm-line-records.js';
import { OSM_TWIN_METERS } from './osm-node-way-twins.js';
import { OsmTwinTally } from './osm-twin-tally.js';
import { WrittenOsmIds } from './osm-written-ids.js';
import { mapOsmElement } from './osm-to-venue.js';
import { MAX_LINE_BYTES, utf8FileStream, utf8Text } from './utf8-file.js';
import { venueSchemaError } from './venue-check.js';
import { fhrsGivenToOsm, looksLikeVenues, notJsonForOsm, snapshotGivenToImporter, VENUES_HINT } from './wrong-importer.js';

/**
 * OSM import: rows (see osm-sources.ts) to venue records, with a report.
 *
 * `importOsm(path)` returns at once with `records`, an async iterable that reads the file
 * and yields records one by one, and `report`, which is complete when the iteration ends.
 * GeoJSON files are parsed whole (a FeatureCollection is one JSON value; the largest real
 * extract is 3.6 MB); NDJSON point files are read line by line.
 */
export interface ImportOptions {
  /** Name shown in the report (default: the file's base name). */
  readonly source?: string | undefined;
  /** Called after each input row with rows read so far and the total when known. */
  readonly onProgress?: ((read: number, total: number | undefined) => void) | undefined;
  /** Opening-hours conversions by value, shared between runs (parsing costs ~1 ms a value). */
  readonly hoursCache?: Map<string, OpeningHoursConversion> | undefined;
}

export interface ImportRun {
  readonly records: AsyncIterable<VenueRecord>;
  readonly report: ImportReport;
}

type Rows = Iterable<OsmRow> | AsyncIterable<OsmRow>;

async function* mapRows(rows: Rows, report: ImportReport, options: ImportOptions, total?: () => number | undefined): AsyncGenerator<VenueRecord> {
  const ctx = { report, hoursCache: options.hoursCache ?? new Map<string, OpeningHoursConversion>() };
  /** The ids written, and what the twin count reads of each record written, in typed arrays (a few tens of bytes a record: audit 68e F7); the records themselves stream on. */
  const seen = new WrittenOsmIds();
  const twins = new OsmTwinTally();
  for await (const row of rows) {
    if (row.kind === 'skip') {
      report.read++;
      report.skip(row.reason, row.ref, row.detail);
    } else {
      const ref = `${row.element.type}/${row.element.id}`;
      // A derived row counts as derived whatever happens to it, so the balance holds.
      if (row.kind === 'element') report.read++;
      else report.derived++;
      const out = mapOsmElement(row.element, ctx);
      const error = out.ok ? (seen.has(out.record.id) ? 'duplicate' : venueSchemaError(out.record)) : undefined;
      if (!out.ok) report.skip(out.reason, ref, out.detail);
      else if (error === 'duplicate') report.skip('duplicate_id', ref);
      else if (error !== undefined) report.skip('invalid_record', ref, error);
      else {
        if (row.kind === 'derived') report.count(`site relations built from ${row.from.length} member ways`);
        seen.add(out.record.id);
        twins.add(out.record);
        report.written++;
        yield out.record;
      }
    }
    options.onProgress?.(report.read, total?.());
  }
  const twinCount = twins.count();
  if (twinCount > 0) report.count(POSSIBLE_TWINS_COUNTER, twinCount);
}

/** Counted by `import osm`: OSM places written twice, a node and its building (osm-node-way-twins.ts), left for `import merge` to fold. */
export const POSSIBLE_TWINS_COUNTER = `possible twins: a node and a way/relation of one name and genre within ${OSM_TWIN_METERS} m (import merge folds them)`;

/** Maps rows that are already in memory or streamed by the caller. */
export function importOsmRows(rows: Rows, given?: ImportOptions): ImportRun {
  const options = checkOsmOptions(given);
  const report = new ImportReport(options.source ?? 'osm');
  return { report, records: mapRows(rows, report, options) };
}

async function* lineRows(path: string): AsyncGenerator<OsmRow> {
  const input = utf8FileStream(path, 'OSM', { maxLineBytes: MAX_LINE_BYTES }).setEncoding('utf8');
  const reader = createInterface({ input, crlfDelay: Infinity });
  // readline does not forward stream errors (a missing file, bytes not UTF-8) to its iterator: the first is kept and
  // the reader closed, which ends the iteration, and it is thrown after the line being read. (Racing each line against
  // one promise that never settles kept a reaction per line alive, ~1 KB a line: audit 68e F7.)
  let failure: unknown;
  input.once('error', (err) => {
    failure ??= err;
    reader.close();
  });
  const lines = reader[Symbol.asyncIterator]();
  const failIfFailed = (): void => {
    if (failure === undefined) return;
    if (failure instanceof VenueSearchError) throw failure;
    throw new VenueSearchError('invalid_data', `OSM file ${path} ${inputFileProblem(failure)}`, { file: path });
  };
  let n = 0;
  /** Records (lines, or a JSON text sequence's records: osm-line-records.ts) that are not blank, and those among them holding an OSM id (an OSM points file's kind). */
  let nonBlank = 0;
  let withOsmId = 0;
  let firstValue: unknown;
  /** The first record with an osm_id of a form not read, and why (said when no record names an element). */
  let firstIdProblem: string | undefined;
  /** The records that are GeoJSON Features, read together after the other records. */
  const features: unknown[] = [];
  const records = new LineRecords();
  /** The row of one record, or undefined for a blank one or a Feature (held in `features`). */
  function recordRow({ text, line }: LineRecord): OsmRow | undefined {
    if (text.trim() === '') return undefined;
    nonBlank++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { kind: 'skip', ref: `line ${line}`, reason: 'malformed_line', detail: (err as Error).message.slice(0, 80) };
    }
    return valueRow(value, line);
  }
  /** The rows of one record: a sequence record with stray lines after its value gives that value's row, then theirs (skipped as malformed lines are). */
  function* rowsOf(record: LineRecord): Generator<OsmRow> {
    const split = records.isSequence && !isJson(record.text) ? splitAfterValue(record) : undefined;
    if (split !== undefined && isJson(split[0].text)) {
      for (const part of split) yield* rowsOf(part);
      return;
    }
    const row = recordRow(record);
    if (row !== undefined) yield row;
  }
  function valueRow(value: unknown, line: number): OsmRow | undefined {
    if (nonBlank === 1) firstValue = value;
    if (isFeature(value)) {
      // read with the other Features once all are in: a site relation's members may come later
      features.push(value);
      if (namesOsmElement(value)) withOsmId++;
      return undefined;
    }
    const row = pointsLineRow(value, line);
    if (namesOsmElement(value)) withOsmId++;
    else if (firstIdProblem === undefined) {
      const problem = pointsLineIdProblem(value);
      if (problem !== undefined) firstIdProblem = `line ${line}: ${problem}`;
    }
    return row;
  }
  for (;;) {
    let next: IteratorResult<string> | undefined;
    try {
      next = await lines.next();
    } catch (err) {
      failure ??= err;
    }
    failIfFailed();
    if (next === undefined || next.done === true) break;
    n++;
    // A byte order mark (some Windows editors write one) is not part of the first line.
    for (const record of records.push(n === 1 ? withoutByteOrderMark(next.value) : next.value, n)) yield* rowsOf(record);
  }
  for (const record of records.end()) yield* rowsOf(record);
  // GeoJSON Features one a line (GeoJSONSeq, `jq -c '.features[]'`) or one a sequence record: rows as of their FeatureCollection (audit 67a F5)
  if (features.length > 0) yield* featureCollectionRows(features);
  const unit = records.isSequence ? 'record' : 'line';
  if (withOsmId === 0) throw notAnOsmFile(path, nonBlank === 0 ? `holds no ${unit}s` : noElementLine(unit, nonBlank, firstValue, firstIdProblem), 'points NDJSON');
}

/** True when `text` is one JSON text. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Why a points file with lines names no element: venue records already imported, or the first osm_id of a form not read (audit 66g F6). */
function noElementLine(unit: 'line' | 'record', count: number, firstValue: unknown, firstIdProblem: string | undefined): string {
  if (looksLikeVenues(firstValue)) return `has no ${unit} with an osm_id among its ${count}: ${VENUES_HINT}`;
  if (firstIdProblem !== undefined) return `has no ${unit} naming an OSM element among its ${count}: ${firstIdProblem}`;
  return `has no ${unit} with an osm_id among its ${count}`;
}

/** Refuses a missing file, a compressed or binary one, a snapshot or an FHRS CSV, in one line naming it (before any row is read). */
function refuseBinary(path: string): void {
  const problem = textInputProblem(path) ?? snapshotGivenToImporter(path) ?? fhrsGivenToOsm(path);
  if (problem !== undefined) throw new VenueSearchError('invalid_data', `OSM file ${path} ${problem}`, { file: path });
}

/** The error for a file that is not of the kind its importer reads (not an import with every row skipped). */
function notAnOsmFile(path: string, why: string, kind: 'points NDJSON' | 'GeoJSON'): VenueSearchError {
  const expected = kind === 'GeoJSON' ? 'an Overpass or Veggiekarte GeoJSON FeatureCollection expected' : `{osm_id, lat, lon, tags} lines expected, ${POINTS_LINE_ID_FORMS}`;
  return new VenueSearchError('invalid_data', `OSM file ${path} ${why} (${expected})`, { file: path });
}

/** What a JSON value is, for an error: `a GeoJSON Feature`, `a JSON array`, `an object without a "features" array`. */
function describeJson(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array';
  if (value === null || typeof value !== 'object') return `a JSON ${value === null ? 'null' : typeof value}`;
  const type = (value as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'FeatureCollection') return `a GeoJSON ${type.slice(0, 40)}`;
  return 'an object without a "features" array';
}

/** Imports an OSM file: Overpass or Veggiekarte GeoJSON, or a points NDJSON file. */
export function importOsm(path: string, given?: ImportOptions): ImportRun {
  const options = checkOsmOptions(given);
  const report = new ImportReport(options.source ?? basename(path));
  let total: number | undefined;
  async function* rows(): AsyncGenerator<OsmRow> {
    refuseBinary(path);
    if (isPointsLineFile(path)) {
      yield* lineRows(path);
      return;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (err) {
      throw new VenueSearchError('invalid_data', `OSM file ${path} ${inputFileProblem(err)}`, { file: path });
    }
    let text = utf8Text(bytes, 'OSM', path);
    text = withoutByteOrderMark(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      // GeoJSON Features one a line, or a JSON text sequence, under another name (`.geojson`, `.json`): read as lines (audit 67a F5, 68b F4)
      if (beginsJsonTextSequence(text) || isFeature(firstLineValue(text))) {
        yield* lineRows(path);
        return;
      }
      const why = notJsonForOsm(path) ?? `is not readable JSON: ${(err as Error).message.slice(0, 200)}`;
      throw new VenueSearchError('invalid_data', `OSM file ${path} ${why}`, { file: path });
    }
    // a FeatureCollection, or a JSON array of Features (audit 67a F5)
    if (!holdsFeatures(value)) throw notAnOsmFile(path, `holds ${describeJson(value)}`, 'GeoJSON');
    const all = featureCollectionRows(value);
    total = all.filter((r) => r.kind !== 'derived').length;
    yield* all;
  }
  return { report, records: mapRows(rows(), report, options, () => total) };
}

/** The JSON value of a text's first line (without a GeoJSON text sequence's RS), or undefined when that line is not whole JSON. */
function firstLineValue(text: string): unknown {
  const end = text.indexOf('\n');
  try {
    return JSON.parse(withoutRecordSeparator(end === -1 ? text : text.slice(0, end))) as unknown;
  } catch {
    return undefined;
  }
}

/** Collects a run into an array (for callers that want everything at once). */
export async function collectRun(run: ImportRun): Promise<{ records: VenueRecord[]; report: ImportReport }> {
  const records: VenueRecord[] = [];
  for await (const r of run.records) records.push(r);
  return { records, report: run.report };
}
