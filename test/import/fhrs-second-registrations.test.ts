import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun, importFhrs, importOsm, mergeVenues } from '../../src/import/index.js';

/**
 * Audit 63a F8: a pub registered twice in FHRS came out of the merge twice, the second
 * registration a separate venue metres from the merged pub. The real rows the audit names,
 * taken from the shared London extracts (FHRS CSV rows and OSM points lines as they are),
 * imported by the importers and merged; the expected output written out by hand from the rows:
 * - Royal Oak, "Royal Oak 54 Charlton Lane", SE7 8LA: FHRS 694182 "Royal Oak" and 1373974
 *   "The Royal Oak" (OSM way/754110894's fhrs:id) are one pub;
 * - Hand In Hand, 61 New Park Road, SW2 4EN: FHRS 484332 (with a premises line "Hand In Hand
 *   Public House") and 1208044 (node/275549532's fhrs:id) are one pub;
 * - not folded: Royal Oaks at other postcodes (78876 E2 7RG, 353079 TW1 3AB), and Euston
 *   Tap's East Lodge (759322, 188 Euston Road) beside the West Lodge (552771, 190 Euston Road,
 *   way/93710880's fhrs:id): the same name and postcode, another building.
 */
const DATA = new URL('../../../shared/data/', import.meta.url).pathname;
const CSV = join(DATA, 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv');
const OSM = join(DATA, 'osm-london-pubs/london_pubs_points.ndjson');
const FHRS_IDS = ['78876', '353079', '484332', '552771', '694182', '759322', '1208044', '1373974'];
const OSM_IDS = ['way/93710880', 'node/275549532', 'way/754110894'];
const dir = mkdtempSync(join(tmpdir(), 'fhrs-second-registrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!existsSync(CSV) || !existsSync(OSM))('merge: a second FHRS registration of a linked pub folds into the same venue (audit 63a F8)', () => {
  it('Royal Oak SE7 8LA and Hand In Hand SW2 4EN come out once each; same-named records at other postcodes or street numbers stay', async () => {
    const csv = readFileSync(CSV, 'utf8').split('\n');
    const rows = FHRS_IDS.map((id) => csv.find((line) => line.startsWith(`${id},`)) as string);
    expect(rows.every((row) => row !== undefined)).toBe(true);
    writeFileSync(join(dir, 'fhrs.csv'), `${csv[0]}\n${rows.join('\n')}\n`);
    const points = readFileSync(OSM, 'utf8').split('\n');
    const lines = OSM_IDS.map((id) => points.find((line) => line.includes(`"osm_id": "${id}"`)) as string);
    expect(lines.every((line) => line !== undefined)).toBe(true);
    writeFileSync(join(dir, 'osm.ndjson'), `${lines.join('\n')}\n`);

    const osm = await collectRun(importOsm(join(dir, 'osm.ndjson')));
    const fhrs = await collectRun(importFhrs(join(dir, 'fhrs.csv')));
    expect(osm.records.map((r) => r.id)).toEqual(OSM_IDS.map((id) => `osm:${id}`));
    expect(fhrs.records.map((r) => r.id)).toEqual(FHRS_IDS.map((id) => `fhrs:${id}`));
    const { records, report } = mergeVenues([...osm.records, ...fhrs.records]);

    expect(records.map((r) => r.id)).toEqual(['osm:way/93710880', 'osm:node/275549532', 'osm:way/754110894', 'fhrs:78876', 'fhrs:353079', 'fhrs:759322']);
    // Since audit 68e F3 both bear their OSM pub's own name at its address (postcode and house number), so
    // the pub its fhrs:id links takes them by name directly, before the second-registration fold: same venues.
    expect(report.skipReasons.get('merged_into_osm')?.examples).toEqual([
      'fhrs:484332 (into osm:node/275549532)',
      'fhrs:552771 (into osm:way/93710880)',
      'fhrs:694182 (into osm:way/754110894)',
      'fhrs:1208044 (into osm:node/275549532)',
      'fhrs:1373974 (into osm:way/754110894)',
    ]);
    expect(report.counters.get('OSM records linked by fhrs:id also taking an FHRS record of their name and address')).toBe(2);
    expect(report.counters.get('FHRS records folded as a second registration of a linked one')).toBeUndefined();
    expect(report.counters.get('OSM records linked to FHRS by fhrs:id')).toBe(3);
    // the OSM record keeps its own name, point and fhrs:id (the registration it names)
    const royalOak = records.find((r) => r.id === 'osm:way/754110894');
    expect(royalOak?.name).toBe('Royal Oak');
    expect(royalOak?.location.coordinates).toEqual([51.488304, 0.0394145]);
    expect(royalOak?.externalIds?.fhrs).toBe('1373974');
    expect(report.read).toBe(11);
    expect(report.written).toBe(6);
    expect(report.balanced()).toBe(true);
  });
});
