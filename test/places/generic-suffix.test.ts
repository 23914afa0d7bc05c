import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { LONDON_PUBS, loadFixtureVenues, loadLondonPubs } from '../search/support.js';
import { geodesic } from '../support/oracle.js';
import { hasShared } from '../support/real-data.js';

/**
 * The generic-suffix rule ("Camden" is Camden Town) takes a suffixed place only near where
 * the name itself is known (one of its own approximate points, or its learnt place), or a
 * city of 100,000 people or more; never for a name of fewer than 3 letters (audit 65a F2:
 * "LA" resolved to La Center, Washington, "New" to New City, Chicago, "Texas" to Texas City,
 * silently). Oracle: GeoNames' rows (cities1000, the GB postal file) and hand-known points.
 */
describe('generic suffixes (town, village, city, centre, center)', () => {
  const world = createDefaultPlaceResolver([], { countries: null });
  const british = createDefaultPlaceResolver([]);

  it('a fragment that is no place of its own, or of 1 or 2 letters, is unknown, not "<fragment> City/Town/Center"', () => {
    // GeoNames has La Center (WA, KY), Le Center (MN), New City (IL, NY), New Town (ND, AU, GB
    // postal names), Texas City (TX, 47,618 people) and no place called "LA", "Le", "New" or "Texas"
    for (const name of ['LA', 'La', 'Le', 'New', 'Texas']) expect(world.resolve(name), name).toBeNull();
    expect(british.resolve('New'), 'New (British gazetteer)').toBeNull();
  });

  it('an unknown bare word is offered its suffixed places: "Kentish" suggests Kentish Town (a GeoNames GB postal name, NW5)', () => {
    expect(british.suggest('Kentish', 3)).toContain('Kentish Town');
    expect(british.suggest('Canning', 3)).toContain('Canning Town');
  });

  it('a name with a place of its own is not moved to a far "<name> City": "Lake" is Lake, Wiltshire (postal row 51.1679,-1.7646), not Lake City', () => {
    const lake = world.resolve('Lake');
    expect(lake?.name).toBe('Lake');
    expect(geodesic(lake!.lat, lake!.lon, 51.1679, -1.7646)).toBeLessThan(100);
  });

  it('the suffix still applies where it names the same place, or a city: Camden, Salt Lake, New York', () => {
    // Camden Town tube station 51.5392,-0.1426 (hand-known); GeoNames' Camden postal point is 1.1 km off
    const camden = british.resolve('Camden');
    expect(camden?.name).toBe('Camden Town');
    expect(geodesic(camden!.lat, camden!.lon, 51.5392, -0.1426)).toBeLessThan(1000);
    // Salt Lake City 40.7608,-111.8910; New York City 40.7128,-74.0060 (city halls)
    const salt = world.resolve('Salt Lake');
    expect(salt?.name).toBe('Salt Lake City');
    expect(geodesic(salt!.lat, salt!.lon, 40.7608, -111.891)).toBeLessThan(2000);
    const ny = world.resolve('New York');
    expect(ny?.name).toBe('New York City');
    expect(geodesic(ny!.lat, ny!.lon, 40.7128, -74.006)).toBeLessThan(2000);
  });
});

/**
 * Audit 65e F1, F3, F4: since the rule above, a bare name whose own places are all approximate
 * points far from the data resolved to one of them silently ("Garden" on New York data was
 * Garden, Stirling; "Clewer" on London data Clewer, Somerset), where "<name> City/Village"
 * had been taken; and a name qualified by the area of its suffixed place was refused
 * ("Warley, West Yorkshire"). Oracles: the GB postal file's rows, hand-known points, and
 * brute-force GeographicLib distances to every venue.
 */
describe('a bare name known only far from the data, beside suffixed places; a qualified one', () => {
  const refusal = (engine: ReturnType<typeof createEngine>, location: string): { message: string; suggestions: readonly string[] } => {
    try {
      engine.find({ q: 'a', location, limit: 1 });
    } catch (err) {
      return err as { message: string; suggestions: readonly string[] };
    }
    throw new Error(`${location} resolved`);
  };
  const nearestVenueMeters = (venues: readonly VenueRecord[], lat: number, lon: number) =>
    Math.min(...venues.map((v) => geodesic(v.location.coordinates[0], v.location.coordinates[1], lat, lon)));

  it('"Garden" on the fixtures\' New York venues: refused, offering "Garden City" (Garden, Stirling is the only Garden, thousands of km away)', () => {
    const ny = loadFixtureVenues().filter((r) => r.location.coordinates[1] < -60 && r.location.coordinates[0] > 30);
    // the GB postal file's Garden (FK8, Stirling: 56.116,-4.2243) is far; Garden City, NY (40.7268,-73.6343) is near
    expect(nearestVenueMeters(ny, 56.116, -4.2243)).toBeGreaterThan(50_000);
    expect(nearestVenueMeters(ny, 40.7268, -73.6343)).toBeLessThan(50_000);
    const err = refusal(createEngine(ny), 'Garden');
    expect(err.message).toBe('location "Garden": the only Garden we know is an approximate point more than 50 km from every venue; did you mean "Garden City"?');
    expect(err.suggestions).toEqual(['Garden City']);
  });

  it.runIf(hasShared(LONDON_PUBS))('"Clewer" on the London pubs: refused, offering "Clewer Village" (Windsor); qualified by their county, Clewer Village and Warley Town resolve', () => {
    const pubs = loadLondonPubs();
    const engine = createEngine(pubs);
    // the postal file's Clewer is in Somerset (BS27: 51.2598,-2.7549), Clewer Village in Windsor (SL4: 51.4755,-0.627)
    expect(nearestVenueMeters(pubs, 51.2598, -2.7549)).toBeGreaterThan(50_000);
    const err = refusal(engine, 'Clewer');
    expect(err.suggestions[0]).toBe('Clewer Village');
    const village = engine.find({ q: 'a', location: 'Clewer, Berkshire', limit: 1 }).resolvedPlace!;
    expect(village.name).toBe('Clewer Village');
    expect(geodesic(village.Lat, village.Lon, 51.4755, -0.627)).toBeLessThan(3000);
    // Warley Town, Calderdale (the postal file's HX2 row: 53.7187,-1.9458)
    const warley = engine.find({ q: 'a', location: 'Warley, West Yorkshire', limit: 1 }).resolvedPlace!;
    expect(warley.name).toBe('Warley Town');
    expect(geodesic(warley.Lat, warley.Lon, 53.7187, -1.9458)).toBeLessThan(3000);
  });
});
