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
 * Audit 66f F5: a bare name known only by approximate points more than 50 km from every venue,
 * whose generic-suffix places ("Row Town", "Clewer Village") lie farther still, is refused
 * offering its own places qualified (which resolve), not resolved silently far from the data
 * nor offered the farther suffixed place (audit 66a F9). Oracles: the postal file's rows,
 * brute-force GeographicLib scans of the imported venues.
 */
const POSTAL = GEONAMES_POSTAL;
const IOM = 'osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson';
const FAR_METERS = 50_000;

const postalRows = (name: string) =>
  readGeoNamesPostal()
    .filter((r) => r.name === name)
    .map((r) => ({ code: r.outcode, county: r.admin2, lat: r.lat, lon: r.lon }));

/** Checks the refusal of `name`: its own rows (the oracle) all far, each suggestion one of them by its county, resolving at its row. */
function expectOwnPlacesOffered(records: readonly VenueRecord[], engine: Engine, name: string, farther: string): void {
  const own = postalRows(name);
  expect(own.length).toBeGreaterThan(0);
  for (const r of own) expect(nearestVenueMeters(records, r.lat, r.lon), r.code).toBeGreaterThan(FAR_METERS);
  const suffixed = postalRows(farther);
  expect(suffixed.length).toBeGreaterThan(0);
  const ownNearest = Math.min(...own.map((r) => nearestVenueMeters(records, r.lat, r.lon)));
  for (const r of suffixed) expect(nearestVenueMeters(records, r.lat, r.lon), farther).toBeGreaterThan(ownNearest);
  const err = findRefusal(engine, name);
  expect(err.message).toContain(`more than 50 km from every venue`);
  expect(err.suggestions).not.toContain(farther);
  expect([...err.suggestions].sort()).toEqual(own.map((r) => `${name}, ${r.county}`).sort());
  for (const s of err.suggestions) {
    const p = engine.find({ q: 'a', location: s }).resolvedPlace!;
    expect(own.some((r) => geodesic(p.Lat, p.Lon, r.lat, r.lon) < 1000), s).toBe(true);
  }
}

describe.runIf(hasShared(POSTAL) && hasShared(IOM))('the Isle of Man data (audit 66f F5)', () => {
  let records: VenueRecord[];
  let engine: Engine;
  beforeAll(async () => {
    ({ records } = await collectRun(importOsm(sharedFile(IOM))));
    engine = createEngine(records);
  });

  it('"Clewer" (Somerset, approximate) is refused offering "Clewer, Somerset", not "Clewer Village" (farther)', () => {
    expectOwnPlacesOffered(records, engine, 'Clewer', 'Clewer Village');
  });

  it('"Row" (Cornwall and Cumbria, approximate) is refused offering both qualified, not "Row Town" (farther)', () => {
    expectOwnPlacesOffered(records, engine, 'Row', 'Row Town');
  });

  // audit 67b F5: "the only Row we know are approximate points" (number), "the only Clewer ...; say which" (a choice of one)
  it.each([
    ['Row', 'location "Row": the 2 places called Row we know are approximate points more than 50 km from every venue (in Cornwall and Cumbria); say which, e.g. "Row, Cornwall"'],
    ['Clewer', 'location "Clewer": the only Clewer we know is an approximate point more than 50 km from every venue (in Somerset); to search there, say "Clewer, Somerset"'],
  ])('the refusal of %j reads as English', (name, message) => {
    expect(findRefusal(engine, name).message).toBe(message);
  });
});

describe.runIf(hasShared(POSTAL) && HAVE_OSM_PUBS)('the London pubs (audit 66f F5, 66a F9)', () => {
  it('"Warley" (Sandwell, approximate, 160 km off) is refused offering "Warley, West Midlands", not "Warley Town"; "Clewer" still offers "Clewer Village" (within 50 km)', () => {
    const pubs = loadOsmPubs();
    const engine = createEngine(pubs);
    const warley = findRefusal(engine, 'Warley');
    expect(warley.suggestions).toEqual(['Warley, West Midlands']);
    // audit 67b F5: one place, so no "say which"
    expect(warley.message).toBe('location "Warley": the only Warley we know is an approximate point more than 50 km from every venue (in West Midlands); to search there, say "Warley, West Midlands"');
    const p = engine.find({ q: 'a', location: 'Warley, West Midlands' }).resolvedPlace!;
    // hand-known Warley, Sandwell
    expect(geodesic(p.Lat, p.Lon, 52.4857, -1.9787)).toBeLessThan(1000);
    expect(nearestVenueMeters(pubs, p.Lat, p.Lon)).toBeGreaterThan(FAR_METERS);
    const clewer = findRefusal(engine, 'Clewer');
    expect(clewer.suggestions).toEqual(['Clewer Village']);
  });
});
