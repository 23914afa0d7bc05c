import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { collectRun, importFhrs } from '../../src/import/index.js';
import { fillGaps, mergeVenues } from '../../src/import/merge.js';
import { importOsm } from '../../src/import/osm-import.js';
import { VenueRecordSchema, type VenueRecord } from '../../src/schema/venue.js';

const FIX = new URL('../../fixtures/import/', import.meta.url).pathname;

describe('importFhrs (fixtures/import/fhrs-sample.csv)', async () => {
  const { records, report } = await collectRun(importFhrs(FIX + 'fhrs-sample.csv'));
  const get = (id: string) => records.find((r) => r.id === id) as VenueRecord;

  it('counts add up; skips: no coordinates, unsupported type, geocoded far from its authority', () => {
    expect(report.read).toBe(8);
    expect(records.map((r) => r.id)).toEqual(['fhrs:12345', 'fhrs:20001', 'fhrs:20002', 'fhrs:20006', 'fhrs:777']);
    const skips = Object.fromEntries([...report.skipReasons].map(([k, g]) => [k, g.examples]));
    expect(Object.keys(skips).sort()).toEqual(['far_from_local_authority', 'missing_coordinates', 'unsupported_business_type']);
    expect(skips.missing_coordinates).toEqual(['fhrs:20003']);
    expect(skips.unsupported_business_type).toEqual(['fhrs:20004 (Retailers - other)']);
    expect(skips.far_from_local_authority?.[0]).toMatch(/^fhrs:20005 \(1\d\d km from Testham\)$/);
    expect(report.balanced()).toBe(true);
    for (const r of records) expect(Value.Check(VenueRecordSchema, r)).toBe(true);
  });

  it('business type -> primaryGenre: Pub/bar/nightclub -> pub, Restaurant/Cafe/Canteen -> restaurant, Takeaway/sandwich shop -> takeaway', () => {
    expect(get('fhrs:12345').primaryGenre).toBe('pub');
    expect(get('fhrs:20001').primaryGenre).toBe('restaurant');
    expect(get('fhrs:20002').primaryGenre).toBe('takeaway');
    expect(get('fhrs:20002').amenities).toEqual({ takeaway: true });
  });

  it('name, address lines + postcode (quoted commas kept), [lat, lon], externalIds.fhrs', () => {
    const r = get('fhrs:20001');
    expect(r.name).toBe('Curry House, The');
    expect(r.formattedAddress).toBe('Unit 2, 3 Market Row, Rear, London, N1 2BB');
    expect(r.location.coordinates).toEqual([51.501, -0.101]);
    expect(r.externalIds).toEqual({ fhrs: '20001' });
  });

  it('a single-row authority is not judged far (its median means nothing); Infinity keeps far rows', async () => {
    expect(get('fhrs:777')).toBeDefined();
    const all = await collectRun(importFhrs(FIX + 'fhrs-sample.csv', { maxKmFromAuthority: Infinity }));
    expect(all.records.map((r) => r.id)).toContain('fhrs:20005');
  });
});

describe('mergeVenues: OSM fhrs:id links to FHRS rows', async () => {
  const osm = await collectRun(importOsm(FIX + 'osm-overpass-sample.geojson'));
  const fhrs = await collectRun(importFhrs(FIX + 'fhrs-sample.csv'));
  const { records, report } = mergeVenues([...osm.records, ...fhrs.records]);
  const get = (id: string) => records.find((r) => r.id === id);

  it('linked FHRS rows are not emitted; the merged record keeps the OSM id, name and location', () => {
    expect(get('fhrs:12345')).toBeUndefined();
    expect(get('fhrs:777')).toBeUndefined();
    const pub = get('osm:node/1001') as VenueRecord;
    expect(pub.name).toBe('The Test Arms');
    expect(pub.location.coordinates).toEqual([51.5, -0.1]);
    expect(pub.externalIds).toEqual({ osm: 'node/1001', fhrs: '12345', wikidata: 'Q999' });
  });

  it('FHRS fills gaps only: the site relation gains the FHRS address; flags are united', () => {
    const site = get('osm:relation/3003') as VenueRecord;
    expect(site.formattedAddress).toBe('15 Staines Road, Twickenham, TW2 5BG');
    expect(site.primaryGenre).toBe('pub');
    expect(site.establishmentFlags).toEqual(['servesAlcohol']);
  });

  it('counts: read = OSM + FHRS, two merged away, unlinked rows pass through in order', () => {
    expect(report.read).toBe(osm.records.length + fhrs.records.length);
    expect(report.skipReasons.get('merged_into_osm')?.count).toBe(2);
    expect(records.length).toBe(report.read - 2);
    expect(report.balanced()).toBe(true);
    expect(records.filter((r) => r.id.startsWith('fhrs:')).map((r) => r.id)).toEqual(['fhrs:20001', 'fhrs:20002', 'fhrs:20006']);
    for (const r of records) expect(Value.Check(VenueRecordSchema, r)).toBe(true);
  });

  it('fillGaps: OSM object fields win key by key; lists other than flags stay OSM', () => {
    const a: VenueRecord = {
      id: 'osm:node/1',
      name: 'A',
      location: { type: 'Point', coordinates: [1, 2] },
      amenities: { outdoorSeating: true },
      additionalGenres: ['thai'],
      catersFlags: ['vegan'],
    };
    const b: VenueRecord = {
      id: 'fhrs:1',
      name: 'B',
      location: { type: 'Point', coordinates: [3, 4] },
      amenities: { outdoorSeating: false, takeaway: true },
      additionalGenres: ['pizza'],
      catersFlags: ['vegetarian', 'vegan'],
      formattedAddress: 'x',
    };
    expect(fillGaps(a, b)).toEqual({
      id: 'osm:node/1',
      name: 'A',
      location: { type: 'Point', coordinates: [1, 2] },
      amenities: { outdoorSeating: true, takeaway: true },
      additionalGenres: ['thai'],
      catersFlags: ['vegan', 'vegetarian'],
      formattedAddress: 'x',
    });
  });

  it('a repeated id across inputs keeps the first and reports the rest', () => {
    const r = mergeVenues([...fhrs.records, ...fhrs.records]);
    expect(r.report.skipReasons.get('duplicate_id')?.count).toBe(fhrs.records.length);
    expect(r.records.length).toBe(fhrs.records.length);
  });
});
