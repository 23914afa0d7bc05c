/**
 * robustCentroid (src/places/centroid.ts) against values computed here: the coordinate-wise
 * median by a plain sort, the cluster placed with GeographicLib (inliers well within the
 * radius, outliers well beyond it, so the engine's distance rule and the geodesic agree), and
 * the mean of the inliers. The median's selection against a plain sort.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../scripts/fixtures/random.js';
import { median, robustCentroid } from '../../src/places/centroid.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';

function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A group around (lat, lon): `inliers` within 0.4 r of it, `outliers` 3 r to 50 r away. */
function group(rng: Rng, lat: number, lon: number, r: number, inliers: number, outliers: number): { lat: number[]; lon: number[]; inside: number[] } {
  const out = { lat: [] as number[], lon: [] as number[], inside: [] as number[] };
  for (let k = 0; k < inliers + outliers; k++) {
    const inlier = k < inliers;
    const [a, b] = geodesicDirect(lat, lon, rng.next() * 360, inlier ? rng.next() * 0.4 * r : r * (3 + rng.next() * 47));
    out.lat.push(a);
    out.lon.push(b);
    if (inlier) out.inside.push(k);
  }
  return out;
}

describe('robustCentroid', () => {
  it('is the mean of the points near the median, outliers dropped (hand-computed)', () => {
    // three points in Leeds city centre, one mistyped address in Bristol
    const lat = [53.7997, 53.8008, 53.7965, 51.4545];
    const lon = [-1.5492, -1.5483, -1.5453, -2.5879];
    const c = robustCentroid(lat, lon, 5000, 0.6)!;
    expect(c.count).toBe(3);
    expect(c.lat).toBeCloseTo((53.7997 + 53.8008 + 53.7965) / 3, 12);
    expect(c.lon).toBeCloseTo((-1.5492 - 1.5483 - 1.5453) / 3, 12);
  });

  it('is null when too few points lie in the cluster, or none are given', () => {
    // "City Centre": two towns, neither holding 60 % of the points
    const lat = [53.7997, 53.8008, 51.4545, 51.4550];
    const lon = [-1.5492, -1.5483, -2.5879, -2.5870];
    expect(robustCentroid(lat, lon, 5000, 0.6)).toBeNull();
    expect(robustCentroid([], [], 5000, 0.6)).toBeNull();
    // three in Leeds (the medians), two in Bristol: 3 of 5 is enough for a share of 0.6, not 0.7
    const lat5 = [53.7997, 51.4545, 53.8008, 51.455, 53.7965];
    const lon5 = [-1.5492, -2.5879, -1.5483, -2.587, -1.5453];
    expect(robustCentroid(lat5, lon5, 5000, 0.6)?.count).toBe(3);
    expect(robustCentroid(lat5, lon5, 5000, 0.7)).toBeNull();
  });

  it('keeps a point just inside the radius and drops one just outside it', () => {
    const [lat0, lon0] = [51.5074, -0.1278];
    const near = geodesicDirect(lat0, lon0, 30, 4500);
    const far = geodesicDirect(lat0, lon0, 200, 5500);
    const lat = [lat0, lat0, lat0, lat0, lat0, near[0], far[0]];
    const lon = [lon0, lon0, lon0, lon0, lon0, near[1], far[1]];
    const c = robustCentroid(lat, lon, 5000, 0.6)!;
    expect(c.count).toBe(6);
    expect(c.lat).toBeCloseTo((5 * lat0 + near[0]) / 6, 12);
    expect(c.lon).toBeCloseTo((5 * lon0 + near[1]) / 6, 12);
  });

  it('matches the median and inlier mean computed here on random groups, whatever their order', () => {
    const rng = new Rng(1129);
    for (let t = 0; t < 200; t++) {
      const r = rng.pick([1000, 5000, 10_000]);
      const inliers = rng.int(1, 400);
      const g = group(rng, 49 + rng.next() * 10, -6 + rng.next() * 8, r, inliers, rng.int(0, Math.floor(inliers / 3)));
      const c = robustCentroid(g.lat, g.lon, r, 0.6)!;
      expect(c).not.toBeNull();
      // the median lies among the inliers (they are the majority), so the cluster is exactly them
      const mLat = medianOf(g.lat);
      const mLon = medianOf(g.lon);
      for (const k of g.inside) expect(geodesic(mLat, mLon, g.lat[k]!, g.lon[k]!)).toBeLessThan(r);
      expect(c.count).toBe(g.inside.length);
      const meanLat = g.inside.reduce((s, k) => s + g.lat[k]!, 0) / g.inside.length;
      const meanLon = g.inside.reduce((s, k) => s + g.lon[k]!, 0) / g.inside.length;
      expect(c.lat).toBeCloseTo(meanLat, 11);
      expect(c.lon).toBeCloseTo(meanLon, 11);
      // the same points in another order give the same centre to the bit
      const order = g.lat.map((_, i) => i).sort(() => rng.next() - 0.5);
      const again = robustCentroid(order.map((i) => g.lat[i]!), order.map((i) => g.lon[i]!), r, 0.6)!;
      expect([again.lat, again.lon, again.count]).toEqual([c.lat, c.lon, c.count]);
    }
  });

  it('keeps the points due north just inside the radius, whatever the latitude screen skips', () => {
    const [lat0, lon0] = [51.5074, -0.1278];
    const at = (meters: number) => geodesicDirect(lat0, lon0, 0, meters);
    const centre = Array.from({ length: 6 }, () => [lat0, lon0]);
    const points = [...centre, at(4990), at(5010), at(5060), at(6000), geodesicDirect(lat0, lon0, 180, 4995)];
    const c = robustCentroid(points.map((p) => p[0]!), points.map((p) => p[1]!), 5000, 0.6)!;
    // the median is the centre; inside: the six there, 4990 m north and 4995 m south (GeographicLib distances)
    expect(c.count).toBe(8);
    const inside = [0, 1, 2, 3, 4, 5, 6, 10];
    expect(c.lat).toBeCloseTo(inside.reduce((s, k) => s + points[k]![0]!, 0) / 8, 11);
  });

  it('gives the same centre to the bit for a large group in any order (more points than the scratch holds)', () => {
    const rng = new Rng(77);
    const g = group(rng, 53.48, -2.24, 5000, 3000, 900);
    const c = robustCentroid(g.lat, g.lon, 5000, 0.6)!;
    expect(c.count).toBe(3000);
    expect(c.lat).toBeCloseTo(g.inside.reduce((s, k) => s + g.lat[k]!, 0) / 3000, 11);
    expect(c.lon).toBeCloseTo(g.inside.reduce((s, k) => s + g.lon[k]!, 0) / 3000, 11);
    const order = g.lat.map((_, i) => i).sort(() => rng.next() - 0.5);
    const again = robustCentroid(order.map((i) => g.lat[i]!), order.map((i) => g.lon[i]!), 5000, 0.6)!;
    expect([again.lat, again.lon]).toEqual([c.lat, c.lon]);
  });
});

describe('median', () => {
  it('is the middle of a plain sort (the mean of the two middles for an even count), on every kind of order', () => {
    const rng = new Rng(5);
    const shapes: Array<(n: number) => number[]> = [
      (n) => Array.from({ length: n }, () => rng.next() * 100 - 50),
      (n) => Array.from({ length: n }, () => rng.int(0, 3)), // many ties
      (n) => Array.from({ length: n }, (_, i) => i), // ascending
      (n) => Array.from({ length: n }, (_, i) => n - i), // descending
      (n) => Array.from({ length: n }, () => 7), // all equal
      (n) => Array.from({ length: n }, (_, i) => Math.min(i, n - i)), // organ pipe
    ];
    for (const shape of shapes) {
      for (const n of [1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 100, 1001, 4096]) {
        const values = shape(n);
        expect(median(Float64Array.from(values))).toBe(medianOf(values));
      }
    }
  });
});
