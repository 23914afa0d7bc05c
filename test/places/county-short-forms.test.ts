import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { HAVE_OSM_PUBS, loadOsmPubs } from '../find/osm-pubs.js';

/**
 * Audit 66f F3: "Lancs" is Royal Mail's abbreviation of Lancashire, so "X, Lancs" and
 * "X, Lancashire" are one place: the current county's X (the postal file's row with county
 * Lancashire), not the Merseyside / Greater Manchester namesake of the former county that lies
 * nearer the venues (on the London pubs "Thornton, Lancs" was Thornton L23, Sefton, 41.8 km from
 * Thornton-Cleveleys FY5). Oracles: the postal file's rows, GeographicLib.
 */
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';

/** A name with both a Lancashire row and a Merseyside or Greater Manchester row, and the Lancashire row's outward code. */
const NAMES: ReadonlyArray<readonly [name: string, lancashire: string]> = [
  ['Thornton', 'FY5'],
  ['Melling', 'LA6'],
  ['Broughton', 'PR3'],
  ['Middleton', 'LA3'],
];

describe.runIf(hasShared(POSTAL) && HAVE_OSM_PUBS)('a county\'s short form is the county (audit 66f F3)', () => {
  let engine: Engine;
  let rows: { code: string; name: string; county: string; lat: number; lon: number }[];
  beforeAll(() => {
    engine = createEngine(loadOsmPubs());
    rows = readFileSync(sharedFile(POSTAL), 'utf8')
      .split('\n')
      .map((l) => l.split('\t'))
      .filter((f) => f.length >= 12)
      .map((f) => ({ code: f[1]!, name: f[2]!, county: f[5]!, lat: Number(f[9]), lon: Number(f[10]) }));
  });

  it('"X, Lancs" and "X, Lancashire" both resolve to the Lancashire row of X, not a former-county namesake', () => {
    for (const [name, code] of NAMES) {
      const own = rows.find((r) => r.name === name && r.code === code)!;
      expect(own.county).toBe('Lancashire');
      const namesakes = rows.filter((r) => r.name === name && (r.county === 'Merseyside' || r.county === 'Greater Manchester'));
      expect(namesakes.length, name).toBeGreaterThan(0);
      for (const q of [`${name}, Lancs`, `${name}, Lancashire`]) {
        const p = engine.find({ q: 'a', location: q }).resolvedPlace!;
        expect(geodesic(p.Lat, p.Lon, own.lat, own.lon), q).toBeLessThan(1000);
      }
    }
  });

  it('a former-county place with no namesake in the current county still resolves under the short form ("Bury, Lancs", "Wigan, Lancs")', () => {
    for (const [q, name, code] of [['Bury, Lancs', 'Bury', 'BL9'], ['Wigan, Lancs', 'Wigan', 'WN1']] as const) {
      const row = rows.find((r) => r.code === code && r.name === name)!;
      const p = engine.find({ q: 'a', location: q }).resolvedPlace!;
      expect(geodesic(p.Lat, p.Lon, row.lat, row.lon), q).toBeLessThan(5000);
    }
  });

  it('"Yorks" and "Hunts" (Royal Mail\'s abbreviations) read as "Yorkshire" and "Huntingdonshire" do: the Ridings\' places, the former counties\' (before: "no Leeds in Yorks")', () => {
    // [place, the postal row it lies at (outward code, county), the short form]
    const FACTS: ReadonlyArray<readonly [string, string, string, string]> = [
      ['Leeds', 'LS1', 'West Yorkshire', 'Yorks'], // not Leeds, Kent (ME17)
      ['Sheffield', 'S1', 'South Yorkshire', 'Yorks'],
      ['Whitby', 'YO21', 'North Yorkshire', 'Yorks'],
      ['Uppermill', 'OL3', 'Greater Manchester', 'Yorks'], // Saddleworth: the West Riding
      ['Huntingdon', 'PE29', 'Cambridgeshire', 'Hunts'],
    ];
    for (const [name, code, county, short] of FACTS) {
      const row = rows.find((r) => r.name === name && r.code === code)!;
      expect(row.county, `${name} ${code}`).toBe(county);
      const p = engine.find({ q: 'a', location: `${name}, ${short}` }).resolvedPlace!;
      expect(geodesic(p.Lat, p.Lon, row.lat, row.lon), `${name}, ${short}`).toBeLessThan(5000);
    }
    // a place that never was in Yorkshire stays refused
    expect(() => engine.find({ q: 'a', location: 'Hackney, Yorks' })).toThrow(/Hackney/);
  });
});
