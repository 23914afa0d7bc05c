import KDBush from 'kdbush';
import { describe, expect, it } from 'vitest';
import { PreparedRoute } from '../../src/geo/polyline.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { leavesSortedByLat, sortLeavesByLat } from '../../src/spatial/leaf-order.js';
import { SpatialIndex } from '../../src/spatial/spatial-index.js';
import { prng, routeDistance } from '../support/oracle.js';

/** 20,000 points over ~30 x 20 km of London (seeded), a few on exactly equal latitudes. */
function londonPoints(): { lat: Float64Array; lon: Float64Array } {
  const rand = prng(16);
  const n = 20_000;
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lat[i] = i % 50 === 0 ? 51.5 : 51.4 + rand() * 0.2;
    lon[i] = -0.35 + rand() * 0.45;
  }
  return { lat, lon };
}

function kdTree(lat: Float64Array, lon: Float64Array, nodeSize: number): KDBush {
  const tree = new KDBush(lat.length, nodeSize, Float64Array);
  for (let i = 0; i < lat.length; i++) tree.add(lon[i]!, lat[i]!);
  return tree.finish();
}

function hitsOf(index: SpatialIndex, route: PreparedRoute, width: number): Map<number, [number, number]> {
  const out = new HitBuffer();
  index.withinCorridor(route, width, out);
  const m = new Map<number, [number, number]>();
  for (let k = 0; k < out.length; k++) m.set(out.idx[k]!, [out.dist[k]!, out.along[k]!]);
  return m;
}

describe('leaf order: each kd leaf sorted by latitude (issue 16, PATH)', () => {
  const { lat, lon } = londonPoints();

  it('sorts every leaf, keeps each id with its own coordinates, and kdbush range queries unchanged', () => {
    for (const nodeSize of [4, 16, 64]) {
      const plain = kdTree(lat, lon, nodeSize);
      const sorted = kdTree(lat, lon, nodeSize);
      expect(leavesSortedByLat(plain)).toBe(false);
      sortLeavesByLat(sorted);
      expect(leavesSortedByLat(sorted)).toBe(true);
      for (let j = 0; j < lat.length; j++) {
        const id = sorted.ids[j]!;
        expect([sorted.coords[2 * j], sorted.coords[2 * j + 1]]).toEqual([lon[id], lat[id]]);
      }
      const rand = prng(nodeSize);
      for (let q = 0; q < 50; q++) {
        const x = -0.35 + rand() * 0.45;
        const y = 51.4 + rand() * 0.2;
        const box = [x, y, x + rand() * 0.05, y + rand() * 0.02] as const;
        const a = plain.range(...box).sort((p, r) => p - r); // range returns ids
        const b = sorted.range(...box).sort((p, r) => p - r);
        expect(b).toEqual(a);
      }
    }
  });

  it('corridor hits with sorted leaves (latitude band) equal an unsorted tree\'s (whole leaves) and the GeographicLib route distance, east-west, diagonal and north-south routes', () => {
    const byBand = new SpatialIndex(lat, lon, 16);
    const wholeLeaves = new SpatialIndex(lat, lon, kdTree(lat, lon, 16));
    const routes: Array<[number, number][]> = [
      [[51.5, -0.3], [51.505, -0.2], [51.49, -0.1]], // east-west, bends
      [[51.42, -0.3], [51.58, -0.0]], // diagonal
      [[51.41, -0.12], [51.59, -0.121]], // north-south (no band: whole leaves)
      [[51.5, -0.3], [51.5, -0.05], [51.5001, -0.3]], // doubles back
    ];
    for (const r of routes) {
      const route = new PreparedRoute(r.map((p) => p[0]), r.map((p) => p[1]));
      for (const width of [50, 200, 1000]) {
        const a = hitsOf(wholeLeaves, route, width);
        const b = hitsOf(byBand, route, width);
        expect(b.size).toBe(a.size);
        for (const [i, [d, along]] of a) {
          const got = b.get(i);
          expect(got, `venue ${i}`).toBeDefined();
          expect(got![0]).toBeCloseTo(d, 9);
          expect(got![1]).toBeCloseTo(along, 6);
        }
        // Independent oracle on a sample: a hit is within the width by the exact geodesic.
        let k = 0;
        for (const [i] of b) {
          if (k++ % 25 !== 0) continue;
          expect(routeDistance(r, lat[i]!, lon[i]!).distance).toBeLessThanOrEqual(width + 0.01);
        }
      }
    }
  });
});
