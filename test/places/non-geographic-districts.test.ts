import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

// Oracles: the GeoNames GB rows themselves (gb_places_geonames.csv: one row per place, with
// its county), read here directly, and GeographicLib distances. Audit 65a F17.
const PLACES = 'geonames-gb/gb_places_geonames.csv';
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';

/**
 * Names that mean two places in one county in the source files themselves, so "Name, county"
 * may rightly answer the other one. Each is checked below to have a second row of that name
 * and county more than 5 km from the asked one.
 */
const TWO_PLACES_IN_ONE_COUNTY = ['Aber', 'Bishopstone', 'Charlton', 'Compton', 'Kingswood', 'Llanwinio', 'Mill End', 'Wilsford', 'Woodside', 'Yatton'];

interface Row {
  name: string;
  lat: number;
  lon: number;
  county: string;
}

describe.skipIf(!hasShared(PLACES) || !hasShared(POSTAL))('non-geographic postcode districts do not place named places (audit 65a F17)', () => {
  let resolver: DefaultPlaceResolver;
  let places: Row[];
  let postal: Array<Row & { code: string }>;

  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
    places = (parse(readFileSync(sharedFile(PLACES), 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => ({
      name: r['name']!,
      lat: Number(r['lat']),
      lon: Number(r['lon']),
      county: r['admin2_name']!,
    }));
    postal = readFileSync(sharedFile(POSTAL), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t'))
      .map((f) => ({ code: f[1]!, name: f[2]!, county: f[5]!, lat: Number(f[9]), lon: Number(f[10]) }));
  });

  it('"Wandsworth" is GeoNames\' Wandsworth (51.4577,-0.20784, its SW18 row), not SW95\'s PO-box point 5.2 km off', () => {
    const row = places.find((r) => r.name === 'Wandsworth')!;
    const sw95 = postal.find((r) => r.code === 'SW95' && r.name === 'Wandsworth')!;
    expect(geodesic(row.lat, row.lon, sw95.lat, sw95.lon)).toBeGreaterThan(5000);
    for (const q of ['Wandsworth', 'Wandsworth, Greater London', 'Wandsworth, London']) {
      const got = resolver.resolve(q)!;
      expect(geodesic(got.lat, got.lon, row.lat, row.lon), q).toBeLessThan(500);
    }
  });

  it('every cities1000 row whose name and county are unique, asked as "Name, county", resolves within 5 km of it, bar names with two places in that county', () => {
    const key = (r: Row) => `${r.name.toLowerCase()}|${r.county.toLowerCase()}`;
    const count = new Map<string, number>();
    for (const r of places) if (r.county !== '') count.set(key(r), (count.get(key(r)) ?? 0) + 1);
    const far: string[] = [];
    let asked = 0;
    for (const r of places) {
      if (r.county === '' || count.get(key(r)) !== 1) continue;
      asked++;
      const got = resolver.resolve(`${r.name}, ${r.county}`);
      const d = got === null ? Infinity : geodesic(r.lat, r.lon, got.lat, got.lon);
      if (d > 5000) far.push(r.name);
    }
    expect(asked).toBeGreaterThan(4600);
    expect(far.sort()).toEqual(TWO_PLACES_IN_ONE_COUNTY);
  });

  it.each(TWO_PLACES_IN_ONE_COUNTY)('%s: the source files have a second place of that name in its county, more than 5 km away', (name) => {
    const asked = places.filter((r) => r.name === name);
    const twin = asked.some((a) =>
      [...places, ...postal].some((o) => o.name === name && o.county === a.county && geodesic(a.lat, a.lon, o.lat, o.lon) > 5000),
    );
    expect(twin).toBe(true);
  });

  it('a non-geographic district still resolves as a postcode, as an approximate point (SW95, W1A)', () => {
    for (const code of ['SW95', 'W1A']) {
      const rows = postal.filter((r) => r.code === code);
      const got = resolver.resolve(code)!;
      expect(got.approximate).toBe(true);
      expect(rows.some((r) => geodesic(r.lat, r.lon, got.lat, got.lon) < 2000)).toBe(true);
    }
  });

  it('a place only non-geographic districts name keeps their point: Belmont by Durham (DH97 to DH99), Filton (BS80)', () => {
    for (const [q, code, name] of [
      ['Belmont, Durham', 'DH97', 'Belmont'],
      ['Filton', 'BS80', 'Filton'],
    ] as const) {
      const row = postal.find((r) => r.code === code && r.name === name)!;
      const got = resolver.resolve(q)!;
      expect(geodesic(got.lat, got.lon, row.lat, row.lon), q).toBeLessThan(100);
    }
  });

  it('"Castlebay" is Barra\'s (HS9 row 56.955,-7.4892), not the misnamed PA80 row 110 km off in Morvern', () => {
    const hs9 = postal.find((r) => r.code === 'HS9' && r.name === 'Castlebay')!;
    const pa80 = postal.find((r) => r.code === 'PA80')!;
    expect(pa80.name).toBe('Castlebay');
    expect(geodesic(hs9.lat, hs9.lon, pa80.lat, pa80.lon)).toBeGreaterThan(100_000);
    const got = resolver.resolve('Castlebay')!;
    expect(geodesic(got.lat, got.lon, hs9.lat, hs9.lon)).toBeLessThan(100);
    // The row's point still places its district.
    const district = resolver.resolve('PA80')!;
    expect(geodesic(district.lat, district.lon, pa80.lat, pa80.lon)).toBeLessThan(100);
  });
});
