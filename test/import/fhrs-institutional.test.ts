import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerImportCommands } from '../../src/cli/import-command.js';
import { collectRun, importFhrs } from '../../src/import/index.js';
import { institutionalWord } from '../../src/import/institutional-names.js';

/**
 * `import fhrs --skip-institutional` (audit 63d finding 7): FHRS `Restaurant/Cafe/Canteen`
 * includes staff, school and care-home canteens (../shared/data/fhrs-london/SOURCE.md).
 * Oracle: rows picked by hand from the real London CSV, each read there (name, type,
 * address) and judged by hand: the canteens skipped, the public places kept.
 */
const CSV = new URL('../../../shared/data/fhrs-london/fhrs_london_food_drink_2021-08-19.csv', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'venue-fhrs-institutional-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** FHRSID -> the word that marks it (skipped), or null (kept). */
const PICKED: Record<string, string | null> = {
  '1125773': 'aramark', // "Aramark LTD", Westminster Kingsway College Kings Cross Centre
  '1259': 'nursing home', // "Lakeside Nursing Home", Upper Norwood
  '688': 'nursery', // "Fennies Under 5s Day Nursery"
  '991': 'academy', // "Applegarth Academy"
  '1688': null, // "Cafe Oasis", 162 Brighton Road, Coulsdon: a public café
  '334395': null, // "Gordon Ramsay", 68-69 Royal Hospital Road: a street's name
  '276704': null, // "Kebabland", 36 College Road, Harrow: a street's name
  '277263': null, // "Harrow School Staff Sports Club": a Pub/bar/nightclub, not a canteen
  // audit 64a F6
  '1386313': null, // "School Lane Community Centre", Community Centre, School Lane, Surbiton: the name holds a street's name
  '297841': 'school', // "Peabody Coffee Ltd", Medical School St Georges Hos[pital], Blackshaw Road: St is Saint here
  '294202': 'staff canteen', // "Travers Smith, Staff Canteen", 10 Snow Hill: a law firm's staff canteen
  '422325': 'staff canteen', // "J Sainsbury Staff Canteen", Supermarket, 4 Williamson Road
  '455483': 'staff canteen', // "Morrisons", address "Staff Canteen, 51 The Broadway": the word in the address
  '1024776': null, // "GFM Ltd - Newham Centre Staff & Public Canteen": open to the public
  // audit 65a F10: pubs, clubs, food brands, and streets named "College Approach" / "College Fields"
  '853422': null, // "Admiral Hardy", 7 College Approach, Greenwich: a pub (OSM node/10266440600)
  '1252701': null, // "Madre Pinzeria Italiana", 5 College Approach
  '1355234': null, // "Wimbledon Tap", Unit 8 College Fields Business Centre
  '1125785': null, // "College Arms", 18 Store Street: a Bloomsbury pub
  '1154090': null, // "Pizza Academy Prestige", 787 Lea Bridge Road
  '1319113': null, // "Suya Academy Ltd", 148 Plumstead Road
  '484482': null, // "O2 Academy Brixton", address "Brixton Academy": a concert venue
  '424446': null, // "The Hospital Club", 24 Endell Street: a members' club
};

function pickedCsv(): string {
  const lines = readFileSync(CSV, 'utf8').split('\n');
  const rows = lines.filter((l) => l.split(',')[0]! in PICKED);
  expect(rows).toHaveLength(Object.keys(PICKED).length);
  const path = join(dir, 'picked.csv');
  writeFileSync(path, `${[lines[0], ...rows].join('\n')}\n`);
  return path;
}

describe.skipIf(!existsSync(CSV))('import fhrs --skip-institutional: canteens of nurseries, schools, care homes and contract caterers', () => {
  it('skips the canteens under institutional_canteen naming the word, keeps the public places; off by default', async () => {
    const path = pickedCsv();
    const all = await collectRun(importFhrs(path));
    expect(all.records).toHaveLength(Object.keys(PICKED).length);
    expect(all.report.skipReasons.has('institutional_canteen')).toBe(false);

    const { records, report } = await collectRun(importFhrs(path, { skipInstitutional: true }));
    const kept = Object.entries(PICKED).filter(([, w]) => w === null).map(([id]) => `fhrs:${id}`);
    expect(records.map((r) => r.id).sort()).toEqual(kept.sort());
    const skipped = Object.entries(PICKED).filter(([, w]) => w !== null).map(([id, w]) => `fhrs:${id} (${w})`);
    expect(report.skippedRecords.filter((r) => r.reason === 'institutional_canteen').map((r) => `${r.ref} (${r.detail})`).sort()).toEqual(skipped.sort());
    expect(report.balanced()).toBe(true);
  });

  it('the CLI flag, counted in the report on stderr', async () => {
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    stderr.on('data', (c: Buffer) => chunks.push(c));
    const program = new Command('venue-search').exitOverride().configureOutput({ writeErr: () => {} });
    registerImportCommands(program, { stdout: new PassThrough().resume(), stderr });
    await program.parseAsync(['node', 'venue-search', 'import', 'fhrs', pickedCsv(), '--skip-institutional', '-o', join(dir, 'out.ndjson')]);
    const said = Buffer.concat(chunks).toString();
    expect(said).toMatch(/^import picked\.csv: read 22, written 14, skipped 8$/m);
    expect(said).toMatch(/^ {2}skipped 8 institutional_canteen: fhrs:/m);
  });

  it('words match whole and in any case; a street named after an institution is not one', () => {
    expect(institutionalWord('ARAMARK', undefined)).toBe('aramark');
    expect(institutionalWord('Schoolhouse Bakery', undefined)).toBeUndefined();
    expect(institutionalWord('The Academy', undefined)).toBe('academy');
    expect(institutionalWord('Cafe', '1 School  Lane, London')).toBeUndefined();
    expect(institutionalWord('Cafe', 'St Mary\'s Hospital, Praed Street')).toBe('hospital');
    expect(institutionalWord('Cafe', 'Care   Home Way')).toBeUndefined();
    expect(institutionalWord('Baxter Storey at Media House', undefined)).toBe('baxter storey');
    // "St" ends a street's name ("School St,"), begins a saint's ("School St Georges")
    expect(institutionalWord('Cafe', '2 School St, London')).toBeUndefined();
    expect(institutionalWord('Cafe', '2 College St.')).toBeUndefined();
    expect(institutionalWord('Cafe', 'Medical School St Georges, London')).toBe('school');
    expect(institutionalWord('Hospital Road Cafe', undefined)).toBeUndefined();
  });
});
