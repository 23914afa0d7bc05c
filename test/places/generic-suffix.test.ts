import { describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { geodesic } from '../support/oracle.js';

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
