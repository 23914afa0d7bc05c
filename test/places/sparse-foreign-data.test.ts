import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm, importOverture } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audits 67d F5 and 67f F2: the London pubs plus the Overture US sample in one engine (18 % of the venues
 * outside the British Isles, so the world gazetteer is used). The 679 American venues widen the
 * data's reach to about 115 km, which put Kingston, Ontario, 57 km from every venue, in play
 * and let it win as a city over Kingston upon Thames, a town among the pubs: an empty answer
 * 5,500 km from the user. Oracles: Wikipedia infobox coordinates, and the venues within 10 km
 * counted by a GeographicLib brute-force scan.
 */
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
const US_SAMPLE = 'overture-places-sample/overture_places_us_sample.parquet';

// en.wikipedia.org/wiki/Kingston_upon_Thames: 51°24′45″N 0°18′01″W
const KINGSTON_UPON_THAMES = { lat: 51.4125, lon: -0.3003 };
// en.wikipedia.org/wiki/Charing_Cross: 51°30′27″N 0°07′39″W (the centre of London's distances)
const CHARING_CROSS = { lat: 51.5075, lon: -0.1275 };
// en.wikipedia.org/wiki/Birmingham,_Alabama: 33°31′31″N 86°48′36″W
const BIRMINGHAM_ALABAMA = { lat: 33.5253, lon: -86.81 };

describe.skipIf(!hasShared(LONDON_PUBS) || !hasShared(US_SAMPLE))('a bare name on dense British data mixed with sparse American data (project importers)', () => {
  let records: VenueRecord[];
  let engine: Engine;
  beforeAll(async () => {
    const pubs = (await collectRun(importOsm(sharedFile(LONDON_PUBS)))).records;
    const us = (await collectRun(importOverture(sharedFile(US_SAMPLE)))).records;
    expect([pubs.length, us.length]).toEqual([3048, 679]);
    records = [...pubs, ...us];
    engine = createEngine(records);
  });

  /** Venues within 10 km of a point, by GeographicLib over every record. */
  const venuesWithin10km = (p: { lat: number; lon: number }) => records.filter((r) => geodesic(p.lat, p.lon, r.location.coordinates[0], r.location.coordinates[1]) <= 10_000).length;

  it('"Kingston" is Kingston upon Thames, among hundreds of pubs, not Kingston, Ontario, with none near', () => {
    const r = engine.find({ q: 'arms', location: 'Kingston' });
    expect(r.resolvedPlace?.name).toBe('Kingston upon Thames');
    const at = { lat: r.resolvedPlace!.Lat, lon: r.resolvedPlace!.Lon };
    expect(geodesic(at.lat, at.lon, KINGSTON_UPON_THAMES.lat, KINGSTON_UPON_THAMES.lon)).toBeLessThan(2000);
    expect(venuesWithin10km(at)).toBeGreaterThan(300);
    expect(r.totalFound).toBeGreaterThan(0);
  });

  it('"Kingston, UK" is the same place', () => {
    expect(engine.find({ q: 'arms', location: 'Kingston, UK' }).resolvedPlace?.name).toBe('Kingston upon Thames');
  });

  // audit 67f F2: American towns with 0 or 1 venue within 10 km, within reach of an American
  // venue, won as towns over London's postal localities among thousands of pubs
  it.each(['Waterloo', 'Victoria', 'Hampstead', 'Westminster'])('"%s" is the London place among hundreds of pubs, not an American town with about none', (name) => {
    const r = engine.find({ q: 'arms', location: name });
    const at = { lat: r.resolvedPlace!.Lat, lon: r.resolvedPlace!.Lon };
    expect(geodesic(at.lat, at.lon, CHARING_CROSS.lat, CHARING_CROSS.lon)).toBeLessThan(8000);
    expect(venuesWithin10km(at)).toBeGreaterThan(300);
  });

  it('"Birmingham" still follows the venues: Alabama, with a venue within 10 km, not the English city, with none', () => {
    const r = engine.find({ q: 'pizza', location: 'Birmingham' });
    expect(geodesic(r.resolvedPlace!.Lat, r.resolvedPlace!.Lon, BIRMINGHAM_ALABAMA.lat, BIRMINGHAM_ALABAMA.lon)).toBeLessThan(5000);
    expect(venuesWithin10km({ lat: r.resolvedPlace!.Lat, lon: r.resolvedPlace!.Lon })).toBeGreaterThan(0);
  });
});
