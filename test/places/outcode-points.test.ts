import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer } from '../../src/places/gazetteer.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Walk-through 32, fault 1: outward codes at GeoNames' London fallback point. 42 central
 * London districts (W1D Soho, EC3, EC4A, WC2H, SW1P, ...) have no row of their own in
 * GeoNames' GB postal file, only its generic London point (51.5085, -0.1257, Charing Cross),
 * and resolved there, up to 3 km from the district. Oracles: the GeoNames source rows read
 * here directly and scanned by brute force, and reference points from sources independent
 * of GeoNames (Wikipedia; the outcode centroid table of github.com/ronar/partner-web-app
 * src/areas.ts, commit 1a9ec56, already used by places-on-any-data.test.ts).
 */
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
const PLACES = 'geonames-gb/gb_places_geonames.csv';

interface Row {
  code: string;
  name: string;
  lat: number;
  lon: number;
  accuracy: number;
}

/** Every row of GeoNames' GB postal file, read here directly (columns: code 1, place name 2, lat 9, lon 10, accuracy 11). */
function postalRows(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(sharedFile(POSTAL), 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 11) continue;
    rows.push({ code: f[1]!, name: f[2]!, lat: Number(f[9]), lon: Number(f[10]), accuracy: Number(f[11] || 0) });
  }
  return rows;
}

const REFERENCES: ReadonlyArray<readonly [string, string, { lat: number; lon: number }]> = [
  // en.wikipedia.org/wiki/Soho infobox (W1D is "Soho (south east), Chinatown, Soho Square" in the table)
  ['W1D', 'Wikipedia (Soho)', { lat: 51.5136, lon: -0.134 }],
  ['W1F', 'Wikipedia (Soho)', { lat: 51.5136, lon: -0.134 }],
  // hand-picked: Fenchurch Street / Leadenhall, between the table's EC3M and EC3V
  ['EC3', 'hand-picked (Fenchurch Street)', { lat: 51.512, lon: -0.08 }],
  ['EC4A', 'outcode centroid table (Fetter Lane)', { lat: 51.517526, lon: -0.10828337 }],
  ['EC1A', "outcode centroid table (St Bartholomew's)", { lat: 51.525136, lon: -0.11118274 }],
  ['WC1E', 'outcode centroid table (UCL)', { lat: 51.522774, lon: -0.1333067 }],
  ['WC2H', 'outcode centroid table (Leicester Square)', { lat: 51.513033, lon: -0.12923721 }],
  ['SW1P', 'outcode centroid table (Victoria, Pimlico)', { lat: 51.496429, lon: -0.13743747 }],
];

describe.skipIf(!hasShared(POSTAL))('walk-through 32: outward codes at their own rows, not at a post town\'s point (GeoNames source read directly)', () => {
  const byCode = new Map<string, Row[]>();
  const codesAtPoint = new Map<string, Set<string>>();
  const gazetteerOnly = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });

  beforeAll(() => {
    for (const row of postalRows()) {
      (byCode.get(row.code) ?? byCode.set(row.code, []).get(row.code)!).push(row);
      const k = `${row.lat},${row.lon}`;
      (codesAtPoint.get(k) ?? codesAtPoint.set(k, new Set()).get(k)!).add(row.code);
    }
  });

  it('every code with a GeoNames-feature row (accuracy 4) at a point no other code shares resolves inside the box of its accuracy-4 rows', () => {
    let checked = 0;
    const outside: string[] = [];
    for (const [code, rows] of byCode) {
      const features = rows.filter((r) => r.accuracy === 4);
      if (!features.some((r) => codesAtPoint.get(`${r.lat},${r.lon}`)!.size === 1)) continue;
      checked++;
      const got = gazetteerOnly.resolve(code)!;
      const lats = features.map((r) => r.lat);
      const lons = features.map((r) => r.lon);
      const inside = got.lat >= Math.min(...lats) && got.lat <= Math.max(...lats) && got.lon >= Math.min(...lons) && got.lon <= Math.max(...lons);
      if (!inside) outside.push(`${code} (${got.lat}, ${got.lon})`);
    }
    expect(checked).toBeGreaterThan(2000);
    expect(outside).toEqual([]); // before the fix: W1 (51.50121, -0.09864) and others, pulled by estimated rows
  });

  it('the codes whose every row lies at the point 42 codes share (GeoNames\' London point) resolve away from it', () => {
    const londonPoint = [...codesAtPoint].sort((a, b) => b[1].size - a[1].size)[0]!;
    expect(londonPoint[0]).toBe('51.5085,-0.1257');
    expect(londonPoint[1].size).toBe(42);
    const onlyThere = [...byCode].filter(([, rows]) => rows.every((r) => `${r.lat},${r.lon}` === londonPoint[0])).map(([code]) => code);
    expect(onlyThere.length).toBeGreaterThanOrEqual(40);
    for (const code of onlyThere) {
      const got = gazetteerOnly.resolve(code)!;
      expect(got.kind).toBe('postcode');
      expect(geodesic(got.lat, got.lon, 51.5085, -0.1257), code).toBeGreaterThan(100);
    }
  });

  it.each(REFERENCES)('%s from the gazetteer alone lies within 1.5 km of the reference (%s)', (code, _source, ref) => {
    const got = gazetteerOnly.resolve(code)!;
    expect(geodesic(got.lat, got.lon, ref.lat, ref.lon)).toBeLessThan(1500);
  });

  it('EC3 (no placed row of its own) lies within 1 km of Fenchurch Street: the mean of its sub-districts EC3A ... EC3V', () => {
    const got = gazetteerOnly.resolve('EC3')!;
    expect(geodesic(got.lat, got.lon, 51.512, -0.08)).toBeLessThan(1000);
  });
});

describe.skipIf(!hasShared(LONDON_PUBS))('walk-through 32: an approximate district point yields to the venues\' own postcodes', () => {
  let engine: Engine;
  let w1dPubs: Array<{ lat: number; lon: number }>;

  beforeAll(async () => {
    const { records } = await collectRun(importOsm(sharedFile(LONDON_PUBS)));
    engine = createEngine(records);
    w1dPubs = records.filter((r) => /\bW1D ?\d[A-Z]{2}\b/.test(r.formattedAddress ?? '')).map((r) => ({ lat: r.location.coordinates[0], lon: r.location.coordinates[1] }));
  });

  it('GET /v1/find?q=pub&location=W1D: within 500 m of Soho (Wikipedia), at the centre of the pubs with W1D postcodes', () => {
    expect(w1dPubs.length).toBeGreaterThanOrEqual(5);
    const centre = engine.find({ q: 'pub', location: 'W1D' }).searchLocation!;
    expect(geodesic(centre.Lat, centre.Lon, 51.5136, -0.134)).toBeLessThan(500);
    // brute force: every W1D pub lies within 1 km of the resolved centre (before the fix it was Charing Cross)
    for (const p of w1dPubs) expect(geodesic(centre.Lat, centre.Lon, p.lat, p.lon)).toBeLessThan(1000);
  });
});

describe('the resolver: approximate and precise outward points (synthetic venues, hand-computed centres)', () => {
  const venue = (id: string, lat: number, lon: number, postcode: string): VenueRecord => ({
    id,
    name: `The ${id} Arms`,
    location: { type: 'Point', coordinates: [lat, lon] },
    formattedAddress: `${id} Greek Street, London ${postcode}`,
  });
  const gazetteer = new Gazetteer(
    [],
    [
      { code: 'W1D', lat: 51.5155, lon: -0.1474, precise: false },
      { code: 'NW1', lat: 51.5299, lon: -0.1472, precise: true },
    ],
  );

  it('learnt W1D (mean 51.5135, -0.1320) wins over the approximate gazetteer W1D 1 km away; without venues the approximate point is used', () => {
    const rs = [venue('a', 51.513, -0.131, 'W1D 4NU'), venue('b', 51.514, -0.133, 'W1D 5LH'), venue('c', 51.5135, -0.132, 'W1D 3QF')];
    const got = createDefaultPlaceResolver(rs, { gazetteer }).resolve('W1D')!;
    expect(got.lat).toBeCloseTo(51.5135, 9);
    expect(got.lon).toBeCloseTo(-0.132, 9);
    expect(createDefaultPlaceResolver([], { gazetteer }).resolve('W1D')).toMatchObject({ lat: 51.5155, lon: -0.1474, kind: 'postcode' });
  });

  it('a precise gazetteer NW1 within 10 km of the learnt NW1 is still taken (same place, surveyed point)', () => {
    const rs = [venue('a', 51.535, -0.14, 'NW1 7AB'), venue('b', 51.536, -0.141, 'NW1 8NH'), venue('c', 51.534, -0.139, 'NW1 0JH')];
    expect(createDefaultPlaceResolver(rs, { gazetteer }).resolve('NW1')).toMatchObject({ lat: 51.5299, lon: -0.1472 });
  });
});

describe.skipIf(!hasShared(POSTAL) || !hasShared(PLACES))('walk-through 33: place names at a post town\'s point take their outward code\'s point (GeoNames source read directly)', () => {
  const gazetteerOnly = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });
  /** The postal rows, and GeoNames place names (lower case) with their points. */
  let rows: Row[] = [];
  const places = new Map<string, Array<{ lat: number; lon: number }>>();

  beforeAll(() => {
    rows = postalRows();
    for (const line of readFileSync(sharedFile(PLACES), 'utf8').split('\n').slice(1)) {
      const f = line.split(',');
      if (f.length < 3) continue;
      const key = f[0]!.toLowerCase();
      (places.get(key) ?? places.set(key, []).get(key)!).push({ lat: Number(f[1]), lon: Number(f[2]) });
    }
  });

  it('a name whose every row lies at a point 3 or more codes share, and that is no GeoNames place there, resolves away from that point when its code has rows elsewhere', () => {
    const codesAt = new Map<string, Set<string>>();
    for (const r of rows) {
      const k = `${r.lat},${r.lon}`;
      (codesAt.get(k) ?? codesAt.set(k, new Set()).get(k)!).add(r.code);
    }
    const byName = new Map<string, typeof rows>();
    for (const r of rows) (byName.get(r.name) ?? byName.set(r.name, []).get(r.name)!).push(r);
    const checked: string[] = [];
    for (const [name, own] of byName) {
      const p = own[0]!;
      if (!own.every((r) => r.lat === p.lat && r.lon === p.lon && r.accuracy < 4)) continue;
      if (codesAt.get(`${p.lat},${p.lon}`)!.size < 3) continue;
      if ((places.get(name.toLowerCase()) ?? []).some((q) => geodesic(q.lat, q.lon, p.lat, p.lon) < 5000)) continue;
      // a code with no row elsewhere, nor sub-districts with one (BS0, BS98: PO boxes; WS1: Walsall's point only), has nothing better to offer
      const ownCodes = new Set(own.map((r) => r.code));
      if (!rows.some((o) => (ownCodes.has(o.code) || (/[A-Z]$/.test(o.code) && ownCodes.has(o.code.slice(0, -1)))) && (o.lat !== p.lat || o.lon !== p.lon))) continue;
      const got = gazetteerOnly.resolve(name);
      if (got === null || geodesic(got.lat, got.lon, p.lat, p.lon) > 20_000) continue; // a same-named place elsewhere is picked
      checked.push(name);
      expect(geodesic(got.lat, got.lon, p.lat, p.lon), name).toBeGreaterThan(100);
    }
    expect(checked).toEqual(expect.arrayContaining(['Aldgate', 'Monument', 'Tower Hill', 'Fenchurch Street', 'Billingsgate']));
  });

  // Wikipedia infoboxes (the stations, and the Monument itself): before the fix all three lay 3 km away, at Charing Cross.
  it.each([
    ['Aldgate', { lat: 51.5143, lon: -0.0755 }],
    ['Monument', { lat: 51.5101, lon: -0.0860 }],
    ['Tower Hill', { lat: 51.5098, lon: -0.0766 }],
  ] as const)('%s from the gazetteer alone lies within 1 km of its Wikipedia point', (name, ref) => {
    const got = gazetteerOnly.resolve(name)!;
    expect(got.name).toBe(name);
    expect(geodesic(got.lat, got.lon, ref.lat, ref.lon)).toBeLessThan(1000);
  });
});
