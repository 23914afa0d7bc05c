import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, InvalidArgumentError } from 'commander';
import { readVenues } from '../data/read-venues.js';
import type { VenueRecord } from '../schema/venue.js';
import { importFhrs } from '../import/fhrs-import.js';
import type { ImportReport } from '../import/import-report.js';
import { mergeVenues } from '../import/merge.js';
import { progressBar } from './progress-bar.js';
import { importOsm, type ImportRun } from '../import/osm-import.js';

/**
 * `venue-search import osm|fhrs|merge`: venue records as NDJSON to a file (`-o`) or stdout,
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

async function writeLine(out: Writable, line: string): Promise<void> {
  if (!out.write(line)) await once(out, 'drain');
}

async function closeOutput(out: Writable, io: ImportCommandIo): Promise<void> {
  if (out === io.stdout) return;
  out.end();
  await once(out, 'finish');
}

function openOutput(path: string | undefined, io: ImportCommandIo): Writable {
  return path === undefined || path === '-' ? io.stdout : createWriteStream(path, 'utf8');
}

async function writeReport(report: ImportReport, options: OutputOptions, io: ImportCommandIo): Promise<void> {
  io.stderr.write(`${report.format()}\n`);
  if (options.reportJson) {
    const out = createWriteStream(options.reportJson, 'utf8');
    out.end(`${JSON.stringify(report.toJSON(), null, 2)}\n`);
    await once(out, 'finish');
  }
}

async function runImport(make: (onProgress: (r: number, t: number | undefined) => void) => ImportRun, options: OutputOptions, io: ImportCommandIo): Promise<void> {
  const bar = progressBar(io.stderr);
  const run = make(bar.update);
  const out = openOutput(options.output, io);
  try {
    for await (const record of run.records) await writeLine(out, `${JSON.stringify(record)}\n`);
  } finally {
    bar.stop();
    await closeOutput(out, io);
  }
  await writeReport(run.report, options, io);
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(n > 0)) throw new InvalidArgumentError(`expected a positive number of kilometres; got ${JSON.stringify(value)}`);
  return n;
}

export function registerImportCommands(program: Command, io: ImportCommandIo = { stdout: process.stdout, stderr: process.stderr }): void {
  const imp = program.command('import').description('import venue records from OpenStreetMap or FSA hygiene data (NDJSON out)');

  imp
    .command('osm')
    .description('OSM Overpass or Veggiekarte GeoJSON, or a points NDJSON file, to venue records')
    .argument('<file>', 'input file (.geojson/.json, or .ndjson/.jsonl with {osm_id, lat, lon, tags} lines)')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout')
    .option('--report-json <file>', 'also write the report as JSON')
    .action(async (file: string, options: OutputOptions) => {
      await runImport((onProgress) => importOsm(file, { onProgress }), options, io);
    });

  imp
    .command('fhrs')
    .description('FSA Food Hygiene Rating Scheme CSV (API column names) to venue records')
    .argument('<file>', 'input CSV with a header row')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout')
    .option('--report-json <file>', 'also write the report as JSON')
    .option('--max-km-from-authority <km>', 'skip rows geocoded further than this from their local authority (default 40)', positiveNumber)
    .action(async (file: string, options: OutputOptions & { maxKmFromAuthority?: number }) => {
      const fhrsOptions = options.maxKmFromAuthority !== undefined ? { maxKmFromAuthority: options.maxKmFromAuthority } : {};
      await runImport((onProgress) => importFhrs(file, { onProgress, ...fhrsOptions }), options, io);
    });

  imp
    .command('merge')
    .description('merge imported NDJSON files: OSM records take the gaps from the FHRS records their fhrs:id names')
    .argument('<files...>', 'venue files (NDJSON, JSON or GeoJSON, as readVenues reads them)')
    .option('-o, --output <file>', 'write NDJSON here instead of stdout')
    .option('--report-json <file>', 'also write the report as JSON')
    .action(async (files: string[], options: OutputOptions) => {
      const all: VenueRecord[] = [];
      const rejected: Array<{ file: string; line: number; message: string }> = [];
      for (const file of files) {
        const { venues, rejects } = await readVenues(file, { onInvalid: 'skip' });
        all.push(...venues);
        for (const r of rejects) rejected.push({ file, line: r.line, message: r.error.message });
      }
      const { records, report } = mergeVenues(all);
      // Records readVenues rejected count as read and skipped, so the report still adds up.
      for (const r of rejected) {
        report.read++;
        report.skip('invalid_input_record', `${r.file}:${r.line}`, r.message.slice(0, 200));
      }
      const out = openOutput(options.output, io);
      try {
        for (const record of records) await writeLine(out, `${JSON.stringify(record)}\n`);
      } finally {
        await closeOutput(out, io);
      }
      await writeReport(report, options, io);
    });
}
