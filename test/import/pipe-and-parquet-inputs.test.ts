import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun, importFhrs, importOverture } from '../../src/import/index.js';
import { importOsm } from '../../src/import/osm-import.js';
import { refusal } from './support/refusal.js';
import { scratchFolder } from './support/scratch-files.js';

/**
 * Audit 68e F4, F5: real files given through a named pipe or as `-`, and the Overture sample
 * emptied, gzipped and cut short: each refused in one line naming the file in the words every
 * importer uses, not a raw errno or the Parquet reader's internals. Messages written by hand.
 */
const DATA = new URL('../../../shared/data/', import.meta.url).pathname;
const PUBS_POINTS = DATA + 'osm-london-pubs/london_pubs_points.ndjson';
const FHRS = DATA + 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv';
const PARQUET = DATA + 'overture-places-sample/overture_places_us_sample.parquet';
const present = [PUBS_POINTS, FHRS, PARQUET].every(existsSync);
const { dir, file } = scratchFolder('venue-pipe-parquet-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
});


const FILES_ONLY = 'the importers read files only; write the data to a file first (e.g. `gunzip -k data.csv.gz`) and give its path';

/** A named pipe that a child process writes `source` into (it blocks until the importer opens it). */
function pipeOf(name: string, source: string): string {
  const fifo = join(dir, name);
  execFileSync('mkfifo', [fifo]);
  const child = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', source, fifo], { stdio: 'ignore' });
  child.on('error', () => {});
  children.push(child);
  return fifo;
}

describe.skipIf(!present)('audit 68e F4: a pipe or `-` given to an importer is said to be one, not a raw errno', () => {
  it('import fhrs, osm and overture on a named pipe: "is a pipe, not a file"', async () => {
    const fhrs = pipeOf('fhrs.pipe', FHRS);
    expect(await refusal(() => collectRun(importFhrs(fhrs)))).toBe(`FHRS file ${fhrs} is a pipe, not a file: ${FILES_ONLY}`);
    const osm = pipeOf('osm.pipe', PUBS_POINTS);
    expect(await refusal(() => collectRun(importOsm(osm)))).toBe(`OSM file ${osm} is a pipe, not a file: ${FILES_ONLY}`);
    const overture = pipeOf('overture.pipe', PARQUET);
    expect(await refusal(() => collectRun(importOverture(overture)))).toBe(`Overture file ${overture} is a pipe, not a file: ${FILES_ONLY}`);
  });

  it('`-` for standard input: "not found", saying that standard input is not read', async () => {
    expect(await refusal(() => collectRun(importOsm('-')))).toBe(`OSM file - not found (\`-\`, standard input, is not read): ${FILES_ONLY}`);
    expect(await refusal(() => collectRun(importFhrs('-')))).toBe(`FHRS file - not found (\`-\`, standard input, is not read): ${FILES_ONLY}`);
  });
});

describe.skipIf(!present)('audit 68e F5: import overture says "is empty", "is gzip-compressed" and "truncated" as the other importers do', () => {
  it('an empty file, the sample gzipped, the sample cut at 400,000 bytes', async () => {
    const empty = file('empty.parquet', '');
    expect(await refusal(() => collectRun(importOverture(empty)))).toBe(`Overture file ${empty} is empty: a GeoParquet file of Overture places is expected`);
    const gz = file('sample.parquet.gz', gzipSync(readFileSync(PARQUET)));
    expect(await refusal(() => collectRun(importOverture(gz)))).toBe(`Overture file ${gz} is gzip-compressed: decompress it first (gunzip)`);
    const cut = file('cut.parquet', readFileSync(PARQUET).subarray(0, 400_000));
    expect(await refusal(() => collectRun(importOverture(cut)))).toBe(`Overture file ${cut} is truncated (no Parquet footer): the file was cut short; download it again`);
  });
});
