import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerImportCommands } from '../../src/cli/import-command.js';
import { readVenues } from '../../src/data/read-venues.js';
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';

const FIX = new URL('../../fixtures/import/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'venue-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  stdout.on('data', (c: Buffer) => chunks.stdout.push(c));
  stderr.on('data', (c: Buffer) => chunks.stderr.push(c));
  const program = new Command('venue-search').exitOverride().configureOutput({ writeErr: () => {} });
  registerImportCommands(program, { stdout, stderr });
  await program.parseAsync(['node', 'venue-search', ...args]);
  return { stdout: Buffer.concat(chunks.stdout).toString(), stderr: Buffer.concat(chunks.stderr).toString() };
}

describe('venue-search import (commander, in-process)', () => {
  it('import osm to stdout: NDJSON lines, report on stderr with grouped skips and examples', async () => {
    const { stdout, stderr } = await run(['import', 'osm', FIX + 'osm-overpass-sample.geojson']);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string });
    expect(lines.map((l) => l.id)).toContain('osm:node/1001');
    expect(lines).toHaveLength(6);
    expect(stderr).toMatch(/read 11, written 6, skipped 6, derived 1/);
    expect(stderr).toMatch(/skipped 1 missing_name: node\/1003/);
    expect(stderr).toMatch(/skipped 2 site_relation_member: way\/2005/);
  });

  it('import fhrs -o file, then merge two files -o file with --report-json; the output loads with readVenues', async () => {
    const osmOut = join(dir, 'osm.ndjson');
    const fhrsOut = join(dir, 'fhrs.ndjson');
    const merged = join(dir, 'merged.ndjson');
    const reportFile = join(dir, 'report.json');
    await run(['import', 'osm', FIX + 'osm-overpass-sample.geojson', '-o', osmOut]);
    const f = await run(['import', 'fhrs', FIX + 'fhrs-sample.csv', '-o', fhrsOut]);
    expect(f.stdout).toBe('');
    expect(f.stderr).toMatch(/skipped 1 far_from_local_authority: fhrs:20005/);
    await run(['import', 'merge', osmOut, fhrsOut, '-o', merged, '--report-json', reportFile]);
    const { venues, rejects } = await readVenues(merged, { onInvalid: 'skip' });
    expect(rejects).toEqual([]);
    expect(venues).toHaveLength(6 + 5 - 2);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { read: number; written: number; skipped: number };
    expect(report).toMatchObject({ read: 11, written: 9, skipped: 2 });
  });

  it('merge: a record its input refuses is listed once with its file and line, its detail without them again (audit 64a F19)', async () => {
    const good = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8').trim().split('\n').slice(0, 3);
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${[...good, '{"id":"bad:1","location":{"type":"Point","coordinates":[51.5,-0.1]}}'].join('\n')}\n`);
    const { stderr } = await run(['import', 'merge', bad, '-o', join(dir, 'bad-merged.ndjson')]);
    expect(stderr.split('\n')).toContain(`  skipped 1 invalid_input_record: ${bad}:4 (venue "bad:1", field name: expected required property; got undefined)`);
  });

  it('numbers and codes on the command line: decimal only, and a bad value names its option before any work (audit 61a)', async () => {
    const csv = FIX + 'fhrs-sample.csv';
    for (const bad of ['0x10', '1e999', 'Infinity', '', '12km']) {
      await expect(run(['import', 'fhrs', csv, '--max-km-from-authority', bad]), bad).rejects.toThrow(`option '--max-km-from-authority <km>' argument '${bad}' is invalid. expected a positive number of kilometres; got ${JSON.stringify(bad)}`);
    }
    await expect(run(['import', 'fhrs', csv, '--max-km-from-authority', '.5', '-o', join(dir, 'half-km.ndjson')])).resolves.toBeDefined();
    const parquet = new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url).pathname;
    await expect(run(['import', 'overture', parquet, '--min-confidence', '0x1'])).rejects.toThrow("option '--min-confidence <n>' argument '0x1' is invalid");
    // a filter that keeps nothing: the run succeeds, and says the output is empty
    const fiji = await run(['import', 'overture', parquet, '--country', 'FJ', '-o', join(dir, 'fiji.ndjson')]);
    expect(fiji.stderr).toContain(
      'warning: no venue was written; serve and snapshot refuse a file of no venues (a live-data service, serve --admin-token-file, starts from one, to be filled through PUT /admin/venues)\n',
    );
    // a --bbox in lat,lon order: the warning says where the rows lie and the order (audit 63d finding 6)
    const swapped = await run(['import', 'overture', parquet, '--bbox', '40.5,-74.3,40.95,-73.7', '-o', join(dir, 'nyc-swapped.ndjson')]);
    expect(swapped.stderr).toMatch(/warning: no venue was written; .*\n {2}no row group met the region: the files' rows lie in lon -\d+\.\d\.\.-\d+\.\d, lat \d+\.\d\.\.\d+\.\d \(their row-group statistics\); --bbox is west,south,east,north \(longitude first\); given in lat,lon order\? --bbox -74\.3,40\.5,-73\.7,40\.95 meets them\n$/);
    await expect(run(['import', 'fhrs', csv, '--report-json', '-'])).rejects.toThrow("option '--report-json <file>' argument '-' is invalid. the report is written to a file, not to stdout (which carries the records with -o -): give a file");
    await expect(run(['import', 'overture', parquet, '--country', 'usa'])).rejects.toThrow(`option '--country <code>' argument 'usa' is invalid. must be an ISO 3166-1 alpha-2 code such as GB or FJ; got "usa"`);
  });

  it('import merge shows a progress bar of the bytes read on a terminal, and nothing of it elsewhere, as the other imports (audit 63d finding 8)', async () => {
    const fixtures = new URL('../../fixtures/venues.ndjson', import.meta.url).pathname;
    const size = readFileSync(fixtures).length;
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const chunks: Buffer[] = [];
    terminal.on('data', (c: Buffer) => chunks.push(c));
    const program = new Command('venue-search').exitOverride().configureOutput({ writeErr: () => {} });
    registerImportCommands(program, { stdout: new PassThrough().resume(), stderr: terminal });
    await program.parseAsync(['node', 'venue-search', 'import', 'merge', fixtures, '-o', join(dir, 'merged-tty.ndjson')]);
    const said = Buffer.concat(chunks).toString();
    const mb = (size / 1e6).toFixed(1);
    expect(said).toContain(`100% | ETA: 0s | ${mb}/${mb} MB`);
    expect(said).toContain('\x1b[?25l'); // the bar hid the cursor, as cli-progress does
    expect(said).toMatch(/import merge: read \d+, written \d+/);
    // stderr not a terminal: the report alone
    const { stderr } = await run(['import', 'merge', fixtures, '-o', join(dir, 'merged-pipe.ndjson')]);
    expect(stderr).not.toContain('MB');
    expect(stderr).toMatch(/^import merge: read \d+, written \d+/);
  });

  it('merge of a file of 150,000 venues: written whole (audit 61a: push(...venues) overflowed the stack above ~110k)', async () => {
    const big = join(dir, 'big.ndjson');
    const generated = generateBenchVenues(150_000, 61);
    writeFileSync(big, `${generated.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const merged = join(dir, 'big-merged.ndjson');
    const { stderr } = await run(['import', 'merge', big, '-o', merged]);
    expect(stderr).toMatch(/^import merge: read 150000, /m);
    const written = readFileSync(merged, 'utf8').trimEnd().split('\n');
    // every id once (the merge may join venues it takes for one, and says how many)
    const ids = new Set(written.map((line) => (JSON.parse(line) as { id: string }).id));
    expect(ids.size).toBe(written.length);
    expect(stderr).toContain(`written ${written.length}`);
    expect(written.length).toBeGreaterThan(140_000);
  }, 120_000);

  it('import overture --bbox -o file --report-json: venues inside the box only, report counts the row groups', async () => {
    const sample = new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url).pathname;
    if (!existsSync(sample)) return;
    const out = join(dir, 'overture.ndjson');
    const reportFile = join(dir, 'overture-report.json');
    const { stderr } = await run(['import', 'overture', sample, '--bbox', '-80,38,-70,43', '--min-confidence', '0.6', '-o', out, '--report-json', reportFile]);
    const { venues, rejects } = await readVenues(out, { onInvalid: 'skip' });
    expect(rejects).toEqual([]);
    expect(venues.length).toBeGreaterThan(50);
    for (const v of venues) {
      const [lat, lon] = v.location.coordinates;
      expect(lat >= 38 && lat <= 43 && lon >= -80 && lon <= -70).toBe(true);
      expect(v.confidence).toBeGreaterThanOrEqual(0.6);
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { read: number; written: number; skipped: number; skipReasons: Record<string, { count: number }> };
    expect(report.read).toBe(3425);
    expect(report.written).toBe(venues.length);
    expect(report.written + report.skipped).toBe(3425);
    expect(report.skipReasons.outside_bbox?.count).toBeGreaterThan(1000);
    expect(stderr).toMatch(/row groups read: 1/);
  });

  it('import overture rejects a bad --bbox and --min-confidence naming the value', async () => {
    await expect(run(['import', 'overture', 'x.parquet', '--bbox', '1,2,3'])).rejects.toThrow(/west,south,east,north .*got "1,2,3"/);
    await expect(run(['import', 'overture', 'x.parquet', '--bbox', '0,60,10,50'])).rejects.toThrow(/south <= north/);
    await expect(run(['import', 'overture', 'x.parquet', '--min-confidence', 'high'])).rejects.toThrow(/from 0 to 1; got "high"/);
  });

  it('--max-km-from-authority rejects a non-number', async () => {
    await expect(run(['import', 'fhrs', FIX + 'fhrs-sample.csv', '--max-km-from-authority', 'far'])).rejects.toThrow(/positive number/);
  });
});

describe('unreadable inputs are invalid_data errors naming the file', () => {
  for (const kind of ['osm', 'fhrs', 'overture'] as const) {
    for (const file of ['missing.geojson', 'missing.ndjson', 'missing.csv', 'missing.parquet']) {
      if ((kind === 'fhrs') !== file.endsWith('.csv') || (kind === 'overture') !== file.endsWith('.parquet')) continue;
      it(`import ${kind} ${file}`, async () => {
        const label = { osm: 'OSM file', fhrs: 'FHRS file', overture: 'Overture input' }[kind];
        await expect(run(['import', kind, join(dir, file)])).rejects.toMatchObject({ code: 'invalid_data', message: `${label} ${join(dir, file)} not found` });
      });
    }
  }
  it('import osm and fhrs of a folder, and merge of one', async () => {
    const folder = join(dir, 'a-folder.geojson');
    mkdirSync(folder, { recursive: true });
    await expect(run(['import', 'osm', folder])).rejects.toMatchObject({ code: 'invalid_data', message: `OSM file ${folder} is a folder, not a file` });
    await expect(run(['import', 'fhrs', folder])).rejects.toMatchObject({ code: 'invalid_data', message: `FHRS file ${folder} is a folder, not a file` });
    await expect(run(['import', 'merge', folder, folder])).rejects.toMatchObject({ code: 'invalid_data', message: `cannot read venue file ${folder}: is a folder, not a file` });
  });
  it('import overture of a file that is not Parquet', async () => {
    const bad = join(dir, 'not.parquet');
    writeFileSync(bad, 'PAR1 but not really');
    await expect(run(['import', 'overture', bad])).rejects.toMatchObject({ code: 'invalid_data', message: expect.stringContaining('not.parquet is truncated (no Parquet footer)') });
  });
});

describe('outputs that cannot be written are invalid_request errors naming the option and the path, before any import work', () => {
  const nowhere = join(dir, 'no-such-folder', 'out.ndjson');
  const osmSample = FIX + 'osm-overpass-sample.geojson';
  it('import osm -o into a folder that does not exist', async () => {
    await expect(run(['import', 'osm', osmSample, '-o', nowhere])).rejects.toMatchObject({
      code: 'invalid_request',
      param: '--output',
      value: nowhere,
      message: `cannot write --output ${nowhere}: its folder does not exist`,
    });
  });
  it('import fhrs --report-json into a folder that does not exist writes no output either', async () => {
    const out = join(dir, 'fhrs-unreported.ndjson');
    await expect(run(['import', 'fhrs', FIX + 'fhrs-sample.csv', '-o', out, '--report-json', nowhere])).rejects.toMatchObject({ code: 'invalid_request', param: '--report-json' });
    // the output is written under a temporary name and renamed when whole: nothing is left
    expect(readdirSync(dir).filter((f) => f.startsWith('fhrs-unreported'))).toEqual([]);
  });
  it('import merge -o into a folder that does not exist', async () => {
    const osmOut = join(dir, 'osm-for-merge.ndjson');
    await run(['import', 'osm', osmSample, '-o', osmOut]);
    await expect(run(['import', 'merge', osmOut, '-o', nowhere])).rejects.toMatchObject({ code: 'invalid_request', param: '--output' });
  });
});
