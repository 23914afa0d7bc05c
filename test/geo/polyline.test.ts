import { pointToLineDistance, lineString, point } from '@turf/turf';
import { describe, expect, it } from 'vitest';
import { PreparedRoute } from '../../src/geo/polyline.js';
import geographiclib from 'geographiclib-geodesic';
import { geodesic, prng, routeDistance } from '../support/oracle.js';

function distanceToRoute(route: PreparedRoute, lat: number, lon: number): { distance: number; along: number } {
  let best = Number.POSITIVE_INFINITY;
  let along = 0;
  for (let p = 0; p < route.pieceCount; p++) {
    const near = route.nearestOnPiece(p, lat, lon, Number.MAX_VALUE);
    if (near.distance < best) {
      best = near.distance;
      along = near.along;
    }
  }
  return { distance: best, along };
}

function prepare(vertices: Array<[number, number]>): PreparedRoute {
  return new PreparedRoute(vertices.map((v) => v[0]), vertices.map((v) => v[1]));
}

describe('PreparedRoute distance and along-route position against GeographicLib', () => {
  it('a city route (Camden to Soho to Shoreditch): within 5 cm of the exact geodesic distance up to 2 km off', () => {
    const vertices: Array<[number, number]> = [[51.539, -0.1426], [51.5136, -0.1365], [51.5265, -0.0787]];
    const route = prepare(vertices);
    const rnd = prng(11);
    for (let i = 0; i < 200; i++) {
      const lat = 51.50 + rnd() * 0.05;
      const lon = -0.16 + rnd() * 0.1;
      const ours = distanceToRoute(route, lat, lon);
      const exact = routeDistance(vertices, lat, lon);
      if (exact.distance > 2000) continue;
      expect(Math.abs(ours.distance - exact.distance)).toBeLessThan(0.05);
      expect(Math.abs(ours.along - exact.along)).toBeLessThan(1);
    }
  });

  it('London to Manchester in one 263 km leg: within 1 m at a 1 km corridor edge', () => {
    const vertices: Array<[number, number]> = [[51.5074, -0.1278], [53.4808, -2.2426]];
    const route = prepare(vertices);
    expect(route.pieceCount).toBeGreaterThan(10);
    const rnd = prng(5);
    for (let i = 0; i < 60; i++) {
      const t = rnd();
      const lat = 51.5074 + t * (53.4808 - 51.5074) + (rnd() - 0.5) * 0.03;
      const lon = -0.1278 + t * (-2.2426 + 0.1278) + (rnd() - 0.5) * 0.03;
      const ours = distanceToRoute(route, lat, lon);
      const exact = routeDistance(vertices, lat, lon);
      expect(Math.abs(ours.distance - exact.distance)).toBeLessThan(1);
    }
  });

  it('agrees with turf pointToLineDistance within 0.5 %', () => {
    const vertices: Array<[number, number]> = [[51.5, -0.2], [51.52, -0.1], [51.49, 0.0]];
    const route = prepare(vertices);
    const line = lineString(vertices.map(([la, lo]) => [lo, la]));
    const rnd = prng(9);
    for (let i = 0; i < 100; i++) {
      const lat = 51.45 + rnd() * 0.1;
      const lon = -0.25 + rnd() * 0.3;
      const t = pointToLineDistance(point([lon, lat]), line, { units: 'meters' });
      if (t < 10) continue;
      expect(Math.abs(distanceToRoute(route, lat, lon).distance - t) / t).toBeLessThan(0.005);
    }
  });

  it('a route that doubles back reports the first pass along the route', () => {
    const route = prepare([[51.5, -0.1], [51.5, -0.05], [51.5, -0.1]]);
    const r = distanceToRoute(route, 51.501, -0.075);
    const exact = routeDistance([[51.5, -0.1], [51.5, -0.05]], 51.501, -0.075);
    expect(Math.abs(r.distance - exact.distance)).toBeLessThan(0.05);
    expect(r.along).toBeLessThan(route.length / 2);
  });

  it('Fiji: a route across the antimeridian', () => {
    const vertices: Array<[number, number]> = [[-16.8, 179.8], [-16.9, -179.8]];
    const route = prepare(vertices);
    const ours = distanceToRoute(route, -16.84, 179.99);
    const exact = routeDistance(vertices, -16.84, 179.99);
    expect(Math.abs(ours.distance - exact.distance)).toBeLessThan(0.5);
    expect(route.length).toBeGreaterThan(40_000);
    expect(route.length).toBeLessThan(45_000);
  });

  it('Svalbard and the polar fallback: a route past 80 N', () => {
    const vertices: Array<[number, number]> = [[79.5, 10], [81.5, 20]];
    const route = prepare(vertices);
    for (const [lat, lon] of [[80.5, 15.5], [81, 18], [79.6, 9]] as const) {
      const ours = distanceToRoute(route, lat, lon);
      const exact = routeDistance(vertices, lat, lon);
      expect(Math.abs(ours.distance - exact.distance) / Math.max(1, exact.distance)).toBeLessThan(0.005);
    }
  });

  it('pointAt: halfway along London to Manchester is the geodesic midpoint (GeographicLib), within 1 m', () => {
    const route = prepare([[51.5074, -0.1278], [53.4808, -2.2426]]);
    const line = geographiclib.Geodesic.WGS84.InverseLine(51.5074, -0.1278, 53.4808, -2.2426);
    const mid = line.Position(line.s13! / 2);
    const ours = route.pointAt(route.length / 2);
    expect(geodesic(ours.lat, ours.lon, mid.lat2!, mid.lon2!)).toBeLessThan(1);
    expect(Math.abs(route.length - line.s13!)).toBeLessThan(0.01);
    expect(route.pointAt(-5)).toEqual({ lat: 51.5074, lon: -0.1278 });
    const end = route.pointAt(route.length + 5);
    expect(geodesic(end.lat, end.lon, 53.4808, -2.2426)).toBeLessThan(0.01);
  });

  it('a one-vertex route is a point', () => {
    const route = prepare([[51.5, -0.1]]);
    expect(route.length).toBe(0);
    const r = distanceToRoute(route, 51.51, -0.1);
    expect(Math.abs(r.distance - routeDistance([[51.5, -0.1]], 51.51, -0.1).distance)).toBeLessThan(0.01);
  });
});
