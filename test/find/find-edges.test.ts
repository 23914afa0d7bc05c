import { distance as turfDistance } from '@turf/turf';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createFindService } from '../../src/find/find.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const v = (id: string, name: string, lat: number, lon: number): VenueRecord => ({ id, name, location: { type: 'Point', coordinates: [lat, lon] } });
const turfM = (lat1: number, lon1: number, lat2: number, lon2: number) => turfDistance([lon1, lat1], [lon2, lat2], { units: 'meters' });

describe('find: geometric edge cases (turf as the distance oracle)', () => {
  it('antimeridian: venues at lon 179.99 and -179.99 are both within 5 km of (0, 180); order and distances match turf', () => {
    const engine = createEngine([v('w', 'Date Line Bar', 0, 179.99), v('e', 'Date Line Cafe', 0, -179.985), v('far', 'Date Line Inn', 0, 170)]);
    const find = createFindService(engine.store, engine.spatial, { places: null });
    const r = find.find({ q: 'date line', lat: 0, lon: 180 }, 0);
    expect(r.establishments.map((e) => e.id)).toEqual(['w', 'e']);
    for (const e of r.establishments) {
      const d = turfM(0, 180, e.location.coordinates[0], e.location.coordinates[1]);
      expect(Math.abs(e.distanceMeters! - d)).toBeLessThanOrEqual(d * 0.005);
    }
  });

  it('near the pole (lat 89.95): a venue across the pole is found at its geodesic distance', () => {
    const engine = createEngine([v('a', 'Polar Tavern', 89.97, 0), v('b', 'Polar Tavern', 89.97, 180)]);
    const find = createFindService(engine.store, engine.spatial, { places: null });
    const r = find.find({ q: 'polar', lat: 89.98, lon: 90, maxDistanceMeters: 10_000 }, 0);
    expect(r.totalFound).toBe(2);
    for (const e of r.establishments) {
      const d = turfM(89.98, 90, e.location.coordinates[0], e.location.coordinates[1]);
      expect(Math.abs(e.distanceMeters! - d)).toBeLessThanOrEqual(d * 0.005);
    }
  });

  it('distance ties are broken by id; maxDistanceMeters 0 finds only a venue exactly at the centre', () => {
    const engine = createEngine([v('z', 'Twin Arms', 51.5, -0.1), v('a', 'Twin Arms', 51.5, -0.1), v('m', 'Twin Arms', 51.501, -0.1)]);
    const find = createFindService(engine.store, engine.spatial, { places: null });
    expect(find.find({ q: 'twin', lat: 51.5, lon: -0.1 }, 0).establishments.map((e) => e.id)).toEqual(['a', 'z', 'm']);
    expect(find.find({ q: 'twin', lat: 51.5, lon: -0.1, maxDistanceMeters: 0 }, 0).totalFound).toBe(2);
  });

  it('paging: offset beyond the matches gives an empty page with the full totalFound', () => {
    const engine = createEngine([v('a', 'Crown', 51.5, -0.1), v('b', 'Crown', 51.6, -0.1)]);
    const find = createFindService(engine.store, engine.spatial, { places: null });
    const r = find.find({ q: 'crown', offset: 5 }, 0);
    expect(r).toMatchObject({ totalFound: 2, establishments: [], offset: 5, limit: 20 });
    expect(find.find({ q: 'crown', limit: 1, offset: 1 }, 0).establishments.map((e) => e.id)).toEqual(['b']);
  });
});
