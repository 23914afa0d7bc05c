/**
 * venueExtent (src/spatial/venue-extent.ts) against a brute force: the 1st and 99th
 * percentile venues of a sorted copy of each axis lie inside the box, within its 0.1-degree
 * bins; named cases: no venues, one venue, the fixtures' few New York and Auckland venues left
 * out of a British box.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXTENT_TRIM, venueExtent } from '../../src/spatial/venue-extent.js';

/** A seeded PRNG (mulberry32). */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The brute-force percentile pair of one axis. */
function bruteRange(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const skip = Math.floor(EXTENT_TRIM * (sorted.length - 1));
  return [sorted[skip]!, sorted[sorted.length - 1 - skip]!];
}

describe('venueExtent', () => {
  it('empty index: null', () => {
    expect(venueExtent(new Float64Array(0), new Float64Array(0))).toBeNull();
  });

  it('one venue: the 0.1-degree bin around it', () => {
    const e = venueExtent(Float64Array.of(51.5074), Float64Array.of(-0.1278))!;
    expect(e.south).toBeCloseTo(51.5, 9);
    expect(e.north).toBeCloseTo(51.6, 9);
    expect(e.west).toBeCloseTo(-0.2, 9);
    expect(e.east).toBeCloseTo(-0.1, 9);
  });

  it('random clouds with far outliers: the brute-force percentiles are inside the box, less than a bin from its edges', () => {
    const random = prng(32);
    for (let round = 0; round < 20; round++) {
      const n = 50 + Math.floor(random() * 5000);
      const lat = new Float64Array(n);
      const lon = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const outlier = random() < 0.005;
        lat[i] = outlier ? -89 + random() * 178 : 40 + random() * 8;
        lon[i] = outlier ? -179 + random() * 358 : -80 + random() * 10;
      }
      const e = venueExtent(lat, lon)!;
      const [south, north] = bruteRange([...lat]);
      const [west, east] = bruteRange([...lon]);
      for (const [edge, value, label] of [[e.south, south, 'south'], [e.west, west, 'west']] as const) {
        expect(edge, label).toBeLessThanOrEqual(value + 1e-9);
        expect(value - edge, label).toBeLessThan(0.1 + 1e-9);
      }
      for (const [edge, value, label] of [[e.north, north, 'north'], [e.east, east, 'east']] as const) {
        expect(edge, label).toBeGreaterThanOrEqual(value - 1e-9);
        expect(edge - value, label).toBeLessThan(0.1 + 1e-9);
      }
    }
  });

  it('the fixtures: Britain, without their few New York and Auckland venues', () => {
    const coords = readFileSync('fixtures/venues.ndjson', 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { location: { coordinates: [number, number] } }).location.coordinates);
    const e = venueExtent(Float64Array.from(coords, (c) => c[0]), Float64Array.from(coords, (c) => c[1]))!;
    expect(e.south).toBeGreaterThan(49.9); // the Scilly Isles' latitude
    expect(e.north).toBeLessThan(59);
    expect(e.west).toBeGreaterThan(-8.2);
    expect(e.east).toBeLessThan(1.8);
    // London, Edinburgh and Cardiff inside
    for (const [lat, lon] of [[51.507, -0.128], [55.953, -3.189], [51.481, -3.179]] as const) {
      expect(lat >= e.south && lat <= e.north && lon >= e.west && lon <= e.east, `${lat},${lon}`).toBe(true);
    }
  });
});
