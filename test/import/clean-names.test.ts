import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanText } from '../../src/import/clean-text.js';
import { collectRun, importFhrs, importOsm, importOverture } from '../../src/import/index.js';

/**
 * Audit 62d finding 8: names and addresses from every importer lose control and format
 * characters (a newline or tab is a space), whitespace runs are one space, trimmed; the
 * joiners (ZWNJ, ZWJ) and the bidi marks LRM/RLM/ALM are kept. Expected strings are written by hand, code points spelt out.
 */
const dir = mkdtempSync(join(tmpdir(), 'venue-clean-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ZWSP = '\u200B';
const ZWJ = '\u200D';
const BOM = '\uFEFF';
const RLM = '\u200F';
const RLO = '\u202E';

describe('cleanText: the one rule (audit 62d finding 8)', () => {
  it.each([
    ['Red\nLion' + ZWSP, 'Red Lion'],
    ['  The\t\tAnchor \r\n', 'The Anchor'],
    [BOM + 'Caf\u00E9' + ZWSP + ' Nero', 'Caf\u00E9 Nero'],
    // spelling, kept: a Persian non-joiner (می‌خانه), an emoji sequence held by joiners
    ['\u0645\u06CC\u200C\u062E\u0627\u0646\u0647', '\u0645\u06CC\u200C\u062E\u0627\u0646\u0647'],
    ['Pub \u{1F468}' + ZWJ + '\u{1F373}', 'Pub \u{1F468}' + ZWJ + '\u{1F373}'],
    ['Cafe\u0301 \u00A0 Ne\u0301ro', 'Cafe\u0301 Ne\u0301ro'], // NFD accents kept, no-break space collapsed
    ['Bell\u0000\u0007 Inn\u00AD', 'Bell Inn'],
    [RLO + 'nuB' + '\u202C', 'nuB'],
    ['مطعم' + RLM + ' 24', 'مطعم' + RLM + ' 24'], // the RLM that places the digits stays
    ['Line\u2028Break', 'Line Break'],
  ])('%j -> %j', (input, want) => {
    expect(cleanText(input)).toBe(want);
  });

  it('nothing left: undefined', () => {
    expect(cleanText(ZWSP + ' \n' + BOM)).toBeUndefined();
    expect(cleanText(undefined)).toBeUndefined();
  });
});

describe('every importer writes clean names and addresses', () => {
  it('OSM: name, address parts; a name of zero-width spaces falls back to name:en', async () => {
    const file = join(dir, 'osm.geojson');
    const feature = (id: number, tags: Record<string, string>) => ({ type: 'Feature', properties: { '@id': `node/${id}`, amenity: 'pub', ...tags }, geometry: { type: 'Point', coordinates: [-0.1, 51.5 + id / 1000] } });
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [
      feature(1, { name: 'Red\nLion' + ZWSP, 'addr:housenumber': '1', 'addr:street': 'High\tStreet', 'addr:city': ' London\n' }),
      feature(2, { name: ZWSP + ZWSP, 'name:en': 'The  Anchor' }),
      feature(3, { name: ZWSP }),
    ] }));
    const { records, report } = await collectRun(importOsm(file));
    expect(records.map((r) => [r.id, r.name, r.formattedAddress])).toEqual([
      ['osm:node/1', 'Red Lion', '1 High Street, London'],
      ['osm:node/2', 'The Anchor', undefined],
    ]);
    expect(report.skipReasons.get('missing_name')?.examples).toEqual(['node/3 (amenity=pub)']);
  });

  it('FHRS: a quoted name and address line holding a line break', async () => {
    const file = join(dir, 'fhrs.csv');
    writeFileSync(file, 'FHRSID,BusinessName,BusinessType,AddressLine1,AddressLine2,PostCode,LocalAuthorityName,Latitude,Longitude\r\n' +
      `1,"Multi\nLine${ZWSP} Name",Pub/bar/nightclub,"Unit 1\nHigh St",,"CF10  1AA",Cardiff,51.48,-3.18\r\n`);
    const { records } = await collectRun(importFhrs(file));
    expect(records.map((r) => [r.name, r.formattedAddress])).toEqual([['Multi Line Name', 'Unit 1 High St, CF10 1AA']]);
  });

  it('Overture: names.primary and the address, read from a Parquet file DuckDB wrote', async () => {
    const file = join(dir, 'overture.parquet');
    const wkb = Buffer.alloc(21);
    wkb[0] = 1;
    wkb.writeUInt32LE(1, 1);
    wkb.writeDoubleLE(-0.1, 5);
    wkb.writeDoubleLE(51.5, 13);
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    await duck.run(`COPY (SELECT 'p1' AS id, from_hex('${wkb.toString('hex')}') AS geometry, {'primary': 'Crown' || chr(10) || '&' || chr(9) || 'Anchor' || chr(8203)} AS names,
      {'primary': 'pub', 'alternate': []::VARCHAR[]} AS categories, 0.9 AS confidence,
      [{'freeform': '2' || chr(13) || chr(10) || 'Quay  Street', 'locality': 'London', 'region': NULL::VARCHAR, 'postcode': NULL::VARCHAR, 'country': 'GB'}] AS addresses) TO '${file}' (FORMAT parquet)`);
    const { records } = await collectRun(importOverture(file));
    expect(records.map((r) => [r.name, r.formattedAddress])).toEqual([['Crown & Anchor', '2 Quay Street, London, GB']]);
  });
});
