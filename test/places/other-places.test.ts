import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { GEONAMES_PLACES, readGeoNamesPlaces, type GeoNamesPlace } from './support/geonames-rows.js';

/**
 * Audits 67c F3 and 67d: "Newport" on the London pubs is Newport, Wales (no Newport near the
 * venues: the most prominent), and the answer did not say which Newport, nor that others
 * exist. find's `resolvedPlace` now carries `area` and `otherPlaces` for a name meaning several
 * places. Oracle: GeoNames' places file read here (its rows named "Newport" by population,
 * with their county, admin2), and GeographicLib distances.
 */
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
const PLACES = GEONAMES_PLACES;
type Row = GeoNamesPlace;

describe.skipIf(!hasShared(LONDON_PUBS) || !hasShared(PLACES))('a name meaning several places: which one, and the others (London pubs)', () => {
  let engine: Engine;
  let newports: Row[];
  beforeAll(async () => {
    engine = createEngine((await collectRun(importOsm(sharedFile(LONDON_PUBS)))).records);
    newports = readGeoNamesPlaces()
      .filter((r) => r.name === 'Newport')
      .sort((a, b) => b.population - a.population);
  });

  it('"Newport" is the most populous Newport (GeoNames), told by its nation, and the next three by population are offered by county', () => {
    const place = engine.find({ q: 'arms', location: 'Newport', limit: 1 }).resolvedPlace!;
    const [taken, ...others] = newports;
    // hand-checked against the file: Newport, Wales (306,844), then the Isle of Wight (24,884),
    // Telford and Wrekin (12,741) and Essex (2,352), each over 10 km from the others
    expect(geodesic(place.Lat, place.Lon, taken!.lat, taken!.lon)).toBeLessThan(100);
    expect(place.area).toBe(taken!.admin1);
    expect(place.otherPlaces).toEqual(others.slice(0, 3).map((r) => `Newport, ${r.admin2}`));
  });

  it('each other place, given as location, resolves to its own GeoNames row (within 1 km); the taken one by its area too', () => {
    const place = engine.find({ q: 'arms', location: 'Newport', limit: 1 }).resolvedPlace!;
    for (const other of place.otherPlaces!) {
      const row = newports.find((r) => `Newport, ${r.admin2}` === other)!;
      const got = engine.find({ q: 'arms', location: other, limit: 1 }).resolvedPlace!;
      expect(geodesic(got.Lat, got.Lon, row.lat, row.lon), other).toBeLessThan(1000);
      expect(got.otherPlaces, other).toBeUndefined();
    }
    const again = engine.find({ q: 'arms', location: `Newport, ${place.area!}`, limit: 1 }).resolvedPlace!;
    expect(geodesic(again.Lat, again.Lon, place.Lat, place.Lon)).toBeLessThan(100);
  });

  it('every eighth GeoNames name meaning several places: each other place, given as location, lies over 10 km from the one taken (GeographicLib), and the taken one is in its area', () => {
    const names = [...new Set(readGeoNamesPlaces().map((r) => r.name))];
    let ambiguous = 0;
    for (let i = 0; i < names.length; i += 8) {
      let place;
      try {
        place = engine.find({ q: 'arms', location: names[i]!, limit: 1 }).resolvedPlace;
      } catch {
        continue; // a refused name: no place, no others
      }
      if (place?.otherPlaces === undefined) continue;
      ambiguous++;
      for (const other of place.otherPlaces) {
        const got = engine.find({ q: 'arms', location: other, limit: 1 }).resolvedPlace!;
        expect(geodesic(got.Lat, got.Lon, place.Lat, place.Lon), `${names[i]!} -> ${other}`).toBeGreaterThan(10_000);
      }
      const own = engine.find({ q: 'arms', location: `${names[i]!}, ${place.area!}`, limit: 1 }).resolvedPlace!;
      expect(geodesic(own.Lat, own.Lon, place.Lat, place.Lon), `${names[i]!}, ${place.area!}`).toBeLessThan(1000);
    }
    expect(ambiguous).toBeGreaterThan(50);
  });

  it('a name the pubs\' addresses taught that other places share is named too (until 2026-11-30 it carried neither): "Richmond" is Greater London\'s, and "Richmond, North Yorkshire" is offered, resolving to its own GeoNames row', () => {
    const rows = readGeoNamesPlaces();
    for (const [name, offered] of [
      ['Richmond', 'Richmond, North Yorkshire'],
      ['Stratford', 'Stratford-upon-Avon, Warwickshire'],
    ] as const) {
      const place = engine.find({ q: 'arms', location: name, limit: 1 }).resolvedPlace!;
      const own = rows.find((r) => r.name === name && r.admin2 === 'Greater London')!;
      expect(geodesic(place.Lat, place.Lon, own.lat, own.lon), name).toBeLessThan(100);
      expect(place.area, name).toBe('Greater London');
      expect(place.otherPlaces, name).toContain(offered);
      const [offeredName, county] = offered.split(', ');
      const row = rows.find((r) => r.name === offeredName && r.admin2 === county)!;
      const got = engine.find({ q: 'arms', location: offered, limit: 1 }).resolvedPlace!;
      expect(geodesic(got.Lat, got.Lon, row.lat, row.lon), offered).toBeLessThan(1000);
      for (const other of place.otherPlaces!) {
        const at = engine.find({ q: 'arms', location: other, limit: 1 }).resolvedPlace!;
        expect(geodesic(at.Lat, at.Lon, place.Lat, place.Lon), other).toBeGreaterThan(10_000);
      }
    }
  });

  it('a name of one place ("Soho", "Islington") carries neither', () => {
    for (const name of ['Soho', 'Islington']) {
      const place = engine.find({ q: 'arms', location: name, limit: 1 }).resolvedPlace!;
      expect(place.area, name).toBeUndefined();
      expect(place.otherPlaces, name).toBeUndefined();
    }
  });
});
