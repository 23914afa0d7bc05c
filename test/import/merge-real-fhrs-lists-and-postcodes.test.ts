import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectRun, importFhrs, importOsm, mergeVenues } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { oraclePostcode, oracleSameAddress } from './support/oracle-address.js';

/**
 * audit 68e F2 and F3 on the real London OSM pubs and FHRS London (../shared/data), checked
 * against this file's own brute-force oracle: its own name folding, postcode and house-number
 * reading (support/oracle-address.ts) and GeographicLib distances, not src/import's.
 */
const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const OSM_FILE = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const FHRS_FILE = 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv';
const present = existsSync(DATA + OSM_FILE) && existsSync(DATA + FHRS_FILE);

/** Lower case, accents and apostrophes dropped, & = and, words of letters and digits, a leading "the" dropped. */
function fold(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019`]/g, '')
    .replace(/&/g, ' and ')
    .match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length > 1 && words[0] === 'the') words.shift();
  return words.join(' ');
}

const meters = (a: VenueRecord, b: VenueRecord) => geodesic(a.location.coordinates[0], a.location.coordinates[1], b.location.coordinates[0], b.location.coordinates[1]);

/** Same folded name, same postcode, house numbers that overlap (or one missing), at most `radius` m apart. */
function sameAddressTwin(o: VenueRecord, f: VenueRecord, radius: number): boolean {
  if (fold(o.name) === '' || fold(o.name) !== fold(f.name)) return false;
  return oracleSameAddress(o.formattedAddress, f.formattedAddress) && meters(o, f) <= radius;
}

/** Every (OSM record, FHRS record) pair both written on their own that the oracle calls one pub: "OSM id|FHRS id". */
function duplicates(out: VenueRecord[], radius: number): string[] {
  const fhrsByName = new Map<string, VenueRecord[]>();
  for (const r of out) if (r.id.startsWith('fhrs:')) fhrsByName.set(fold(r.name), [...(fhrsByName.get(fold(r.name)) ?? []), r]);
  const found: string[] = [];
  for (const o of out) {
    if (!o.id.startsWith('osm:')) continue;
    for (const f of fhrsByName.get(fold(o.name)) ?? []) if (sameAddressTwin(o, f, radius)) found.push(`${o.id}|${f.id}`);
  }
  return found.sort();
}

describe.skipIf(!present)('merge of the real London OSM pubs and FHRS: fhrs:id lists and same-address twins (audit 68e F2, F3)', async () => {
  const osm = present ? (await collectRun(importOsm(DATA + OSM_FILE))).records : [];
  const fhrs = present ? (await collectRun(importFhrs(DATA + FHRS_FILE))).records : [];
  const { records, report } = present ? mergeVenues([...osm, ...fhrs]) : { records: [], report: undefined };
  const written = new Set(records.map((r) => r.id));
  const fhrsIds = new Set(fhrs.map((r) => r.id));

  it('F2: every id of an OSM fhrs:id list (read from the raw GeoJSON) that FHRS holds folds into that OSM pub; The Kings Arms, TW11 8HA, is one venue', () => {
    const raw = JSON.parse(readFileSync(DATA + OSM_FILE, 'utf8')) as { features: Array<{ id?: string; properties: Record<string, unknown> }> };
    const lists = raw.features
      .map((f) => [String(f.properties['@id'] ?? f.id ?? f.properties.id), String(f.properties['fhrs:id'] ?? '')] as const)
      .filter(([, v]) => v.includes(';'));
    expect(lists.length).toBe(6);
    const into = new Map(report!.skippedRecords.filter((s) => s.reason === 'merged_into_osm').map((s) => [s.ref, s.detail ?? '']));
    let checked = 0;
    for (const [element, list] of lists) {
      for (const id of list.split(';').map((s) => s.trim())) {
        if (!fhrsIds.has(`fhrs:${id}`)) continue;
        checked++;
        expect(written.has(`fhrs:${id}`), `${element} fhrs:${id}`).toBe(false);
        expect(into.get(`fhrs:${id}`), `${element} fhrs:${id}`).toContain(`osm:${element}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2);
    const kingsArms = records.filter((r) => fold(r.name) === 'kings arms' && oraclePostcode(r.formattedAddress) === 'TW118HA');
    expect(kingsArms.map((r) => r.id)).toEqual(['osm:way/298834128']);
    expect(kingsArms[0]?.externalIds?.fhrs).toBe('354096;1398897');
  });

  it('F3: no OSM pub keeps an FHRS twin of the same folded name, postcode and house number within 200 m; Euston Tap 188/190 stay apart', () => {
    const left = duplicates(records, 200);
    console.info(`[import] audit 68e F3: same-address twins within 200 m left after merge: ${left.length} ${left.join(' ')}; ${records.length} venues; ${JSON.stringify([...report!.counters])}`);
    expect(left).toEqual([]);
    // Euston Tap's East Lodge (188 Euston Road) and the OSM West Lodge (190) are two venues, as are 25/26 Old Palace Lane.
    expect(written.has('fhrs:759322')).toBe(true);
    // The join never takes a pair the oracle calls two places: each name link is <= 50 m, or a same-address twin <= 200 m.
    const byId = new Map([...osm, ...fhrs].map((r) => [r.id, r]));
    for (const s of report!.skippedRecords) {
      if (s.reason !== 'merged_into_osm' || !s.ref.startsWith('fhrs:') || s.detail?.includes('second registration')) continue;
      const f = byId.get(s.ref) as VenueRecord;
      const o = byId.get(/^into (\S+?)(,|$)/.exec(s.detail ?? '')![1]!) as VenueRecord;
      const listed = (o.externalIds?.fhrs ?? '').split(';').includes(f.externalIds?.fhrs as string);
      if (!listed) expect(meters(o, f) <= 50 || sameAddressTwin(o, f, 200), `${o.id} ${s.ref}`).toBe(true);
    }
  });
});
