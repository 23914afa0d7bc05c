import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerImportCommands } from '../../src/cli/import-command.js';
import { ImportReport, type ImportReportJson } from '../../src/import/import-report.js';
import { fhrsCoordinates, hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 62d finding 6: `--report-json` lists every skipped record (`skippedRecords`: reason,
 * id or line, detail), not only the five examples per reason; stderr keeps the five and
 * says how many more the JSON lists.
 */
const FIX = new URL('../../fixtures/import/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'venue-skipped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<string> {
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (c: Buffer) => chunks.push(c));
  const program = new Command('venue-search').exitOverride().configureOutput({ writeErr: () => {} });
  registerImportCommands(program, { stdout: new PassThrough().resume(), stderr });
  await program.parseAsync(['node', 'venue-search', ...args]);
  return Buffer.concat(chunks).toString();
}

async function importWithReport(kind: string, file: string): Promise<{ stderr: string; report: ImportReportJson }> {
  const reportFile = join(dir, `${kind}.report.json`);
  const stderr = await run(['import', kind, file, '-o', join(dir, `${kind}.ndjson`), '--report-json', reportFile]);
  return { stderr, report: JSON.parse(readFileSync(reportFile, 'utf8')) as ImportReportJson };
}

const refsOf = (report: ImportReportJson, reason: string): string[] => report.skippedRecords.filter((s) => s.reason === reason).map((s) => s.ref);

describe('import report: every skipped record listed (audit 62d finding 6)', () => {
  it('the Overpass sample fixture: the six skips in input order, with reason and detail; examples and counts unchanged', async () => {
    const { report } = await importWithReport('osm', FIX + 'osm-overpass-sample.geojson');
    // By hand from fixtures/import/osm-overpass-sample.geojson (the same skips osm-import.test.ts lists).
    expect(report.skippedRecords).toEqual([
      { reason: 'missing_name', ref: 'node/1003', detail: 'amenity=restaurant' },
      { reason: 'not_food_or_drink', ref: 'node/1004', detail: 'amenity=bank' },
      { reason: 'site_relation_member', ref: 'way/2005', detail: 'tags on relation/3003' },
      { reason: 'site_relation_member', ref: 'way/2006', detail: 'tags on relation/3003' },
      { reason: 'bad_geometry', ref: 'node/1008', detail: 'Point [200,95]' },
      { reason: 'duplicate_id', ref: 'node/1001' },
    ]);
    expect(report.skippedRecordsComplete).toBe(true);
    expect(report.skipReasons.site_relation_member).toEqual({ count: 2, examples: ['way/2005 (tags on relation/3003)', 'way/2006 (tags on relation/3003)'] });
  });

  it('beyond the listing bound the counts stay exact and skippedRecordsComplete is false', () => {
    const report = new ImportReport('t', 3);
    for (let i = 0; i < 7; i++) report.skip('missing_name', `node/${i}`);
    const json = report.toJSON();
    expect(json.skippedRecords.map((s) => s.ref)).toEqual(['node/0', 'node/1', 'node/2']);
    expect(json.skippedRecordsComplete).toBe(false);
    expect(json.skipReasons.missing_name?.count).toBe(7);
    expect(report.format()).toContain('skipped 7 missing_name: node/0; node/1; node/2; node/3; node/4; and 2 more (all listed by --report-json)');
  });
});

const FHRS = 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv';

describe.runIf(hasShared(FHRS))('FHRS London: --report-json names all 1,629 rows without coordinates and all 7 far rows', async () => {
  const { stderr, report } = await importWithReport('fhrs', sharedFile(FHRS));
  // Oracle: the raw CSV read line by line (no field holds a line break; Latitude and Longitude are the last two columns).
  const lines = readFileSync(sharedFile(FHRS), 'utf8').split('\n').slice(1);
  const noCoordinates = lines.map((l) => /^(\d+),.*,,\r?$/.exec(l)?.[1]).filter((id): id is string => id !== undefined).map((id) => `fhrs:${id}`);
  // SOURCE.md's London box: the 7 rows outside it are the geocoding errors.
  const far = fhrsCoordinates().filter((r) => r.lat < 51.29315 || r.lat > 51.68465 || r.lon < -0.49345 || r.lon > 0.34635).map((r) => `fhrs:${r.id}`);

  it('missing_coordinates: every id of a row whose Latitude and Longitude are empty, in file order', () => {
    expect(noCoordinates).toHaveLength(1629);
    expect(refsOf(report, 'missing_coordinates')).toEqual(noCoordinates);
  });

  it('far_from_local_authority: the 7 rows outside the London box, each with its distance', () => {
    expect(far).toHaveLength(7);
    expect(refsOf(report, 'far_from_local_authority').sort()).toEqual(far.sort());
    expect(report.skippedRecords.filter((s) => s.reason === 'far_from_local_authority').every((s) => / km from /.test(s.detail ?? ''))).toBe(true);
    expect(report.skippedRecords).toHaveLength(report.skipped);
    expect(report.skippedRecordsComplete).toBe(true);
  });

  it('stderr keeps five examples per reason and says how many more the JSON lists', () => {
    expect(stderr).toMatch(/skipped 1629 missing_coordinates: fhrs:\d+; fhrs:\d+; fhrs:\d+; fhrs:\d+; fhrs:\d+; and 1624 more \(all listed by --report-json\)/);
    expect(stderr).toMatch(/skipped 7 far_from_local_authority: .*; and 2 more \(all listed by --report-json\)/);
  });
});
