import { statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { Command, InvalidArgumentError } from 'commander';
import { IMPORT_OSM_HINT } from '../data/raw-source.js';
import { readVenues } from '../data/read-venues.js';
import { isVenueSearchError, VenueSearchError } from '../errors.js';
import { countryExtent } from '../import/country-extent.js';
import type { VenueRecord } from '../schema/venue.js';
import type { ImportReport } from '../import/import-report.js';
import { ImportOutput, outputFileName, sameOutputFile } from './output-file.js';
import { cutAtWord } from './cut-at-word.js';
import { progressBar, type ProgressBar } from './progress-bar.js';
import type { ImportRun } from '../import/osm-import.js';
import type { OvertureImportOptions } from '../import/overture-import.js';
// The importers (Parquet, CSV and OSM readers) are loaded by the command that runs them, so
// that `serve` and the other commands do not pay for loading them at start.
import type { LonLatBox } from '../import/overture-to-venue.js';

/**
 * `venue-search import osm|fhrs|overture|merge`: venue records as NDJSON to a file (`-o`) or stdout,
 * a progress bar on stderr when it is a terminal, and the report on stderr at the end
 * (`--report-json` writes it as JSON too).
 */
export interface ImportCommandIo {
  readonly stdout: Writable;
  readonly stderr: Writable & { isTTY?: boolean };
}

interface OutputOptions {
  output?: string;
  reportJson?: string;
}

/**
 * One import's output: the output (and `--report-json`) opened before any work, `produce`
 * run, its records written as NDJSON lines, then the report. When anything fails, the output
 * and the report are discarded: no partial file is left (output-file.ts). `finish` runs once
 * the records are written or the run failed (the progress bar stops).
 */
async function writeImport(
  inputs: readonly string[],
  options: OutputOptions,
  io: ImportCommandIo,
  produce: () => Promise<{ records: AsyncIterable<VenueRecord> | Iterable<VenueRecord>; report: ImportReport }>,
  finish: () => void = () => {},
): Promise<void> {
  const { output, reportJson } = options;
  if (reportJson !== undefined && output !== undefined && output !== '-' && sameOutputFile(output, reportJson)) {
    throw new VenueSearchError('invalid_request', `--report-json ${reportJson} is the file --output writes (${output}): give each its own file`, { param: '--report-json', value: reportJson });
  }
  // An output onto an input would replace the data it is read from (a slip of tab completion).
  for (const [option, path] of [['--output', output], ['--report-json', reportJson]] as const) {
    const input = path === undefined || path === '-' ? undefined : inputs.find((file) => sameOutputFile(path, file));
    if (input !== undefined) throw new VenueSearchError('invalid_request', `${option} ${path} is the input ${input}: the import would replace what it reads; give another file`, { param: option, value: path });
  }
  const out = await ImportOutput.open(output, io.stdout);
  let reportOut: ImportOutput | null = null;
  let report: ImportReport;
  try {
    reportOut = reportJson ? await ImportOutput.open(reportJson, null, '--report-json') : null;
    const produced = await produce();
    report = produced.report;
    for await (const record of produced.records) await out.writeLine(`${JSON.stringify(record)}\n`);
    finish();
    // Both written whole before either is put in place: a report that cannot be written
    // leaves the output as it was too.
    await out.flush();
    if (reportOut !== null) {
      await reportOut.writeLine(`${JSON.stringify(report.toJSON(), null, 2)}\n`);
      await reportOut.flush();
    }
    await out.commit();
  } catch (err) {
    finish();
    out.discard();
    reportOut?.discard();
    throw err;
  }
  io.stderr.write(`${report.format()}\n`);
  // an empty output is likely a filter that matched nothing (--country, --bbox) or the wrong file: serve and snapshot refuse one
  if (report.written === 0) {
    io.stderr.write('warning: no venue was written; serve and snapshot refuse a file of no venues (a live-data service, serve --admin-token-file, starts from one, to be filled through PUT /admin/venues)\n');
    if (report.emptyHint !== undefined) io.stderr.write(`  ${report.emptyHint}\n`);
  }
  // Only a rename is left (it fails if a folder was put in the report's way meanwhile): the output is in place.
  await reportOut?.commit(output === undefined || output === '-' ? 'the output' : `--output ${output}`);
}

/** `inputs`: every file the import reads (default: `input` itself), none of which an output may be. */
async function runImport(input: string, make: (onProgress: (r: number, t: number | undefined) => void) => ImportRun, options: OutputOptions, io: ImportCommandIo, inputs: readonly string[] = [input]): Promise<void> {
  const bar = progressBar(io.stderr);
  await writeImport([input, ...inputs], options, io, async () => make(bar.update), () => bar.stop());
}

/** A decimal number as written on a command line (`40`, `2.5`, `.5`, `1e3`): not `0x10`, `Infinity` or an empty string, which Number() takes. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function decimal(value: string): number {
  const n = DECIMAL.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : Number.NaN;
}

/** --report-json: a file (`-` would mix the report into the records on stdout). */
function reportFile(value: string): string {
  outputFileName(value);
  if (value === '-') throw new InvalidArgumentError('the report is written to a file, not to stdout (which carries the records with -o -): give a file');
  return value;
}

function positiveNumber(value: string): number {
  const n = decimal(value);
  if (!(n > 0)) throw new InvalidArgumentError(`expected a positive number of kilometres; got ${JSON.stringify(value)}`);
  return n;
}

function confidence(value: string): number {
  const n = decimal(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError(`expected a number from 0 to 1; got ${JSON.stringify(value)}`);
  return n;
}

/** An ISO 3166-1 alpha-2 code the importer knows (checked now, so the error names the option before any work). */
function countryCode(value: string): string {
  try {
    countryExtent(value);
  } catch (err) {
    if (isVenueSearchError(err)) throw new InvalidArgumentError(err.message.replace(/^country must be/, 'must be'));
    throw err;
  }
  return value;
}

/** `west,south,east,north` in degrees; west > east crosses the antimeridian. */
function lonLatBox(value: string): LonLatBox {
  const parts = value.split(',').map((p) => (p.trim() === '' ? NaN : Number(p)));
  const [west, south, east, north] = parts as [number, number, number, number];
  const ok = parts.length === 4 && [west, east].every((v) => Math.abs(v) <= 180) && [south, north].every((v) => Math.abs(v) <= 90) && south <= north;
  if (!ok) throw new InvalidArgumentError(`expected west,south,east,north in degrees (longitude -180..180, latitude -90..90, south <= north); got ${JSON.stringify(value)}`);
  return { west, south, east, north };
}

/** A record's error without the "<file>: line N, " it starts with, which the merge's message names already. */
function withoutPlace(message: string, file: string, line: number): string {
  const rest = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
  // "line 4, venue ..." (a record refused) or "line 1: not a venues file ..." (a line not JSON)
  return rest.startsWith(`line ${line}, `) || rest.startsWith(`line ${line}: `) ? rest.slice(`line ${line}, `.length) : rest;
}

/**
 * The error for a `merge` input holding no venue record: most likely a raw source (an OSM,
 * FHRS or gzip file) given where imported venues are expected. Its records would all be
 * skipped, and the merge would write the other inputs alone. The advice to import first is
 * said once: when the first record's error tells a raw OSM element (IMPORT_OSM_HINT), that
 * hint becomes the advice, in place of the general one; when it advises importing already
 * (readVenues' "not a venues file"), none is added (audit 64a F19).
 */
function noVenueRecords(file: string, rejects: ReadonlyArray<{ line: number; error: Error }>): VenueSearchError {
  const first = rejects[0];
  if (first === undefined) return new VenueSearchError('invalid_data', `merge input ${file} holds no venue records`, { file });
  const message = withoutPlace(first.error.message, file, first.line);
  const rawOsm = message.endsWith(IMPORT_OSM_HINT);
  const quoted = cutAtWord(rawOsm ? message.slice(0, -IMPORT_OSM_HINT.length) : message, 300);
  // readVenues' "not a venues file" (a CSV given) advises importing already
  const advice = rawOsm
    ? '; a raw OpenStreetMap export is imported first (`venue-search import osm`), then merged'
    : / is imported first \(/.test(message)
      ? ''
      : '; a raw OSM, FHRS or Overture file is imported first (`venue-search import osm|fhrs|overture`), then merged';
  return new VenueSearchError('invalid_data', `merge input ${file} holds no venue records: all ${rejects.length} are invalid (line ${first.line}: ${quoted})${advice}`, { file });
}

export function registerImportCommands(program: Command, io: ImportCommandIo = { stdout: process.stdout, stderr: process.stderr }): void {
  const imp = program.command('import').description('import venue records from OpenStreetMap, FSA hygiene data or Overture Maps places (NDJSON out)');

  imp
    .command('osm')
    .description('OSM Overpass or Veggiekarte GeoJSON, or a points NDJSON file, to venue records')
    .argument('<file>', 'input file (.geojson/.json, or .ndjson/.jsonl with {osm_id, lat, lon, tags} lines)')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout', outputFileName)
    .option('--report-json <file>', 'also write the report as JSON, to a file', reportFile)
    .action(async (file: string, options: OutputOptions) => {
      const { importOsm } = await import('../import/osm-import.js');
      await runImport(file, (onProgress) => importOsm(file, { onProgress }), options, io);
    });

  imp
    .command('fhrs')
    .description('FSA Food Hygiene Rating Scheme CSV (API column names) to venue records')
    .argument('<file>', 'input CSV with a header row')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout', outputFileName)
    .option('--report-json <file>', 'also write the report as JSON, to a file', reportFile)
    .option('--max-km-from-authority <km>', 'skip rows geocoded further than this from their local authority (default 40)', positiveNumber)
    .option('--skip-institutional', 'skip Restaurant/Cafe/Canteen rows whose name or address names a nursery, school, college, university, care home, hospital or contract caterer (staff and school canteens)')
    .action(async (file: string, options: OutputOptions & { maxKmFromAuthority?: number; skipInstitutional?: boolean }) => {
      const fhrsOptions = {
        ...(options.maxKmFromAuthority !== undefined ? { maxKmFromAuthority: options.maxKmFromAuthority } : {}),
        ...(options.skipInstitutional === true ? { skipInstitutional: true } : {}),
      };
      const { importFhrs } = await import('../import/fhrs-import.js');
      await runImport(file, (onProgress) => importFhrs(file, { onProgress, ...fhrsOptions }), options, io);
    });

  imp
    .command('overture')
    .description('Overture Maps places GeoParquet (a file, or a folder of .parquet files) to food and drink venue records')
    .argument('<file-or-folder>', 'a .parquet file, or a folder whose .parquet files (and its subfolders\') are read in name order')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout', outputFileName)
    .option('--report-json <file>', 'also write the report as JSON, to a file', reportFile)
    .option('--min-confidence <n>', 'skip places whose confidence is below this (0 to 1, default 0.5)', confidence)
    .option('--bbox <west,south,east,north>', 'keep places inside this box only; row groups outside it are not read', lonLatBox)
    .option('--country <code>', 'keep places whose address is in this country only (ISO alpha-2); row groups far from it are not read', countryCode)
    .action(async (path: string, options: OutputOptions & { minConfidence?: number; bbox?: LonLatBox; country?: string }) => {
      const overture: OvertureImportOptions = {
        ...(options.minConfidence !== undefined ? { minConfidence: options.minConfidence } : {}),
        ...(options.bbox !== undefined ? { bbox: options.bbox } : {}),
        ...(options.country !== undefined ? { country: options.country } : {}),
      };
      const { importOverture, parquetFiles } = await import('../import/overture-import.js');
      // a folder's .parquet files are inputs too: -o onto one of them would replace it
      await runImport(path, (onProgress) => importOverture(path, { onProgress, ...overture }), options, io, await parquetFiles(path));
    });

  imp
    .command('merge')
    .description(
      'merge imported NDJSON files: OSM records take the gaps from the FHRS records their fhrs:id names or that match them (same name within 50 m, or within 200 m at the same postcode and house number; second registrations folded in) and from the Overture records they match (same name within 50 m, or website or phone and compatible names within 100 m); docs/import.md "Merge" gives every rule',
    )
    .argument('<files...>', 'venue files (NDJSON, JSON or GeoJSON, as readVenues reads them)')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout', outputFileName)
    .option('--report-json <file>', 'also write the report as JSON, to a file', reportFile)
    .action(async (files: string[], options: OutputOptions) => {
      const bar = progressBar(io.stderr, 'bytes');
      await writeImport(files, options, io, () => mergeFiles(files, bar), () => bar.stop());
    });
}

/** The merge of the imported files' venues, and its report; `bar` shows the bytes of all the inputs read (on a terminal). */
async function mergeFiles(files: readonly string[], bar: ProgressBar) {
  const all: VenueRecord[] = [];
  const rejected: Array<{ file: string; line: number; message: string }> = [];
  // the inputs' sizes (an input that cannot be read is named by readVenues below)
  const sizes = files.map((file) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  });
  const total = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  const { snapshotGivenToMerge } = await import('../import/wrong-importer.js');
  for (const [k, file] of files.entries()) {
    const snapshot = snapshotGivenToMerge(file);
    if (snapshot !== undefined) throw new VenueSearchError('invalid_data', `merge input ${file} ${snapshot}`, { file });
    const { venues, rejects } = await readVenues(file, { onInvalid: 'skip', onProgress: (p) => bar.update(before + p.bytes, total) });
    before += sizes[k]!;
    if (venues.length === 0) throw noVenueRecords(file, rejects);
    // one at a time: push(...venues) passes every venue as an argument, past V8's stack above ~110k
    for (const venue of venues) all.push(venue);
    for (const r of rejects) rejected.push({ file, line: r.line, message: r.error.message });
  }
  const { mergeVenues } = await import('../import/merge.js');
  const { records, report } = mergeVenues(all);
  // Records readVenues rejected count as read and skipped, so the report still adds up.
  for (const r of rejected) {
    report.read++;
    // the ref names the file and line: the detail is the error without them (audit 64a F19)
    report.skip('invalid_input_record', `${r.file}:${r.line}`, withoutPlace(r.message, r.file, r.line).slice(0, 200));
  }
  return { records, report };
}
