// The travel speed model (docs/search.md): straight line x 1.3, fastest of walking 4.8 km/h,
// local transport 10 min + 20 km/h, long distance 30 min + 80 km/h. Values worked by hand.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalFrame } from '../../src/geo/distance.js';
import { travelDistance, travelMinutes } from '../../src/search/travel.js';
import { geodesic, prng } from '../support/oracle.js';

describe('travel estimates', () => {
  it('500 m straight line: 650 m walked at 80 m/min = 8.1 min', () => {
    expect(travelMinutes(500)).toBe(8.1);
  });
  it('5 km straight line: local transport, 10 + 6.5 km at 20 km/h (19.5 min) = 29.5 min', () => {
    expect(travelMinutes(5000)).toBe(29.5);
  });
  it('100 km straight line: long distance, 30 + 130 km at 80 km/h (97.5 min) = 127.5 min', () => {
    expect(travelMinutes(100_000)).toBe(127.5);
  });
  it('zero distance takes zero minutes', () => {
    expect(travelMinutes(0)).toBe(0);
  });
  it('further never shows as quicker (monotone)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(travelMinutes(lo)).toBeLessThanOrEqual(travelMinutes(hi));
      }),
    );
  });
});

describe('travel distance from an input location', () => {
  it('within 0.1 m of GeographicLib up to 10 km and within 0.05 % up to 500 km, at latitudes up to 88', () => {
    const rnd = prng(17);
    for (let i = 0; i < 5000; i++) {
      const lat = (rnd() * 2 - 1) * 88;
      const lon = (rnd() * 2 - 1) * 180;
      const far = i % 2 === 0 ? 0.1 : 4.5; // degrees: up to ~10 km, or up to ~500 km
      const vLat = Math.max(-89.9, Math.min(89.9, lat + (rnd() * 2 - 1) * far));
      const vLon = lon + ((rnd() * 2 - 1) * far) / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
      const ours = travelDistance(new LocalFrame(lat, lon), vLat, vLon);
      const exact = geodesic(lat, lon, vLat, vLon);
      if (exact <= 10_000) expect(Math.abs(ours - exact)).toBeLessThan(0.1);
      else expect(Math.abs(ours - exact) / exact).toBeLessThan(5e-4);
    }
  });
});
