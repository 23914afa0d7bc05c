import geographiclib from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { SHORT_GEODESIC_MAX_METERS, shortGeodesic } from '../../src/geo/short-geodesic.js';
import { geodesic, prng } from '../support/oracle.js';

const wgs84 = geographiclib.Geodesic.WGS84;

describe('shortGeodesic against GeographicLib', () => {
  it('lengths within 1e-7 m and midpoints within 1e-6 m on 20,000 random lines of up to 20 km, |lat| <= 80', () => {
    const rnd = prng(42);
    const out = { length: 0, midLat: 0, midLon: 0, chord: 0 };
    let worstLength = 0;
    let worstMid = 0;
    for (let i = 0; i < 20_000; i++) {
      const lat1 = (rnd() * 2 - 1) * 80;
      const lon1 = (rnd() * 2 - 1) * 180;
      const end = wgs84.Direct(lat1, lon1, rnd() * 360, rnd() * SHORT_GEODESIC_MAX_METERS);
      const line = wgs84.InverseLine(lat1, lon1, end.lat2!, end.lon2!);
      const mid = line.Position(line.s13! / 2);
      shortGeodesic(lat1, lon1, end.lat2!, end.lon2!, out);
      expect(out.chord).toBeLessThanOrEqual(line.s13! * (1 + 1e-9)); // a chord never exceeds its arc
      worstLength = Math.max(worstLength, Math.abs(out.length - line.s13!));
      worstMid = Math.max(worstMid, geodesic(out.midLat, out.midLon, mid.lat2!, mid.lon2!));
    }
    expect(worstLength).toBeLessThan(1e-7);
    expect(worstMid).toBeLessThan(1e-6);
  });

  it('named lines: across the antimeridian, along the equator, a meridian, near the pole, zero length', () => {
    const out = { length: 0, midLat: 0, midLon: 0, chord: 0 };
    const cases: Array<[number, number, number, number]> = [
      [-16.8, 179.95, -16.85, -179.95],
      [0, 10, 0, 10.15],
      [51, -0.1, 51.15, -0.1],
      [84.9, 20, 84.95, 22.5],
      [51.5, -0.12, 51.5, -0.12],
    ];
    for (const [a, b, c, d] of cases) {
      const line = wgs84.InverseLine(a, b, c, d);
      const mid = line.Position(line.s13! / 2);
      shortGeodesic(a, b, c, d, out);
      expect(Math.abs(out.length - line.s13!)).toBeLessThan(1e-7);
      expect(geodesic(out.midLat, out.midLon, mid.lat2!, mid.lon2!)).toBeLessThan(1e-6);
    }
  });
});
