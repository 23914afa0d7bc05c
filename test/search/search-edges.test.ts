// Named geometric edge cases, each against a brute-force GeographicLib oracle: the
// antimeridian (POINT and PATH), near the North Pole, a route that doubles back, weighted
// centres, a PATH centre halfway along a long route.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createSearchService } from '../../src/search/index.js';
import { geodesic, prng, routeDistance } from '../support/oracle.js';
import { offset, routeHalfway } from './oracle-queries.js';
import { oracleCentre } from './support.js';

const NOW = Date.UTC(2026, 10, 21, 12);

/** `count` venues scattered uniformly within `spread` metres north/east of (lat, lon). */
function scatter(prefix: string, lat: number, lon: number, spread: number, count: number, seed: number): VenueRecord[] {
  const rnd = prng(seed);
  return Array.from({ length: count }, (_, k) => {
    const p = offset(lat, lon, (rnd() * 2 - 1) * spread, (rnd() * 2 - 1) * spread);
    return { id: `${prefix}-${k}`, name: `${prefix} ${k}`, location: { type: 'Point', coordinates: [p.lat, p.lon] } } as VenueRecord;
  });
}

function ids(res: { establishments: Array<{ id: string }> }): string[] {
  return res.establishments.map((e) => e.id).sort();
}

describe('search geometric edge cases', () => {
  it('POINT across the antimeridian (Fiji, 180°): the circle wraps, the centre stays near 180° not 0°', () => {
    const venues = scatter('fj', -17.0, 179.99, 8000, 400, 1);
    const engine = createEngine(venues);
    const service = createSearchService(engine.store, engine.spatial);
    const locations = [{ lat: -17.01, lon: 179.98 }, { lat: -16.99, lon: -179.98 }];
    const res = service.search({ locations, mode: { mode: 'POINT', maxDistance: 3000 } }, { limit: 100, now: NOW });
    const c = oracleCentre(locations);
    expect(Math.abs(Math.abs(res.centerPoint.Lon) - 180)).toBeLessThan(0.01);
    expect(geodesic(res.centerPoint.Lat, res.centerPoint.Lon, c.lat, c.lon)).toBeLessThan(0.01);
    const expected = venues.filter((v) => geodesic(c.lat, c.lon, v.location.coordinates[0], v.location.coordinates[1]) <= 3000).map((v) => v.id).sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(ids(res)).toEqual(expected);
  });

  it('PATH across the antimeridian: corridor either side of 180°', () => {
    const venues = scatter('fj', -17.0, 180, 10_000, 500, 2).map((v) => {
      const c = v.location.coordinates;
      if (c[1] > 180) c[1] -= 360;
      return v;
    });
    const engine = createEngine(venues);
    const service = createSearchService(engine.store, engine.spatial);
    const route = [{ lat: -17.05, lon: 179.93 }, { lat: -16.95, lon: -179.94 }];
    const res = service.search({ locations: route, mode: { mode: 'PATH', maxDistance: 1500 } }, { limit: 100, now: NOW });
    const path = route.map((p) => [p.lat, p.lon] as const);
    const expected = venues.filter((v) => routeDistance(path, v.location.coordinates[0], v.location.coordinates[1]).distance <= 1500).map((v) => v.id).sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(ids(res)).toEqual(expected);
  });

  it('POINT near the North Pole (Svalbard, 85° N, 20 km): every meridian converges, still the exact circle', () => {
    const venues = scatter('sv', 85, 15, 30_000, 400, 3);
    const engine = createEngine(venues);
    const service = createSearchService(engine.store, engine.spatial);
    const res = service.search({ locations: [{ lat: 85, lon: 15 }], mode: { mode: 'POINT', maxDistance: 20_000 } }, { limit: 100, offset: 0, now: NOW });
    const expected = venues.filter((v) => geodesic(85, 15, v.location.coordinates[0], v.location.coordinates[1]) <= 20_000);
    expect(res.totalResults).toBe(expected.length);
    for (const e of res.establishments) {
      const v = venues.find((x) => x.id === e.id)!;
      expect(Math.abs(e.distanceMeters - geodesic(85, 15, v.location.coordinates[0], v.location.coordinates[1]))).toBeLessThan(1);
    }
  });

  it('a route that doubles back: each venue once, at its smallest distance from the route', () => {
    const venues = scatter('ldn', 51.51, -0.12, 3000, 600, 4);
    const engine = createEngine(venues);
    const service = createSearchService(engine.store, engine.spatial);
    const route = [{ lat: 51.5, lon: -0.14 }, { lat: 51.52, lon: -0.1 }, { lat: 51.505, lon: -0.135 }];
    const res = service.search({ locations: route, mode: { mode: 'PATH', maxDistance: 400 } }, { limit: 100, now: NOW });
    const all = [...res.establishments];
    for (let off = 100; off < res.totalResults; off += 100) all.push(...service.search({ locations: route, mode: { mode: 'PATH', maxDistance: 400 } }, { limit: 100, offset: off, now: NOW }).establishments);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const path = route.map((p) => [p.lat, p.lon] as const);
    for (const e of all.slice(0, 40)) {
      const v = venues.find((x) => x.id === e.id)!;
      expect(Math.abs(e.distanceMeters - routeDistance(path, v.location.coordinates[0], v.location.coordinates[1]).distance)).toBeLessThan(0.5);
    }
  });

  it('weighted centre: weight 3 on one of two friends pulls the centre three quarters of the way to them', () => {
    const venues = scatter('ldn', 51.51, -0.12, 3000, 50, 5);
    const engine = createEngine(venues);
    const service = createSearchService(engine.store, engine.spatial);
    const locations = [{ lat: 51.5, lon: -0.14, weight: 3 }, { lat: 51.52, lon: -0.1, weight: 1 }];
    const res = service.search({ locations, mode: { mode: 'POINT', maxDistance: 500 } }, { now: NOW });
    const c = oracleCentre(locations);
    expect(geodesic(res.centerPoint.Lat, res.centerPoint.Lon, c.lat, c.lon)).toBeLessThan(0.01);
    // within a city the weighted mean of unit vectors is the weighted plain average to < 1 m
    expect(geodesic(res.centerPoint.Lat, res.centerPoint.Lon, 51.505, -0.13)).toBeLessThan(1);
  });

  it('weights are relative: 3e-6 : 1e-6 and 1e6 : 1e6/3 put the centre where 3 : 1 does; the extremes out of bounds are refused', () => {
    const venues = scatter('ldn', 51.51, -0.12, 3000, 50, 5);
    const service = createSearchService(createEngine(venues).store, createEngine(venues).spatial);
    for (const [a, b] of [[3e-6, 1e-6], [1e6, 1e6 / 3]]) {
      const locations = [{ lat: 51.5, lon: -0.14, weight: a }, { lat: 51.52, lon: -0.1, weight: b }];
      const res = service.search({ locations, mode: { mode: 'POINT', maxDistance: 500 } }, { now: NOW });
      expect(geodesic(res.centerPoint.Lat, res.centerPoint.Lon, 51.505, -0.13), `weights ${a}, ${b}`).toBeLessThan(1);
    }
    // 1e307 overflowed the weighted sums (a centre of NaN), 5e-324 vanished in them (a centre at 0, 0)
    for (const weight of [1e307, 1e6 * 1.5, 5e-324, 1e-7]) {
      const locations = [{ lat: 51.5, lon: -0.14, weight }, { lat: 51.52, lon: -0.1, weight: 0 }];
      expect(() => service.search({ locations, mode: { mode: 'POINT', maxDistance: 500 } }, { now: NOW }), String(weight)).toThrow(
        expect.objectContaining({ code: 'invalid_request', param: 'locations[0].weight' }),
      );
    }
  });

  it('PATH centre: the point halfway along London - Birmingham - Manchester (GeographicLib), radius = maxDistance', () => {
    const engine = createEngine([]);
    const service = createSearchService(engine.store, engine.spatial);
    const route = [{ lat: 51.53, lon: -0.13 }, { lat: 52.48, lon: -1.9 }, { lat: 53.48, lon: -2.24 }];
    const res = service.search({ locations: route, mode: { mode: 'PATH', maxDistance: 1000 } }, { now: NOW });
    const half = routeHalfway(route);
    expect(geodesic(res.centerPoint.Lat, res.centerPoint.Lon, half.lat, half.lon)).toBeLessThan(1);
    expect(res.radius).toBe(1000);
  });
});
