import { describe, expect, it } from 'vitest';
import { weightedMidpoint } from '../../src/geo/midpoint.js';
import { geodesic } from '../support/oracle.js';

describe('weightedMidpoint', () => {
  it('equal weights inside a city equal the plain average to well under a metre (four Londoners)', () => {
    const pts = [
      { lat: 51.5390, lon: -0.1426 }, // Camden
      { lat: 51.5136, lon: -0.1365 }, // Soho
      { lat: 51.5265, lon: -0.0787 }, // Shoreditch
      { lat: 51.4613, lon: -0.1156 }, // Brixton
    ];
    const c = weightedMidpoint(pts);
    const avgLat = pts.reduce((s, p) => s + p.lat, 0) / 4;
    const avgLon = pts.reduce((s, p) => s + p.lon, 0) / 4;
    expect(geodesic(c.lat, c.lon, avgLat, avgLon)).toBeLessThan(1);
  });

  it('hand-computed: two points on the equator at 0 and 90 E meet at 45 E', () => {
    const c = weightedMidpoint([{ lat: 0, lon: 0 }, { lat: 0, lon: 90 }]);
    expect(c.lat).toBeCloseTo(0, 10);
    expect(c.lon).toBeCloseTo(45, 10);
  });

  it('weights pull the centre: weight 3 vs 1 on the equator is at atan2(1, 3) from the heavier', () => {
    const c = weightedMidpoint([{ lat: 0, lon: 0, weight: 3 }, { lat: 0, lon: 90, weight: 1 }]);
    expect(c.lon).toBeCloseTo((Math.atan2(1, 3) * 180) / Math.PI, 10);
  });

  it('stays right across the antimeridian (Fiji: 179.9 E and 179.9 W meet at 180)', () => {
    const c = weightedMidpoint([{ lat: -17.8, lon: 179.9 }, { lat: -17.8, lon: -179.9 }]);
    expect(Math.abs(Math.abs(c.lon) - 180)).toBeLessThan(1e-9);
    expect(c.lat).toBeCloseTo(-17.8, 3);
  });

  it('near the pole: points around it meet at the pole', () => {
    const c = weightedMidpoint([0, 90, 180, 270].map((lon) => ({ lat: 89, lon })));
    expect(c.lat).toBeCloseTo(90, 9);
  });

  it('a zero weight ignores that location; all-zero weights and antipodal points are errors', () => {
    const c = weightedMidpoint([{ lat: 51, lon: 0, weight: 0 }, { lat: 52, lon: 1 }]);
    expect(c.lat).toBeCloseTo(52, 9);
    expect(() => weightedMidpoint([{ lat: 51, lon: 0, weight: 0 }])).toThrow(/weight > 0/);
    expect(() => weightedMidpoint([{ lat: 0, lon: 0 }, { lat: 0, lon: 180 }])).toThrow(/cancel out/);
  });
});
