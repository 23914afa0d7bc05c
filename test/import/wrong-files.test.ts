import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cutAtWord } from '../../src/cli/cut-at-word.js';
import { readVenues } from '../../src/data/read-venues.js';
import { collectRun, importFhrs, importOverture } from '../../src/import/index.js';
import { importOsm } from '../../src/import/osm-import.js';
import { runImportCli } from './support/import-cli.js';
import { scratchFolder } from './support/scratch-files.js';
import { CLI_MAIN } from '../support/cli.js';

/**
 * Real files made messy the way users' files are (a byte order mark, a cut last line, a
 * renamed column, a compressed or wrong file given by mistake): each is read as the clean
 * file is, or refused in one line naming the file and what is wrong; never half-imported
 * with exit status 0. Oracles: the documented counts of the clean files (docs/import.md) and
 * values read from the raw files here.
 */
const DATA = new URL('../../../shared/data/', import.meta.url).pathname;
const PUBS_GEOJSON = DATA + 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const PUBS_POINTS = DATA + 'osm-london-pubs/london_pubs_points.ndjson';
const FHRS = DATA + 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv';
const PARQUET = DATA + 'overture-places-sample/overture_places_us_sample.parquet';
const FIXTURES = new URL('../../fixtures/venues.ndjson', import.meta.url).pathname;
const present = [PUBS_GEOJSON, PUBS_POINTS, FHRS, PARQUET].every(existsSync);
const { dir, file } = scratchFolder('venue-wrong-files-');

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);


describe.skipIf(!present)('import: real files with a byte order mark read as without one', () => {
  it('OSM points NDJSON and GeoJSON with a BOM: the 3,048 London pubs, as documented for the clean files', async () => {
    const points = await collectRun(importOsm(file('bom.ndjson', Buffer.concat([BOM, readFileSync(PUBS_POINTS)]))));
    expect(points.report.written).toBe(3048);
    expect(points.report.skipReasons.has('malformed_line')).toBe(false);
    const geojson = await collectRun(importOsm(file('bom.geojson', Buffer.concat([BOM, readFileSync(PUBS_GEOJSON)]))));
    expect(geojson.report.written).toBe(3048);
  });

  it('readVenues of the fixtures with a BOM: every line read, none rejected (line count by hand)', async () => {
    const lines = readFileSync(FIXTURES, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    const { venues, rejects } = await readVenues(file('bom-venues.ndjson', Buffer.concat([BOM, readFileSync(FIXTURES)])), { onInvalid: 'skip' });
    expect(rejects).toEqual([]);
    expect(venues).toHaveLength(lines);
  });
});

describe.skipIf(!present)('import: files of the wrong kind are refused in one line naming the file', () => {
  const gz = () => file('pubs.ndjson.gz', gzipSync(readFileSync(PUBS_POINTS)));

  it('gzip to the OSM and FHRS importers and to readVenues: "decompress it first"', async () => {
    const path = gz();
    await expect(collectRun(importOsm(path))).rejects.toThrow(`OSM file ${path} is gzip-compressed: decompress it first`);
    await expect(collectRun(importFhrs(path))).rejects.toThrow(`FHRS file ${path} is gzip-compressed`);
    await expect(readVenues(path)).rejects.toThrow(`${path} is gzip-compressed`);
  });

  it('Parquet to the OSM importer names the Overture importer', async () => {
    await expect(collectRun(importOsm(PARQUET))).rejects.toThrow(/is a Parquet file: import it with `venue-search import overture`/);
  });

  it('an FHRS CSV or other text to the OSM importer, and JSON/GeoJSON to the FHRS importer, name the right importer (audit 63d finding 2)', async () => {
    await expect(collectRun(importOsm(FHRS))).rejects.toThrow(`OSM file ${FHRS} is not JSON: this looks like an FHRS CSV: use \`venue-search import fhrs\``);
    // the same CSV under a points-file name, and with a byte order mark and quoted header fields
    const quoted = file('fhrs.ndjson', Buffer.concat([BOM, Buffer.from(readFileSync(FHRS, 'utf8').split('\n').slice(0, 3).map((l, i) => (i === 0 ? l.split(',').map((c) => `"${c}"`).join(',') : l)).join('\n'))]));
    await expect(collectRun(importOsm(quoted))).rejects.toThrow('this looks like an FHRS CSV: use `venue-search import fhrs`');
    const places = file('places.csv', 'name,lat,lon,country\nAbbey Dore,51.96667,-2.9,GB\n');
    await expect(collectRun(importOsm(places))).rejects.toThrow(`OSM file ${places} is not JSON (it starts "name,lat,lon,country"): \`import osm\` reads Overpass or Veggiekarte GeoJSON or {osm_id, lat, lon, tags} lines; an FHRS CSV is imported with \`venue-search import fhrs\``);
    // a JSON file that is merely broken keeps the parser's message
    await expect(collectRun(importOsm(file('cut.geojson', '{"type":"FeatureCollection","features":[')))).rejects.toThrow(/is not readable JSON: /);
    for (const osm of [PUBS_GEOJSON, PUBS_POINTS]) {
      await expect(collectRun(importFhrs(osm))).rejects.toThrow(`FHRS file ${osm} is not a CSV: this looks like JSON or GeoJSON (an OpenStreetMap export?): use \`venue-search import osm\``);
    }
  });

  it('a single Feature, an array, an empty points file, venue records: refused, saying what the file holds', async () => {
    const firstFeature = (JSON.parse(readFileSync(PUBS_GEOJSON, 'utf8')) as { features: unknown[] }).features[0];
    await expect(collectRun(importOsm(file('one.geojson', JSON.stringify(firstFeature))))).rejects.toThrow(/holds a GeoJSON Feature \(an Overpass or Veggiekarte GeoJSON FeatureCollection expected\)/);
    await expect(collectRun(importOsm(file('arr.geojson', '[]')))).rejects.toThrow(/holds a JSON array/);
    await expect(collectRun(importOsm(file('empty.ndjson', '\n\n')))).rejects.toThrow(/holds no lines/);
    await expect(collectRun(importOsm(file('venues.ndjson', readFileSync(FIXTURES))))).rejects.toThrow(/it holds venue records \(already imported\?\)/);
  });

  it('venue records given to import fhrs: told they are venue records, as import osm tells it, not sent to import osm (audit 64a F14)', async () => {
    const venues = file('venues.ndjson', readFileSync(FIXTURES));
    const said = 'is not a CSV: it holds venue records (already imported?); give them to readVenues or serve --data as they are';
    await expect(collectRun(importFhrs(venues))).rejects.toThrow(`FHRS file ${venues} ${said}`);
    await expect(collectRun(importFhrs(venues))).rejects.not.toThrow(/import osm/);
  });

  it('venue records, an FHRS CSV or OSM GeoJSON given to import overture: told what the file holds and which importer takes it (audit 65a F15)', async () => {
    const venues = file('venues-for-overture.ndjson', readFileSync(FIXTURES));
    await expect(collectRun(importOverture(venues))).rejects.toThrow(
      `Overture file ${venues} is not readable Parquet: it does not end with Parquet's mark, PAR1 (it is no Parquet file); it holds venue records (already imported?); give them to readVenues or serve --data as they are`,
    );
    await expect(collectRun(importOverture(FHRS))).rejects.toThrow(/is not readable Parquet: .*; this looks like an FHRS CSV: use `venue-search import fhrs`$/);
    await expect(collectRun(importOverture(PUBS_GEOJSON))).rejects.toThrow(/is not readable Parquet: .*; this looks like JSON or GeoJSON \(an OpenStreetMap export\?\): use `venue-search import osm`$/);
  });

  it('merge given a raw OSM file: refused, naming the file and its first invalid line; nothing written', async () => {
    const out = join(dir, 'merged.ndjson');
    const { error } = await runImportCli(['import', 'merge', PUBS_GEOJSON, FIXTURES, '-o', out]);
    expect(String(error)).toMatch(new RegExp(`merge input ${PUBS_GEOJSON} holds no venue records: all 3070 are invalid \\(line \\d+: .*Polygon`));
    expect(existsSync(out) ? readFileSync(out, 'utf8') : '').toBe('');
  });

  it('merge given a raw OSM file: the first record\'s message in full, without the path again, the advice to import first said once (audit 63d finding 1, audit 64a F19)', async () => {
    const { error } = await runImportCli(['import', 'merge', PUBS_GEOJSON, FIXTURES, '-o', join(dir, 'merged2.ndjson')]);
    expect((error as Error).message).toBe(
      `merge input ${PUBS_GEOJSON} holds no venue records: all 3070 are invalid (line 7: field geometry.type: must be a Point; got "Polygon"); a raw OpenStreetMap export is imported first (\`venue-search import osm\`), then merged`,
    );
  });

  it('merge given the raw OSM points NDJSON or the FHRS CSV: the path, the line and the advice to import first each said once (audit 64a F19)', async () => {
    // 3067 and 33462: the files' lines (wc -l), each refused
    const points = await runImportCli(['import', 'merge', PUBS_POINTS, '-o', join(dir, 'merged3.ndjson')]);
    expect((points.error as Error).message).toBe(
      `merge input ${PUBS_POINTS} holds no venue records: all 3067 are invalid (line 1: field id: expected required property; got undefined); a raw OpenStreetMap export is imported first (\`venue-search import osm\`), then merged`,
    );
    const csv = await runImportCli(['import', 'merge', FHRS, '-o', join(dir, 'merged4.ndjson')]);
    expect((csv.error as Error).message).toBe(
      `merge input ${FHRS} holds no venue records: all 33462 are invalid (line 1: not a venues file (NDJSON, a JSON array or GeoJSON), line 1 is not JSON; a raw source is imported first (\`venue-search import osm|fhrs|overture\`): Unexpected token 'F', "FHRSID,Loc"... is not valid JSON)`,
    );
  });

  it('a long quoted message is cut at a word boundary, never inside a word', () => {
    expect(cutAtWord('short enough', 20)).toBe('short enough');
    expect(cutAtWord('a raw OpenStreetMap export is imported first', 24)).toBe('a raw OpenStreetMap…');
    expect(cutAtWord('field x: got "abc", then more', 22)).toBe('field x: got "abc"…');
  });
});

describe.skipIf(!present)('import fhrs: broken rows and missing columns (the London CSV, cut and renamed)', () => {
  const text = () => readFileSync(FHRS, 'utf8');
  const header = () => text().slice(0, text().indexOf('\n')).split(',');

  it('a file cut inside the last longitude: that row, without a line end, is truncated_line (not a venue 4 km east), the rest as before (audit 68e F6)', async () => {
    const all = text();
    const at = all.indexOf('51.432439,-0.059862');
    const cut = all.slice(0, at + '51.432439,-0.'.length);
    const cutRow = cut.slice(cut.lastIndexOf('\n') + 1);
    const id = cutRow.split(',')[0]!;
    expect(cutRow.split(',')).toHaveLength(header().length); // the cut is in the last column
    const { records, report } = await collectRun(importFhrs(file('cut.csv', cut)));
    expect(records.find((r) => r.id === `fhrs:${id}`)).toBeUndefined();
    expect(report.skipReasons.get('truncated_line')?.examples).toEqual([`line ${cut.split('\n').length} (the last row has no line end: the file looks cut short)`]);
  });

  it('a row with too few fields: skipped wrong_column_count with its line and both counts', async () => {
    const lines = text().split('\n');
    const short = lines[3]!.split(',').slice(0, 14).join(',');
    const { records, report } = await collectRun(importFhrs(file('short.csv', [lines[0], lines[1], lines[2], short, lines[4]].join('\n') + '\n')));
    expect(records).toHaveLength(3);
    expect(report.skipReasons.get('wrong_column_count')?.examples).toEqual([`line 4 (14 fields, the header has ${header().length})`]);
    expect(report.balanced()).toBe(true);
  });

  it('a renamed Latitude column, a header without coordinates, an empty file: refused naming the columns', async () => {
    const lines = text().split('\n').slice(0, 50);
    const lower = [lines[0]!.replace('Latitude', 'latitude'), ...lines.slice(1)].join('\n');
    await expect(collectRun(importFhrs(file('lower.csv', lower)))).rejects.toThrow(/has no Latitude column \(the FSA API's column names are expected\); its header starts "FHRSID"/);
    const noCoords = lines.map((l) => l.split(',').slice(0, -2).join(',')).join('\n');
    await expect(collectRun(importFhrs(file('nocoords.csv', noCoords)))).rejects.toThrow(/has no Latitude, Longitude columns/);
    await expect(collectRun(importFhrs(file('empty.csv', '')))).rejects.toThrow(/is empty: a header row/);
  });

  it('the CLI prints the refusal as one line and exits 1 (the built command in a child process)', () => {
    const lower = file('lower2.csv', text().split('\n').slice(0, 5).join('\n').replace('Latitude', 'Lat'));
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [CLI_MAIN, 'import', 'fhrs', lower, '-o', join(dir, 'x.ndjson')], { stdio: 'pipe' });
    } catch (err) {
      status = (err as { status: number }).status;
      stderr = String((err as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([`venue-search: FHRS file ${lower} has no Latitude column (the FSA API's column names are expected); its header starts "FHRSID", "LocalAuthorityBusinessID", "BusinessName", "BusinessType", "BusinessTypeID"`]);
  });
});
