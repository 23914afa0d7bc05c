import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { GEONAMES_POSTAL, readGeoNamesPostal } from './support/geonames-rows.js';
import { findRefusal, nearestVenueMeters } from './support/refusals.js';
import { HAVE_OSM_PUBS, loadOsmPubs } from '../find/osm-pubs.js';

/**
 * Audit 66a F7, F8, F9, F11: bare names on real data whose place near the venues is a stray
 * postal-district estimate, and the far-approximate refusal. Oracles: the postal file's rows,
 * hand-known points, brute-force GeographicLib scans of the imported venues.
 */
const POSTAL = GEONAMES_POSTAL;
const IOM = 'osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson';
const FAR_METERS = 50_000;
/** St John's, Isle of Man (Tynwald Hill), hand-known. */
const ST_JOHNS = { lat: 54.2018, lon: -4.6366 };

const postalRows = () => readGeoNamesPostal().map((r) => ({ code: r.outcode, name: r.name, lat: r.lat, lon: r.lon }));

describe.runIf(hasShared(POSTAL) && hasShared(IOM))('the Isle of Man data (audit 66a F7, F8, F11)', () => {
  let records: VenueRecord[];
  let engine: Engine;
  beforeAll(async () => {
    ({ records } = await collectRun(importOsm(sharedFile(IOM))));
    engine = createEngine(records);
  });

  it('F8: "Garth" (IM4\'s at the stray estimate; every other Garth, precise or not, over 50 km from every venue) is unknown_place offering IM4 first, not Garth, Gwynedd', () => {
    const rows = postalRows().filter((r) => r.name === 'Garth');
    const im4 = rows.find((r) => r.code === 'IM4')!;
    // the IM4 row sits at the district's shared estimate, off the island's west coast
    expect(postalRows().filter((r) => r.code === 'IM4' && r.lat === im4.lat && r.lon === im4.lon).length).toBeGreaterThan(10);
    const others = rows.filter((r) => r.code !== 'IM4');
    expect(others.length).toBeGreaterThan(3);
    for (const r of others) expect(nearestVenueMeters(records, r.lat, r.lon), r.code).toBeGreaterThan(FAR_METERS);
    const err = findRefusal(engine, 'Garth');
    expect(err.message).toContain('the Garth near the venues is known only by its postal district\'s estimate (IM4)');
    expect(err.message).toContain('Gwynedd');
    expect(err.suggestions[0]).toBe('IM4');
    for (const s of err.suggestions.slice(1)) {
      const p = engine.find({ q: 'a', location: s }).resolvedPlace!;
      expect(nearestVenueMeters(records, p.Lat, p.Lon), s).toBeGreaterThan(FAR_METERS);
    }
  });

  it('F7: the IM4 advice states a radius from IM4\'s point that reaches every venue within 2 km of St John\'s (brute force), and a find so reaches them', () => {
    const near = records.filter((r) => geodesic(ST_JOHNS.lat, ST_JOHNS.lon, r.location.coordinates[0], r.location.coordinates[1]) <= 2000);
    expect(near.length).toBeGreaterThan(2);
    for (const location of ["St John's", "St John's, Isle of Man", 'Glen Vine']) {
      const err = findRefusal(engine, location);
      const radius = /"IM4" with maxDistanceMeters (\d+)/.exec(err.message);
      expect(radius, location).not.toBeNull();
      const meters = Number(radius![1]);
      const im4 = engine.find({ q: 'a', location: 'IM4' }).resolvedPlace!;
      // the oracle: every venue near St John's lies within the advised radius of IM4's point, which the default 5 km does not reach
      const farthest = Math.max(...near.map((r) => geodesic(im4.Lat, im4.Lon, r.location.coordinates[0], r.location.coordinates[1])));
      expect(farthest).toBeGreaterThan(5000);
      expect(farthest).toBeLessThanOrEqual(meters);
      expect(meters).toBeLessThanOrEqual(100_000);
      for (const r of near) {
        const found = engine.find({ q: r.name, location: 'IM4', maxDistanceMeters: meters, limit: 100 }).establishments.map((e) => e.id);
        expect(found, r.name).toContain(r.id);
      }
    }
  });

  it('F11: "Sandygate" (IM7\'s at a stray estimate) offers IM7 first, then "Sandygate, Devon"', () => {
    expect(postalRows().filter((r) => r.name === 'Sandygate').map((r) => r.code).sort()).toEqual(['IM7', 'TQ12']);
    const err = findRefusal(engine, 'Sandygate');
    expect(err.suggestions).toEqual(['IM7', 'Sandygate, Devon']);
  });
});

describe.runIf(hasShared(POSTAL) && HAVE_OSM_PUBS)('the London pubs (audit 66a F9, F11)', () => {
  let pubs: VenueRecord[];
  let engine: Engine;
  beforeAll(() => {
    pubs = loadOsmPubs();
    engine = createEngine(pubs);
  });

  it('F11: "Park Lane" offers W1 first; "Park Lane, W1" is advised W1 and does not say Park Lane is in Wrexham; W1 is within 5 km of Park Lane (hand-known 51.5085,-0.1536)', () => {
    expect(postalRows().filter((r) => r.name === 'Park Lane').map((r) => r.code).sort()).toEqual(['LL13', 'W1']);
    expect(findRefusal(engine, 'Park Lane').suggestions).toEqual(['W1', 'Park Lane, Wrexham']);
    const qualified = findRefusal(engine, 'Park Lane, W1');
    expect(qualified.message).not.toContain('Wrexham');
    expect(qualified.suggestions).toEqual(['W1']);
    // the sub-district its own postcodes carry (Park Lane W1K 1..., the Dorchester's W1K 1QA) reads the same
    const sub = findRefusal(engine, 'Park Lane, W1K');
    expect(sub.message).not.toContain('Wrexham');
    expect(sub.suggestions).toEqual(['W1']);
    // and a sub-district of another district is no reading of it
    expect(findRefusal(engine, 'Park Lane, W2A').message).not.toContain('known only by its postal district');
    const w1 = engine.find({ q: 'a', location: 'W1' }).resolvedPlace!;
    expect(geodesic(w1.Lat, w1.Lon, 51.5085, -0.1536)).toBeLessThan(5000);
  });

  it('F9: "Warley" (Sandwell, hand-known 52.4857,-1.9787) is not refused for "Warley Town" (by Halifax, 53.7187,-1.9458), which is farther from every venue (its own place offered instead: audit 66f F5, far-approximate-suffixed.test.ts); "Clewer" still is, for "Clewer Village" within 50 km', () => {
    const warley = nearestVenueMeters(pubs, 52.4857, -1.9787);
    const warleyTown = nearestVenueMeters(pubs, 53.7187, -1.9458);
    expect(warley).toBeGreaterThan(FAR_METERS);
    expect(warleyTown).toBeGreaterThan(warley);
    expect(findRefusal(engine, 'Warley').suggestions).not.toContain('Warley Town');
    const clewer = findRefusal(engine, 'Clewer');
    expect(clewer.suggestions).toEqual(['Clewer Village']);
    const village = engine.find({ q: 'a', location: 'Clewer Village' }).resolvedPlace!;
    expect(nearestVenueMeters(pubs, village.Lat, village.Lon)).toBeLessThan(FAR_METERS);
  });
});
