// The nearest-first radius walk (src/spatial/radius-walk.ts, issue 16) against brute-force
// scans of every point: GeographicLib for the geometry, and the one distance rule of src/geo
// (LocalFrame) for the exact set and the distances to the bit.
import KDBush from 'kdbush';
import { describe, expect, it } from 'vitest';
import { LocalFrame } from '../../src/geo/distance.js';
import { ColumnFilter } from '../../src/spatial/column-filter.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { IndexRanges } from '../../src/spatial/index-ranges.js';
import { RadiusWalker } from '../../src/spatial/radius-walk.js';
import { SpatialIndex } from '../../src/spatial/spatial-index.js';
import { Tombstones } from '../../src/spatial/tombstones.js';
import { geodesic, prng } from '../support/oracle.js';

interface Cloud {
  lat: Float64Array;
  lon: Float64Array;
  caters: Uint16Array;
  chain: Uint8Array;
}

/** Clustered points (a town centre: Gaussian, 400 m) around each centre, with random caters bits and chain values. */
function cloud(centres: ReadonlyArray<readonly [number, number]>, perCentre: number, seed: number): Cloud {
  const rnd = prng(seed);
  const n = centres.length * perCentre;
  const c: Cloud = { lat: new Float64Array(n), lon: new Float64Array(n), caters: new Uint16Array(n), chain: new Uint8Array(n) };
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  for (let i = 0; i < n; i++) {
    const [lat, lon] = centres[Math.floor(i / perCentre)]!;
    c.lat[i] = lat + (gauss() * 400) / 111_000;
    let x = lon + (gauss() * 400) / (111_000 * Math.cos((lat * Math.PI) / 180));
    if (x >= 180) x -= 360;
    if (x < -180) x += 360;
    c.lon[i] = x;
    c.caters[i] = (rnd() < 0.3 ? 1 : 0) | (rnd() < 0.5 ? 2 : 0);
    c.chain[i] = Math.floor(rnd() * 3);
  }
  // a few exact duplicates (shared postcode centroids)
  for (let i = 1; i < n; i += 97) {
    c.lat[i] = c.lat[i - 1]!;
    c.lon[i] = c.lon[i - 1]!;
  }
  return c;
}

function tree(c: Cloud, nodeSize: number): KDBush {
  const t = new KDBush(c.lat.length, nodeSize, Float64Array);
  for (let i = 0; i < c.lat.length; i++) t.add(c.lon[i]!, c.lat[i]!);
  return t.finish();
}

function accepts(f: ColumnFilter | null, i: number): boolean {
  return f === null || ((f.caters[i]! & f.catersRequired) === f.catersRequired && (f.chainRequired < 0 || f.chain[i] === f.chainRequired));
}

/** Brute force over every point by src/geo's rule: index -> distance (m) of the matches. */
function bruteForce(c: Cloud, lat: number, lon: number, r: number, f: ColumnFilter | null): Map<number, number> {
  const frame = new LocalFrame(lat, lon);
  const out = new Map<number, number>();
  for (let i = 0; i < c.lat.length; i++) {
    if (!accepts(f, i)) continue;
    const d = frame.ruledDistance(c.lat[i]!, c.lon[i]!);
    if (d <= r) out.set(i, d);
  }
  return out;
}

const CENTRES: ReadonlyArray<readonly [number, number]> = [
  [51.5074, -0.1278], // London
  [53.4808, -2.2426], // Manchester
  [64.1466, -21.9426], // Reykjavik (high latitude)
  [-17.8, 179.999], // Fiji, across the antimeridian
  [0.0, 0.0], // the equator and the prime meridian
];

/** A circle centre near CENTRES[q] (up to 0.005° off each way, kept west of the antimeridian), two draws of `rnd`. */
function centreNear(q: number, rnd: () => number): [number, number] {
  const [clat, clon] = CENTRES[q % CENTRES.length]!;
  const lat = clat + (rnd() - 0.5) * 0.01;
  const lon = Math.min(179.9999, clon + (rnd() - 0.5) * 0.01);
  return [lat, lon];
}

/** The column filter of circle q: none for an even q, else caters bit 2 required. */
function everyOtherFilter(c: Cloud, q: number): ColumnFilter | null {
  if (q % 2 === 0) return null;
  const filter = new ColumnFilter(c.caters, c.chain);
  filter.catersRequired = 2;
  return filter;
}

describe('RadiusWalker against brute-force scans', () => {
  for (const nodeSize of [4, 16, 64]) {
    it(`every match exactly once, the distances of the rule, nearest node first (node size ${nodeSize})`, () => {
      const c = cloud(CENTRES, 1500, nodeSize);
      const walker = new RadiusWalker(tree(c, nodeSize));
      const rnd = prng(100 + nodeSize);
      const out = new HitBuffer();
      let checked = 0;
      for (let q = 0; q < 60; q++) {
        const [clat, clon] = CENTRES[q % CENTRES.length]!;
        const lat = clat + (rnd() - 0.5) * 0.02;
        let lon = clon + (rnd() - 0.5) * 0.02;
        if (lon >= 180) lon -= 360;
        const r = 20 + rnd() * 2500;
        const filter = q % 3 === 0 ? null : new ColumnFilter(c.caters, c.chain);
        if (filter && q % 3 === 1) filter.catersRequired = 1;
        if (filter && q % 3 === 2) filter.chainRequired = 0;
        const expected = bruteForce(c, lat, lon, r, filter);
        expect(walker.begin(lat, lon, r, filter)).toBe(true);
        out.clear();
        let bound = 0;
        for (;;) {
          const before = walker.pendingBound;
          // no venue the walk gives later lies nearer than the bound it published
          expect(before).toBeGreaterThanOrEqual(bound);
          bound = before;
          const from = out.length;
          if (walker.next(out, 1 + Math.floor(rnd() * 40)) === 0) break;
          for (let k = from; k < out.length; k++) expect(out.dist[k]!).toBeGreaterThanOrEqual(before);
        }
        expect(walker.pendingBound).toBe(Number.POSITIVE_INFINITY);
        expect(out.length).toBe(expected.size);
        for (let k = 0; k < out.length; k++) {
          const i = out.idx[k]!;
          expect(expected.get(i), `venue ${i}`).toBe(out.dist[k]);
          expected.delete(i);
          // the rule's distance is GeographicLib's within a millimetre at these ranges
          expect(Math.abs(out.dist[k]! - geodesic(lat, lon, c.lat[i]!, c.lon[i]!))).toBeLessThan(1e-3);
          checked++;
        }
        expect(expected.size).toBe(0);
        expect(walker.countRest()).toBe(0);
      }
      expect(checked).toBeGreaterThan(5000);
    });
  }

  it('stopped after any batch, the count of the rest completes the brute-force count; whole subtrees are counted without measuring', () => {
    const c = cloud(CENTRES, 3000, 7);
    const walker = new RadiusWalker(tree(c, 16));
    const rnd = prng(8);
    const out = new HitBuffer();
    let measuredShare = 0;
    let bigCircles = 0;
    for (let q = 0; q < 80; q++) {
      const [lat, lon] = centreNear(q, rnd);
      const r = 50 + rnd() * 3000;
      const filter = everyOtherFilter(c, q);
      const expected = bruteForce(c, lat, lon, r, filter);
      walker.begin(lat, lon, r, filter);
      out.clear();
      const batches = Math.floor(rnd() * 6);
      for (let b = 0; b < batches; b++) walker.next(out, 16);
      const given = new Set(Array.from(out.idx.subarray(0, out.length)));
      for (const i of given) expect(expected.has(i)).toBe(true);
      const rest = walker.countRest();
      expect(given.size + rest, `circle ${q}: ${r.toFixed(0)} m`).toBe(expected.size);
      if (filter === null && expected.size > 1000) {
        bigCircles++;
        measuredShare += walker.measured / expected.size;
      }
    }
    // Most of a large circle lies in subtrees wholly inside it: counted by size, not measured.
    expect(bigCircles).toBeGreaterThan(5);
    expect(measuredShare / bigCircles).toBeLessThan(0.6);
  });

  it('issue 17: with tombstones, hidden venues are neither given nor counted (whole subtrees less their hidden venues); stopBeyond ends a batch early', () => {
    const c = cloud(CENTRES, 3000, 12);
    const kd = tree(c, 16);
    const walker = new RadiusWalker(kd);
    const tombstones = new Tombstones(kd.ids);
    const rnd = prng(13);
    const out = new HitBuffer();
    let countedHidden = 0;
    for (let q = 0; q < 80; q++) {
      // more venues hidden as the queries go on (tombstones only grow), some twice
      for (let h = 0; h < 150; h++) tombstones.hide(Math.floor(rnd() * c.lat.length));
      const [lat, lon] = centreNear(q, rnd);
      const r = 50 + rnd() * 3000;
      const filter = everyOtherFilter(c, q);
      const all = bruteForce(c, lat, lon, r, filter);
      const expected = new Map([...all].filter(([i]) => tombstones.bytes[i] === 0));
      countedHidden += all.size - expected.size;
      walker.begin(lat, lon, r, filter, tombstones);
      out.clear();
      const stop = rnd() * r;
      for (let b = Math.floor(rnd() * 6); b > 0; b--) walker.next(out, 16, stop);
      // every venue given is a visible match; a node is opened only while its bound is <= stop
      for (let k = 0; k < out.length; k++) expect(expected.get(out.idx[k]!)).toBe(out.dist[k]);
      const given = new Set(Array.from(out.idx.subarray(0, out.length)));
      const rest = walker.countRest();
      expect(given.size + rest, `circle ${q}: ${r.toFixed(0)} m`).toBe(expected.size);
    }
    expect(countedHidden).toBeGreaterThan(100);
    // the hidden counts against a scan of the bytes in tree order (random ranges, then the
    // whole index, empty ranges, and ranges ending at each 32-position word boundary and at the end)
    const last = kd.ids.length - 1;
    const ranges: Array<[number, number]> = [[0, last], [last, last], [0, -1], [last + 1, last], [31, 30], [0, 31], [0, 32], [32, 63], [33, 64], [last - 40, last]];
    for (let q = 0; q < 200; q++) {
      const a = Math.floor(rnd() * kd.ids.length);
      ranges.push([a, Math.min(last, a + Math.floor(rnd() * 5000))]);
    }
    for (const [a, b] of ranges) {
      let n = 0;
      for (let p = a; p <= b; p++) n += tombstones.bytes[kd.ids[p]!]! !== 0 ? 1 : 0;
      expect(tombstones.hiddenIn(a, b), `positions ${a}..${b}`).toBe(n);
    }
    expect(tombstones.hiddenIn(0, last)).toBe(tombstones.count);
  });

  for (const nodeSize of [2, 4, 16, 64]) {
    it(`the ranges of countRest cover each match not given once, whole ones lie inside, each bound holds for its venues (node size ${nodeSize})`, () => {
      const c = cloud(CENTRES, 1200, 20 + nodeSize);
      const kd = tree(c, nodeSize);
      const positionOf = new Int32Array(kd.ids.length);
      for (let p = 0; p < kd.ids.length; p++) positionOf[kd.ids[p]!] = p;
      const walker = new RadiusWalker(kd);
      const rnd = prng(30 + nodeSize);
      const out = new HitBuffer();
      const ranges = new IndexRanges(4);
      let wholeVenues = 0;
      let edgeRanges = 0;
      for (let q = 0; q < 60; q++) {
        const [lat, lon] = centreNear(q, rnd);
        const r = 30 + rnd() * 2500;
        const filter = everyOtherFilter(c, q);
        const frame = new LocalFrame(lat, lon);
        const expected = bruteForce(c, lat, lon, r, filter);
        walker.begin(lat, lon, r, filter);
        out.clear();
        for (let b = Math.floor(rnd() * 4); b > 0; b--) walker.next(out, 8);
        const given = new Set(Array.from(out.idx.subarray(0, out.length)));
        const measureEdge = q % 3 !== 0;
        const counted = walker.countRest(ranges.clear(), measureEdge);
        const seen = new Set<number>();
        let inEdgeRanges = 0;
        // every problem found (one expect per circle: an expect per venue took most of the time)
        const problems: string[] = [];
        for (let k = 0; k < ranges.length; k++) {
          const lo = ranges.lo[k]!;
          const hi = ranges.hi[k]!;
          if (hi < lo) problems.push(`empty range ${lo}..${hi}`);
          if (ranges.whole[k] === 1) wholeVenues += hi - lo + 1;
          else edgeRanges++;
          for (let p = lo; p <= hi; p++) {
            const v = kd.ids[p]!;
            if (seen.has(p)) problems.push(`position ${p} in two ranges`);
            if (given.has(v)) problems.push(`venue ${v} given and in a range`);
            seen.add(p);
            const d = frame.ruledDistance(c.lat[v]!, c.lon[v]!);
            // the range's lower bound holds for every venue of it (to a micrometre of rounding)
            if (ranges.near[k]! > d + 1e-6) problems.push(`range ${lo}..${hi}: bound ${ranges.near[k]} over venue ${v}'s distance ${d}`);
            if (ranges.whole[k] === 1) {
              if (d > r) problems.push(`venue ${v} of whole range ${lo}..${hi} at ${d} m, beyond ${r} m`);
            } else if (expected.has(v)) inEdgeRanges++;
          }
        }
        // every match not given lies in exactly one range
        for (const v of expected.keys()) if (!given.has(v) && !seen.has(positionOf[v]!)) problems.push(`venue ${v} in no range`);
        expect(problems, `circle ${q}: ${r.toFixed(0)} m`).toEqual([]);
        // measured: the count is the edge ranges' matches (whole ranges are the caller's)
        expect(counted).toBe(measureEdge ? inEdgeRanges : 0);
      }
      expect(wholeVenues).toBeGreaterThan(1000);
      expect(edgeRanges).toBeGreaterThan(100);
    });
  }

  it('gives what SpatialIndex.withinRadius gives, to the bit, on the same tree', () => {
    const c = cloud(CENTRES, 2000, 9);
    const index = new SpatialIndex(c.lat, c.lon, 64);
    const walker = index.radiusWalker();
    const rnd = prng(10);
    const a = new HitBuffer();
    const b = new HitBuffer();
    for (let q = 0; q < 40; q++) {
      const [lat, lon] = centreNear(q, rnd);
      const r = 10 + rnd() * 2000;
      index.withinRadius(lat, lon, r, a);
      walker.begin(lat, lon, r, null);
      b.clear();
      while (walker.next(b, 64) > 0);
      const got = new Map<number, number>();
      for (let k = 0; k < b.length; k++) got.set(b.idx[k]!, b.dist[k]!);
      expect(got.size).toBe(a.length);
      for (let k = 0; k < a.length; k++) expect(got.get(a.idx[k]!)).toBe(a.dist[k]);
    }
  });

  it('declines a circle the local frame does not hold (the caller measures exactly) and a tree of Float32Array coordinates; an empty tree gives nothing', () => {
    const c = cloud([[51.5, -0.1]], 100, 11);
    const walker = new RadiusWalker(tree(c, 16));
    expect(walker.begin(51.5, -0.1, 200_000, null)).toBe(false);
    expect(walker.begin(89.99, 0, 1000, null)).toBe(false);
    expect(walker.begin(51.5, -0.1, Number.NaN, null)).toBe(false);
    const f32 = new KDBush(c.lat.length, 16, Float32Array);
    for (let i = 0; i < c.lat.length; i++) f32.add(c.lon[i]!, c.lat[i]!);
    expect(new RadiusWalker(f32.finish()).begin(51.5, -0.1, 1000, null)).toBe(false);
    const empty = new RadiusWalker(new KDBush(0, 16, Float64Array).finish());
    const out = new HitBuffer();
    expect(empty.begin(51.5, -0.1, 1000, null)).toBe(true);
    expect(empty.next(out, 10)).toBe(0);
    expect(empty.countRest()).toBe(0);
  });
});
