// Bounds of the distance from a point to a lon/lat box (src/geo/box-distance.ts), which the
// fair walk prunes and counts whole subtrees by: checked against the distances the walk
// measures (frameDistance) and against GeographicLib, at points sampled inside the boxes.
import { describe, expect, it } from 'vitest';
import { BOX_BOUNDS_STRIDE, BoxLayout, prepareBoxBounds, sphericalBoxLowerBound, writeBoxLowerBound, writeBoxUpperBound } from '../../src/geo/box-distance.js';
import { LocalFrame } from '../../src/geo/distance.js';
import { frameDistance } from '../../src/geo/frame-distance.js';
import { geodesic, prng } from '../support/oracle.js';

/** The bounds from origin 0 of `b` to one box, through the typed arrays the walks use. */
function bounds(b: Float64Array, minX: number, minY: number, maxX: number, maxY: number): { lower: number; upper: number } {
  const box = new Float64Array(BoxLayout.STRIDE);
  box[BoxLayout.MIN_X] = minX;
  box[BoxLayout.MIN_Y] = minY;
  box[BoxLayout.MAX_X] = maxX;
  box[BoxLayout.MAX_Y] = maxY;
  const out = new Float64Array(2);
  writeBoxLowerBound(b, 0, box, 0, out, 0);
  writeBoxUpperBound(b, 0, box, 0, out, 1);
  return { lower: out[0]!, upper: out[1]! };
}

describe('box distance bounds', () => {
  it('lower <= every distance to a point of the box <= upper (20,000 random boxes, cities to continents, poles and antimeridian)', () => {
    const rnd = prng(1599);
    const b = new Float64Array(BOX_BOUNDS_STRIDE);
    let planarUpper = 0;
    for (let t = 0; t < 20_000; t++) {
      const lat = rnd() < 0.1 ? (rnd() - 0.5) * 178 : 51.5 + (rnd() - 0.5) * 2;
      const lon = rnd() < 0.1 ? (rnd() - 0.5) * 360 : -0.1 + (rnd() - 0.5) * 2;
      const reach = [500, 4000, 20_000, 50_000, Number.POSITIVE_INFINITY][Math.floor(rnd() * 5)]!;
      prepareBoxBounds(lat, lon, reach, b, 0);
      const size = Math.pow(10, -3 + rnd() * 4); // 0.001 .. 10 degrees
      const cLat = Math.max(-89, Math.min(89, lat + (rnd() - 0.5) * size * 4));
      const cLon = Math.max(-180, Math.min(180 - size, lon + (rnd() - 0.5) * size * 4));
      const minX = cLon;
      const maxX = Math.min(180, cLon + size * rnd());
      const minY = Math.max(-90, cLat - size * rnd());
      const maxY = Math.min(90, cLat + size * rnd());
      const { lower: lo, upper: hi } = bounds(b, minX, minY, maxX, maxY);
      const sph = sphericalBoxLowerBound(lon, lat, minX, minY, maxX, maxY);
      if (Number.isFinite(hi)) planarUpper++;
      const frame = new LocalFrame(lat, lon);
      for (let k = 0; k < 6; k++) {
        // corners and interior points
        const pLat = k < 4 ? (k & 1 ? maxY : minY) : minY + (maxY - minY) * rnd();
        const pLon = k < 4 ? (k & 2 ? maxX : minX) : minX + (maxX - minX) * rnd();
        const measured = frameDistance(frame, pLat, pLon);
        const exact = geodesic(lat, lon, pLat, pLon);
        const context = JSON.stringify({ lat, lon, reach, minX, minY, maxX, maxY, pLat, pLon });
        expect(lo, `lower vs measured ${context}`).toBeLessThanOrEqual(measured);
        expect(sph, `spherical vs exact ${context}`).toBeLessThanOrEqual(exact);
        if (measured <= 100_000) expect(lo, `lower vs exact ${context}`).toBeLessThanOrEqual(exact * (1 + 1e-5));
        expect(hi, `upper vs measured ${context}`).toBeGreaterThanOrEqual(measured);
      }
    }
    expect(planarUpper).toBeGreaterThan(2000);
  });

  it('the planar bounds are tight for a city box: within 0.2 % of the nearest and farthest corner', () => {
    const b = new Float64Array(BOX_BOUNDS_STRIDE);
    prepareBoxBounds(51.5, -0.1, 4000, b, 0);
    const frame = new LocalFrame(51.5, -0.1);
    // a 300 m box 2 km north-east
    const minY = 51.5 + 2000 / 111_250;
    const minX = -0.1 + 2000 / 69_400;
    const maxY = minY + 300 / 111_250;
    const maxX = minX + 300 / 69_400;
    const { lower, upper } = bounds(b, minX, minY, maxX, maxY);
    expect(lower).toBeCloseTo(frameDistance(frame, minY, minX), -1);
    expect(lower / frameDistance(frame, minY, minX)).toBeGreaterThan(0.998);
    expect(upper / frameDistance(frame, maxY, maxX)).toBeLessThan(1.002);
  });
});
