import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { createHarness } from '../http/support/harness.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { HAVE_OSM_PUBS, loadOsmPubs } from '../find/osm-pubs.js';

/**
 * Audit 64c F1: GeoNames' postal file places 15 IM4 names (St John's, Glen Vine, Baldrine, ...)
 * only at 54.2195,-4.7986, its estimate for the whole district (accuracy 3), which lies in the
 * Irish Sea; a find at "St John's, Isle of Man" searched the sea. Oracles: the postal file's own
 * rows, hand facts (the village of St John's is at about 54.200,-4.637), GeographicLib
 * distances, and a brute-force count over the real Isle of Man import.
 */
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';
const IOM = 'osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson';
const ST_JOHNS = { lat: 54.2, lon: -4.637 };
/** The postal file's estimates shared by several names that lie off the district's places (IM4 and IM7). */
const STRAY = [
  { code: 'IM4', lat: 54.2195, lon: -4.7986 },
  { code: 'IM7', lat: 54.2294, lon: -4.2683 },
];

describe.runIf(hasShared(POSTAL))('postal names placed only at a stray district estimate (audit 64c F1)', () => {
  const rows = readFileSync(sharedFile(POSTAL), 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f.length >= 12)
    .map((f) => ({ code: f[1]!, name: f[2]!, lat: Number(f[9]), lon: Number(f[10]), accuracy: Number(f[11]) }));
  const resolver = createDefaultPlaceResolver([]);

  it('the premise: the IM4 estimate is 10.7 km from St John\'s, and 15 IM4 names share it', () => {
    expect(geodesic(STRAY[0]!.lat, STRAY[0]!.lon, ST_JOHNS.lat, ST_JOHNS.lon)).toBeGreaterThan(10_600);
    expect(geodesic(STRAY[0]!.lat, STRAY[0]!.lon, ST_JOHNS.lat, ST_JOHNS.lon)).toBeLessThan(10_800);
    expect(rows.filter((r) => r.code === 'IM4' && r.lat === STRAY[0]!.lat && r.lon === STRAY[0]!.lon).length).toBe(15);
  });

  it('no name of those districts resolves to the estimate (or within 1 km of it)', () => {
    const names = rows.filter((r) => STRAY.some((s) => r.code === s.code && r.lat === s.lat && r.lon === s.lon)).map((r) => r.name);
    expect(names).toContain("St John's");
    expect(names).toContain('Glen Vine');
    for (const name of names) {
      for (const asked of [name, `${name}, Isle of Man`]) {
        let place: { lat: number; lon: number } | null = null;
        try {
          place = resolver.resolve(asked);
        } catch (err) {
          expect(err).toBeInstanceOf(UnknownPlaceError);
        }
        if (place !== null) for (const s of STRAY) expect(geodesic(place.lat, place.lon, s.lat, s.lon), asked).toBeGreaterThan(1000);
      }
    }
  });

  it('"St John\'s, Isle of Man" and "Glen Vine" are unknown_place saying they are known only by IM4\'s estimate, offering IM4 (not "no St John\'s in Isle of Man", which is false)', () => {
    // the oracle: the postal file's rows of both names are IM4's, at the stray estimate (premise above)
    for (const name of ["St John's", 'Glen Vine']) expect(rows.filter((r) => r.name === name && r.code.startsWith('IM')).map((r) => r.code)).toEqual(['IM4']);
    let said: UnknownPlaceError | null = null;
    try {
      resolver.resolve("St John's, Isle of Man");
    } catch (err) {
      said = err as UnknownPlaceError;
    }
    expect(said).toBeInstanceOf(UnknownPlaceError);
    expect(said!.message).toBe(
      'location "St John\'s, Isle of Man": St John\'s in Isle of Man is known only by its postal district\'s estimate (IM4), too rough to search at; search its district ("IM4") or a place near it',
    );
    expect(said!.suggestions).toEqual(['IM4']);
    expect(() => resolver.resolve('Glen Vine')).toThrow('location "Glen Vine": Glen Vine is known only by its postal district\'s estimate (IM4), too rough to search at; search its district ("IM4") or a place near it');
    // the district's own point, which the suggestion resolves to, is on the island (it spans 54.04-54.42 N, 4.80-4.31 W)
    const im4 = resolver.resolve('IM4')!;
    expect(im4.lat).toBeGreaterThan(54.04);
    expect(im4.lat).toBeLessThan(54.42);
    expect(im4.lon).toBeGreaterThan(-4.8);
    expect(im4.lon).toBeLessThan(-4.31);
  });

  it('an estimate near its district\'s places is kept (IM5\'s, 1.2 km from Patrick): Glenmaye still resolves there', () => {
    const place = resolver.resolve('Glenmaye');
    expect(place).not.toBeNull();
    expect(geodesic(place!.lat, place!.lon, 54.1985, -4.7048)).toBeLessThan(1);
  });
});

describe.runIf(hasShared(IOM))('a find on the Isle of Man data (audit 64c F1)', () => {
  let records: VenueRecord[];
  let engine: Engine;
  beforeAll(async () => {
    ({ records } = await collectRun(importOsm(sharedFile(IOM))));
    engine = createEngine(records);
  });

  it('venues lie around the real St John\'s and none around the estimate (brute force)', () => {
    const within = (lat: number, lon: number) => records.filter((r) => geodesic(lat, lon, r.location.coordinates[0], r.location.coordinates[1]) <= 5000).length;
    expect(within(ST_JOHNS.lat, ST_JOHNS.lon)).toBeGreaterThan(10);
    expect(within(STRAY[0]!.lat, STRAY[0]!.lon)).toBe(0);
  });

  it('"St John\'s, Isle of Man" is refused rather than answered with no venues at sea', () => {
    expect(() => engine.find({ q: 'a', location: "St John's, Isle of Man" })).toThrow(UnknownPlaceError);
  });
});

describe.runIf(hasShared(POSTAL))('resolvedPlace says when its point is a district estimate (audit 64c F1)', () => {
  const rows = readFileSync(sharedFile(POSTAL), 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f.length >= 12);
  const row = (code: string, name: string) => rows.find((f) => f[1] === code && f[2] === name)!;

  it('over HTTP: "Glenmaye" (only at IM5\'s shared accuracy-3 estimate) is approximate, "Peel" (accuracy 4) is not', async () => {
    const glenmaye = row('IM5', 'Glenmaye');
    expect(glenmaye[11]).toBe('3');
    expect(rows.filter((f) => f[1] === 'IM5' && f[9] === glenmaye[9] && f[10] === glenmaye[10]).length).toBeGreaterThan(1);
    expect(row('IM5', 'Peel')[11]).toBe('4');
    const h = await createHarness();
    try {
      const acct = await h.open();
      const get = async (location: string) => {
        const res = await h.app.inject({ method: 'GET', url: `/v1/find?q=a&location=${encodeURIComponent(location)}`, headers: { 'api-key': acct.secretKey } });
        expect(res.statusCode, location).toBe(200);
        return (res.json() as { resolvedPlace: { Lat: number; Lon: number; approximate?: boolean } }).resolvedPlace;
      };
      const g = await get('Glenmaye');
      expect(g.approximate).toBe(true);
      expect(geodesic(g.Lat, g.Lon, Number(glenmaye[9]), Number(glenmaye[10]))).toBeLessThan(1);
      expect('approximate' in (await get('Peel'))).toBe(false);
    } finally {
      await h.close();
    }
  });
});

/**
 * Audit 65a F13: with the IM4 estimate left out, "St John's" on the Isle of Man data took the
 * nearest other St John's, St John's Chapel in County Durham (an approximate point 190 km
 * away), and "Park Lane" on the London pubs (W1's estimate left out) Park Lane, Wrexham.
 * Now unknown_place naming where the others are, each suggestion resolving. Oracle: the
 * postal file's rows of the name and a brute-force GeographicLib scan of the imported venues.
 */
const FAR_METERS = 50_000;
describe.runIf(hasShared(POSTAL) && hasShared(IOM))('a bare name whose place near the data was a stray estimate (audit 65a F13)', () => {
  const rows = () =>
    readFileSync(sharedFile(POSTAL), 'utf8')
      .split('\n')
      .map((l) => l.split('\t'))
      .filter((f) => f.length >= 12)
      .map((f) => ({ code: f[1]!, name: f[2]!, lat: Number(f[9]), lon: Number(f[10]) }));
  const nearestVenue = (records: readonly VenueRecord[], lat: number, lon: number) =>
    Math.min(...records.map((r) => geodesic(lat, lon, r.location.coordinates[0], r.location.coordinates[1])));

  it('"St John\'s" on the Isle of Man data: every other St John\'s of the postal file is over 50 km from every venue, so unknown_place listing them; each suggestion resolves', async () => {
    const { records } = await collectRun(importOsm(sharedFile(IOM)));
    const engine = createEngine(records);
    const others = rows().filter((r) => r.name === "St John's" && r.code !== 'IM4');
    expect(others.map((r) => r.code).sort()).toEqual(['DL13', 'GU21', 'SE8', 'WR2']);
    for (const r of others) expect(nearestVenue(records, r.lat, r.lon), r.code).toBeGreaterThan(FAR_METERS);
    let err: unknown;
    try {
      engine.find({ q: 'a', location: "St John's" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnknownPlaceError);
    const { message, suggestions } = err as UnknownPlaceError;
    for (const county of ['Surrey', 'Durham', 'Worcestershire']) expect(message).toContain(county);
    expect(message).not.toMatch(/Isle of Man/);
    // its own district first (audit 66a F11; the advice's reach: district-advice.test.ts), then the four others
    expect(suggestions[0]).toBe('IM4');
    expect(suggestions.length).toBe(5);
    for (const s of suggestions.slice(1)) {
      const place = engine.find({ q: 'a', location: s }).resolvedPlace!;
      expect(place.approximate, s).toBe(true);
      expect(nearestVenue(records, place.Lat, place.Lon), s).toBeGreaterThan(FAR_METERS);
    }
    // a name with no stray estimate keeps its one approximate point, far or not
    expect(engine.find({ q: 'a', location: 'Glenmaye' }).resolvedPlace!.approximate).toBe(true);
  });

  it.runIf(HAVE_OSM_PUBS)('"Park Lane" on the London pubs (W1\'s estimate left out; the other Park Lane is in Wrexham, over 50 km off) is unknown_place', () => {
    const pubs = loadOsmPubs();
    const engine = createEngine(pubs);
    const others = rows().filter((r) => r.name === 'Park Lane' && r.code !== 'W1');
    expect(others.length).toBeGreaterThan(0);
    for (const r of others) expect(nearestVenue(pubs, r.lat, r.lon), r.code).toBeGreaterThan(FAR_METERS);
    expect(() => engine.find({ q: 'a', location: 'Park Lane' })).toThrow(/Park Lane is also in Wrexham/);
    expect(engine.find({ q: 'a', location: 'Park Lane, Wrexham' }).resolvedPlace!.approximate).toBe(true);
  });
});
