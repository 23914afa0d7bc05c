import { describe, expect, it } from 'vitest';
import { localFrameHolds } from '../../src/geo/distance.js';
import { SpatialIndex } from '../../src/spatial/spatial-index.js';
import { geodesic, prng } from '../support/oracle.js';

/** Points scattered around `centres`: most within a few km of one, as a city's venues are. */
function cloud(centres: ReadonlyArray<readonly [number, number]>, n: number, seed: number): { lat: Float64Array; lon: Float64Array } {
  const rnd = prng(seed);
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [clat, clon] = centres[i % centres.length]!;
    const spread = rnd() < 0.7 ? 0.05 : 0.4; // degrees
    lat[i] = clat + (rnd() - 0.5) * spread;
    lon[i] = clon + (rnd() - 0.5) * spread * 1.6;
  }
  return { lat, lon };
}

/**
 * Venues within `r` metres of (lat, lon) by GeographicLib, not hidden: `[surely, edge]`, where
 * the `edge` ones lie within a centimetre of the circle (the engine's local frame may put them
 * either side of it).
 */
function bruteForce(c: { lat: Float64Array; lon: Float64Array }, lat: number, lon: number, r: number, hidden: Uint8Array): [number, number] {
  let surely = 0;
  let edge = 0;
  for (let i = 0; i < c.lat.length; i++) {
    if (hidden[i] !== 0) continue;
    const d = geodesic(lat, lon, c.lat[i]!, c.lon[i]!);
    if (Math.abs(d - r) <= 0.01) edge++;
    else if (d <= r) surely++;
  }
  return [surely, edge];
}

describe('SpatialIndex.countWithinRadius against a brute-force GeographicLib count', () => {
  const CENTRES = [
    [51.5074, -0.1278], // London
    [53.4808, -2.2426], // Manchester
    [79.97, 15.0], // off Svalbard: a 10 km circle there is beyond the local frame's reach (the exact distance path)
  ] as const;

  it('counts every venue within the radius, whole subtrees by their size, less the hidden ones (live data)', () => {
    const c = cloud(CENTRES, 30_000, 71);
    const index = new SpatialIndex(c.lat, c.lon, 16);
    const tombstones = index.tombstones();
    const rnd = prng(72);
    let total = 0;
    let hiddenSeen = 0;
    let exactPath = 0;
    for (let q = 0; q < 60; q++) {
      if (q >= 30) for (let h = 0; h < 400; h++) tombstones.hide(Math.floor(rnd() * c.lat.length));
      const [clat, clon] = CENTRES[q % CENTRES.length]!;
      const lat = clat + (rnd() - 0.5) * 0.2;
      const lon = clon + (rnd() - 0.5) * 0.3;
      const r = [500, 3000, 10_000, 25_000][q % 4]!;
      const [surely, edge] = bruteForce(c, lat, lon, r, tombstones.bytes);
      const counted = index.countWithinRadius(lat, lon, r, q >= 30 ? tombstones : null);
      expect(counted, `query ${q}: ${r} m around ${lat}, ${lon}`).toBeGreaterThanOrEqual(surely);
      expect(counted, `query ${q}: ${r} m around ${lat}, ${lon}`).toBeLessThanOrEqual(surely + edge);
      total += counted;
      if (!localFrameHolds(lat, r) && surely > 0) exactPath++;
      if (q >= 30) hiddenSeen += bruteForce(c, lat, lon, r, new Uint8Array(c.lat.length))[0] - surely;
    }
    // the queries hold venues, and the hidden ones were left out of some
    expect(total).toBeGreaterThan(20_000);
    expect(hiddenSeen).toBeGreaterThan(100);
    expect(exactPath).toBeGreaterThan(5);
  });

  it('an empty index, and a circle holding no venue, count 0', () => {
    expect(new SpatialIndex(new Float64Array(0), new Float64Array(0)).countWithinRadius(51.5, -0.1, 10_000)).toBe(0);
    const c = cloud(CENTRES.slice(0, 1), 1000, 73);
    expect(new SpatialIndex(c.lat, c.lon).countWithinRadius(-33.87, 151.21, 10_000)).toBe(0); // Sydney
  });
});
