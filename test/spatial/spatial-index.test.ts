import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PreparedRoute } from '../../src/geo/polyline.js';
import { ColumnFilter } from '../../src/spatial/column-filter.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { SpatialIndex } from '../../src/spatial/spatial-index.js';
import { geodesic, prng, routeDistance } from '../support/oracle.js';
import { fhrsCoordinates, hasShared } from '../support/real-data.js';

interface Pt {
  lat: number;
  lon: number;
}

function build(points: Pt[], nodeSize?: number): SpatialIndex {
  return new SpatialIndex(Float64Array.from(points, (p) => p.lat), Float64Array.from(points, (p) => p.lon), nodeSize);
}

const fixturePoints: Pt[] = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => {
    const c = (JSON.parse(l) as { location: { coordinates: [number, number] } }).location.coordinates;
    return { lat: c[0], lon: c[1] };
  });

/** Compares a radius query with a brute-force scan; points within `edge` m of the boundary may differ. */
function checkRadius(index: SpatialIndex, points: Pt[], lat: number, lon: number, r: number, edge = 0.01): { found: number; edgeCases: number } {
  const out = new HitBuffer();
  index.withinRadius(lat, lon, r, out);
  const got = new Map<number, number>();
  for (let k = 0; k < out.length; k++) got.set(out.idx[k]!, out.dist[k]!);
  let edgeCases = 0;
  const wrong: string[] = [];
  points.forEach((p, i) => {
    // Conservative prefilter (a degree of latitude is over 110 km) so the exact oracle runs
    // only near the circle; anything it skips must not be in the result.
    const lonScale = 111_000 * Math.cos((Math.min(89, Math.max(Math.abs(p.lat), Math.abs(lat)) + 0.5) * Math.PI) / 180);
    const dLon = Math.abs(((p.lon - lon + 540) % 360) - 180);
    if (Math.abs(p.lat - lat) * 110_000 > r + 1000 || (Math.abs(lat) < 80 && dLon * lonScale > r + 1000)) {
      if (got.has(i)) wrong.push(`venue ${i} is far outside but was returned`);
      return;
    }
    const d = geodesic(lat, lon, p.lat, p.lon);
    if (Math.abs(d - r) <= edge) {
      edgeCases++;
      return;
    }
    if (got.has(i) !== d <= r) wrong.push(`venue ${i} at ${d.toFixed(3)} m, radius ${r}: returned ${got.has(i)}`);
    else if (d <= r && !(Math.abs(got.get(i)! - d) < Math.max(0.01, d * 1e-5))) wrong.push(`venue ${i}: distance ${got.get(i)} vs ${d}`);
  });
  expect(wrong).toEqual([]);
  return { found: got.size, edgeCases };
}

describe('SpatialIndex.withinRadius against a brute-force GeographicLib scan', () => {
  it('fixtures: 1 km around Soho, 5 km around Manchester, 300 km around Birmingham (exact path)', () => {
    const index = build(fixturePoints);
    expect(checkRadius(index, fixturePoints, 51.5136, -0.1365, 1000).found).toBeGreaterThan(50);
    expect(checkRadius(index, fixturePoints, 53.4808, -2.2426, 5000).found).toBeGreaterThan(50);
    expect(checkRadius(index, fixturePoints, 52.48, -1.9, 300_000).found).toBeGreaterThan(500);
  });

  it('fixtures: 100 random circles', () => {
    const index = build(fixturePoints);
    const rnd = prng(1);
    for (let i = 0; i < 100; i++) {
      const p = fixturePoints[Math.floor(rnd() * fixturePoints.length)]!;
      checkRadius(index, fixturePoints, p.lat + (rnd() - 0.5) * 0.01, p.lon + (rnd() - 0.5) * 0.01, 50 + rnd() * 3000);
    }
  });

  it.skipIf(!hasShared('fhrs-london'))('FHRS London postcode centroids (shared points, ties included): 60 circles', () => {
    const pts = fhrsCoordinates();
    expect(pts.length).toBeGreaterThan(30_000);
    const index = build(pts);
    const rnd = prng(2);
    for (let i = 0; i < 60; i++) {
      const p = pts[Math.floor(rnd() * pts.length)]!;
      // Centred exactly on a shared centroid: every venue at distance 0 must be found.
      const { found } = checkRadius(index, pts, p.lat, p.lon, 100 + rnd() * 1500);
      expect(found).toBeGreaterThan(0);
    }
  });

  it('antimeridian: a circle around Taveuni (Fiji) finds venues on both sides of 180', () => {
    const pts: Pt[] = [];
    const rnd = prng(3);
    for (let i = 0; i < 500; i++) pts.push({ lat: -16.8 + (rnd() - 0.5) * 0.4, lon: ((179.95 + (rnd() - 0.5) * 0.4 + 540) % 360) - 180 });
    const index = build(pts);
    const { found } = checkRadius(index, pts, -16.8, 179.99, 15_000);
    const out = new HitBuffer();
    index.withinRadius(-16.8, 179.99, 15_000, out);
    const lons = Array.from(out.idx.subarray(0, out.length), (i) => pts[i]!.lon);
    expect(found).toBeGreaterThan(10);
    expect(lons.some((l) => l < 0) && lons.some((l) => l > 0)).toBe(true);
  });

  it('poles: a circle around the north pole covers every longitude', () => {
    const pts: Pt[] = [];
    for (let lon = -180; lon < 180; lon += 10) pts.push({ lat: 89.95, lon }, { lat: 89.5, lon });
    const index = build(pts);
    expect(checkRadius(index, pts, 90, 0, 10_000).found).toBe(36);
    expect(checkRadius(index, pts, 89.9, 45, 30_000).found).toBe(36);
  });

  it('empty index and zero radius', () => {
    const out = new HitBuffer();
    expect(build([]).withinRadius(51, 0, 1000, out)).toBe(0);
    expect(build([]).nearest(51, 0, 5, Infinity, out)).toBe(0);
    const index = build([{ lat: 51, lon: 0 }, { lat: 51, lon: 0 }]);
    expect(index.withinRadius(51, 0, 0, out)).toBe(2);
  });
});

describe('SpatialIndex.withinCorridor against a brute-force GeographicLib route distance', () => {
  function checkCorridor(points: Pt[], vertices: Array<[number, number]>, width: number, nodeSize?: number): number {
    const index = build(points, nodeSize);
    const route = new PreparedRoute(vertices.map((v) => v[0]), vertices.map((v) => v[1]));
    const out = new HitBuffer();
    index.withinCorridor(route, width, out);
    const got = new Map<number, { d: number; along: number }>();
    for (let k = 0; k < out.length; k++) got.set(out.idx[k]!, { d: out.dist[k]!, along: out.along[k]! });
    points.forEach((p, i) => {
      // Cheap prefilter so the exact oracle runs only near the route.
      const nearVertex = vertices.some(([la, lo]) => Math.abs(la - p.lat) < 5 && Math.abs(lo - p.lon) < 5);
      if (!nearVertex) {
        expect(got.has(i)).toBe(false);
        return;
      }
      const exact = routeDistance(vertices, p.lat, p.lon);
      if (Math.abs(exact.distance - width) < 0.05) return;
      expect(got.has(i), `venue ${i} at ${exact.distance.toFixed(2)} m from the route`).toBe(exact.distance <= width);
      if (exact.distance <= width) {
        expect(Math.abs(got.get(i)!.d - exact.distance)).toBeLessThan(0.05);
        expect(Math.abs(got.get(i)!.along - exact.along)).toBeLessThan(2);
      }
    });
    return got.size;
  }

  it('fixtures: a walk Camden to Soho to Shoreditch, 200 m either side', () => {
    const near = fixturePoints.filter((p) => Math.abs(p.lat - 51.52) < 0.05 && Math.abs(p.lon + 0.11) < 0.08);
    expect(checkCorridor(near, [[51.539, -0.1426], [51.5136, -0.1365], [51.5265, -0.0787]], 200)).toBeGreaterThan(20);
  });

  it('a route that doubles back (Soho to Covent Garden and back) finds each venue once', () => {
    const near = fixturePoints.filter((p) => Math.abs(p.lat - 51.512) < 0.01 && Math.abs(p.lon + 0.13) < 0.02);
    const n = checkCorridor(near, [[51.5136, -0.1365], [51.5117, -0.124], [51.5136, -0.1365]], 150);
    expect(n).toBeGreaterThan(10);
  });

  it('a route out, back and out again along one meridian: every venue keeps its earliest pass (ties within 1 mm)', () => {
    // Legs 0 (A to B), 2 (B to A) and 3 (A to C) cover the same ground: each venue's nearest
    // point is the same on all three, measured from each with its own rounding.
    const rnd = prng(20261129);
    const band: Pt[] = Array.from({ length: 400 }, () => ({ lat: 51.5 + rnd() * 0.01, lon: -0.12 + (rnd() * 2 - 1) * 0.003 }));
    expect(checkCorridor(band, [[51.5, -0.12], [51.52, -0.12], [51.5, -0.12], [51.51, -0.12]], 300)).toBeGreaterThan(300);
  });

  it('dense band around a diagonal 60 km route of three 20 km pieces: the pruned walk misses nothing at the edges', () => {
    // 6,000 points in a band of +-1.6 km around a SW-NE route through the Midlands, most
    // of them near the 1 km edge: every kd subtree pruned by the capsule test must hold
    // only points the oracle puts outside. Leaves of 4 points make the regions small.
    const pts: Pt[] = [];
    const rnd = prng(11);
    const [a, b] = [[52.3, -1.9], [52.7, -1.2]] as const;
    for (let i = 0; i < 6000; i++) {
      const t = rnd() * 1.1 - 0.05;
      const offset = (rnd() < 0.7 ? 1000 + (rnd() - 0.5) * 60 : (rnd() - 0.5) * 3200) * (rnd() < 0.5 ? -1 : 1);
      // perpendicular offset in degrees (approximate; the oracle decides)
      pts.push({ lat: a[0] + t * (b[0] - a[0]) - (offset * 0.6) / 111_000, lon: a[1] + t * (b[1] - a[1]) + (offset * 0.8) / 68_000 });
    }
    expect(checkCorridor(pts, [[a[0], a[1]], [b[0], b[1]]], 1000, 4)).toBeGreaterThan(1500);
  });

  it('Svalbard: a corridor above 80 degrees (pieces measured on the sphere, no planar screen)', () => {
    const pts: Pt[] = [];
    const rnd = prng(12);
    for (let i = 0; i < 1500; i++) pts.push({ lat: 80.2 + rnd() * 0.8, lon: 15 + rnd() * 10 });
    expect(checkCorridor(pts, [[80.3, 16], [80.9, 24]], 2000)).toBeGreaterThan(50);
  });

  it('Fiji: a corridor across the antimeridian', () => {
    const pts: Pt[] = [];
    const rnd = prng(4);
    for (let i = 0; i < 400; i++) pts.push({ lat: -16.85 + (rnd() - 0.5) * 0.2, lon: ((180 + (rnd() - 0.5) * 0.6 + 540) % 360) - 180 });
    expect(checkCorridor(pts, [[-16.8, 179.8], [-16.9, -179.8]], 3000)).toBeGreaterThan(20);
  });
});

describe('SpatialIndex.countCorridorNearest against a brute-force GeographicLib route distance', () => {
  /**
   * The count must be the oracle's count of points within `width` (points within 5 cm of the
   * edge may go either way), and the hits written must hold every point among the k nearest
   * by the oracle (bar ties within 5 cm of the k-th), with distance and along position as the
   * oracle gives them; every hit written must be in the corridor.
   */
  function checkNearest(points: Pt[], vertices: Array<[number, number]>, width: number, k: number, nodeSize?: number, hidden?: Uint8Array): { count: number; written: number } {
    const index = build(points, nodeSize);
    const route = new PreparedRoute(vertices.map((v) => v[0]), vertices.map((v) => v[1]));
    const out = new HitBuffer();
    let filter: ColumnFilter | null = null;
    if (hidden) {
      filter = new ColumnFilter(new Uint16Array(points.length), new Uint8Array(points.length));
      filter.hidden = hidden;
    }
    const count = index.countCorridorNearest(route, width, k, out, filter);
    const written = new Map<number, { d: number; along: number }>();
    for (let j = 0; j < out.length; j++) {
      expect(written.has(out.idx[j]!), `venue ${out.idx[j]} written twice`).toBe(false);
      written.set(out.idx[j]!, { d: out.dist[j]!, along: out.along[j]! });
    }
    const inside: Array<{ i: number; distance: number; along: number }> = [];
    let edge = 0;
    points.forEach((p, i) => {
      const nearVertex = vertices.some(([la, lo]) => Math.abs(la - p.lat) < 5 && Math.abs(lo - p.lon) < 5);
      if (!nearVertex || (hidden !== undefined && hidden[i] !== 0)) return expect(written.has(i)).toBe(false);
      const exact = routeDistance(vertices, p.lat, p.lon);
      if (Math.abs(exact.distance - width) < 0.05) edge++;
      else if (exact.distance < width) inside.push({ i, ...exact });
      else expect(written.has(i), `venue ${i} at ${exact.distance.toFixed(2)} m written`).toBe(false);
    });
    expect(count).toBeGreaterThanOrEqual(inside.length);
    expect(count).toBeLessThanOrEqual(inside.length + edge);
    expect(written.size).toBeGreaterThanOrEqual(Math.min(k, count));
    inside.sort((a, b) => a.distance - b.distance);
    const kth = inside.length >= k ? inside[k - 1]!.distance : Number.POSITIVE_INFINITY;
    for (const v of inside) {
      if (v.distance > kth - 0.05) break;
      const got = written.get(v.i);
      expect(got, `venue ${v.i}, ${v.distance.toFixed(2)} m from the route, not written`).toBeDefined();
      expect(Math.abs(got!.d - v.distance)).toBeLessThan(0.05);
      expect(Math.abs(got!.along - v.along)).toBeLessThan(2);
    }
    return { count, written: written.size };
  }

  it('fixtures: the Camden - Soho - Shoreditch walk, k = 1, 5, 20 and more than the corridor holds', () => {
    const near = fixturePoints.filter((p) => Math.abs(p.lat - 51.52) < 0.05 && Math.abs(p.lon + 0.11) < 0.08);
    const route: Array<[number, number]> = [[51.539, -0.1426], [51.5136, -0.1365], [51.5265, -0.0787]];
    const all = checkNearest(near, route, 200, 100_000);
    expect(all.written).toBe(all.count); // k beyond the count: every point written
    for (const k of [1, 5, 20]) expect(checkNearest(near, route, 200, k).count).toBe(all.count);
  });

  it('hidden venues (live data) are neither counted nor written', () => {
    const near = fixturePoints.filter((p) => Math.abs(p.lat - 51.52) < 0.05 && Math.abs(p.lon + 0.11) < 0.08);
    const route: Array<[number, number]> = [[51.539, -0.1426], [51.5136, -0.1365], [51.5265, -0.0787]];
    const hidden = Uint8Array.from(near, (_, i) => (i % 3 === 0 ? 1 : 0));
    const all = checkNearest(near, route, 200, 5).count;
    const shown = checkNearest(near, route, 200, 5, undefined, hidden).count;
    expect(shown).toBeLessThan(all);
    expect(shown).toBeGreaterThan(all / 2);
  });

  it('a route that doubles back: each venue counted once, the nearer pass kept', () => {
    const near = fixturePoints.filter((p) => Math.abs(p.lat - 51.512) < 0.01 && Math.abs(p.lon + 0.13) < 0.02);
    const { count, written } = checkNearest(near, [[51.5136, -0.1365], [51.5117, -0.124], [51.5136, -0.1365]], 150, 3);
    expect(count).toBeGreaterThan(10);
    expect(written).toBeLessThan(count);
  });

  it('a dense band of 6,000 points around a 60 km diagonal route: most points counted without being written', () => {
    const pts: Pt[] = [];
    const rnd = prng(31);
    const [a, b] = [[52.3, -1.9], [52.7, -1.2]] as const;
    for (let i = 0; i < 6000; i++) {
      const t = rnd() * 1.1 - 0.05;
      // half of them within a few metres of the 1 km edge, the others anywhere across the band
      const offset = (rnd() < 0.5 ? 1000 + (rnd() - 0.5) * 40 : rnd() * 1600) * (rnd() < 0.5 ? -1 : 1);
      pts.push({ lat: a[0] + t * (b[0] - a[0]) - (offset * 0.6) / 111_000, lon: a[1] + t * (b[1] - a[1]) + (offset * 0.8) / 68_000 });
    }
    for (const k of [1, 20, 200]) {
      const { count, written } = checkNearest(pts, [[a[0], a[1]], [b[0], b[1]]], 1000, k, 8);
      expect(count).toBeGreaterThan(2500);
      // the k nearest, and the few a nearer pass of a later piece moved under the k-th
      expect(written).toBeLessThan(2 * k + 10);
    }
  });

  it('Svalbard and Fiji: near a pole (every point measured) and across the antimeridian', () => {
    const north: Pt[] = [];
    const rnd = prng(32);
    for (let i = 0; i < 1500; i++) north.push({ lat: 80.2 + rnd() * 0.8, lon: 15 + rnd() * 10 });
    expect(checkNearest(north, [[80.3, 16], [80.9, 24]], 2000, 10).count).toBeGreaterThan(50);
    const fiji: Pt[] = [];
    for (let i = 0; i < 400; i++) fiji.push({ lat: -16.85 + (rnd() - 0.5) * 0.2, lon: ((180 + (rnd() - 0.5) * 0.6 + 540) % 360) - 180 });
    expect(checkNearest(fiji, [[-16.8, 179.8], [-16.9, -179.8]], 3000, 10).count).toBeGreaterThan(20);
  });
});

describe('column prefilter (non-compromise caters and chain) in the radius and corridor walks', () => {
  it('returns exactly the unfiltered hits whose columns pass, for radius and corridor, with the same distances', () => {
    const pts = fixturePoints.filter((p) => Math.abs(p.lat - 51.515) < 0.03 && Math.abs(p.lon + 0.12) < 0.05);
    const index = build(pts);
    const rnd = prng(21);
    // columns drawn here, independent of the data: caters bits 0..3, chain 0..2
    const caters = Uint16Array.from(pts, () => Math.floor(rnd() * 16));
    const chain = Uint8Array.from(pts, () => Math.floor(rnd() * 3));
    const filter = new ColumnFilter(caters, chain);
    const all = new HitBuffer();
    const some = new HitBuffer();
    const route = new PreparedRoute([51.539, 51.5136, 51.5265], [-0.1426, -0.1365, -0.0787]);
    let kept = 0;
    for (const [req, ch] of [[0b0101, -1], [0, 1], [0b0010, 0], [0, -1]] as const) {
      filter.catersRequired = req;
      filter.chainRequired = ch;
      const pass = (i: number) => (caters[i]! & req) === req && (ch < 0 || chain[i] === ch);
      for (const run of [(out: HitBuffer, f: ColumnFilter | null) => index.withinRadius(51.5136, -0.1365, 1500, out, f), (out: HitBuffer, f: ColumnFilter | null) => index.withinCorridor(route, 250, out, f)]) {
        run(all, null);
        run(some, filter);
        const expected = new Map<number, number>();
        for (let k = 0; k < all.length; k++) if (pass(all.idx[k]!)) expected.set(all.idx[k]!, all.dist[k]!);
        const got = new Map<number, number>();
        for (let k = 0; k < some.length; k++) got.set(some.idx[k]!, some.dist[k]!);
        expect(got).toEqual(expected);
        kept += got.size;
        if (req === 0 && ch === -1) expect(got.size).toBe(all.length);
      }
    }
    expect(kept).toBeGreaterThan(50);
  });
});

describe('SpatialIndex.nearest against a brute-force sort', () => {
  it('k = 1, 10, 100 around three cities; ties broken by index', () => {
    const index = build(fixturePoints);
    const out = new HitBuffer();
    for (const [lat, lon] of [[51.5136, -0.1365], [55.95, -3.1883], [40.73, -73.99]] as const) {
      const order = fixturePoints
        .map((p, i) => ({ i, d: geodesic(lat, lon, p.lat, p.lon) }))
        .sort((a, b) => a.d - b.d || a.i - b.i);
      for (const k of [1, 10, 100]) {
        index.nearest(lat, lon, k, Infinity, out);
        expect(out.length).toBe(k);
        for (let j = 0; j < k; j++) {
          expect(Math.abs(out.dist[j]! - order[j]!.d)).toBeLessThan(Math.max(0.01, order[j]!.d * 1e-6));
          // Same venue unless the oracle has a near-tie there.
          if (Math.abs(order[j]!.d - (order[j + 1]?.d ?? Infinity)) > 0.01 && Math.abs(order[j]!.d - (order[j - 1]?.d ?? -Infinity)) > 0.01) {
            expect(out.idx[j]).toBe(order[j]!.i);
          }
        }
      }
    }
  });

  it('respects maxDistance and returns fewer than k when the index runs out', () => {
    const index = build(fixturePoints.slice(0, 5));
    const out = new HitBuffer();
    expect(index.nearest(51.5, -0.1, 10, Infinity, out)).toBe(5);
    index.nearest(51.5136, -0.1365, 50, 500, out);
    for (let j = 0; j < out.length; j++) expect(out.dist[j]).toBeLessThanOrEqual(500);
  });

  it('shared coordinates (duplicates) come out in index order', () => {
    const index = build([{ lat: 51, lon: 0 }, { lat: 51.001, lon: 0 }, { lat: 51, lon: 0 }, { lat: 51, lon: 0 }]);
    const out = new HitBuffer();
    index.nearest(51, 0, 3, Infinity, out);
    expect(Array.from(out.idx.subarray(0, 3))).toEqual([0, 2, 3]);
  });
});
