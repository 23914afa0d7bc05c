import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DensityGrid } from '../../src/find/density-grid.js';
import { geodesic } from '../support/oracle.js';

/**
 * The density grid's two answers for place resolution, against a brute-force scan with
 * GeographicLib distances. Cells are 0.05 x 0.05 degrees: at most ~5.6 km x 5.6 km, so a
 * cell's centre is within ~4 km of any point in it.
 */
const CELL_HALF_DIAGONAL_MAX = 4000;
const CELL_DIAGONAL_MAX = 8000;

function grid(points: ReadonlyArray<readonly [number, number]>): DensityGrid {
  return new DensityGrid(Float64Array.from(points.map((p) => p[0])), Float64Array.from(points.map((p) => p[1])));
}
const countWithin = (points: ReadonlyArray<readonly [number, number]>, lat: number, lon: number, r: number) =>
  points.filter(([y, x]) => geodesic(lat, lon, y, x) <= r).length;

describe('DensityGrid as the VenueDensity of place resolution (brute-force oracle)', () => {
  // venues in Great Britain, queries anywhere around it
  const point = fc.tuple(fc.double({ min: 50, max: 58, noNaN: true }), fc.double({ min: -5, max: 1.5, noNaN: true }));
  const points = fc.array(point, { minLength: 0, maxLength: 60 });

  it('venuesNear counts every venue within the radius and none beyond the box corners (radius x sqrt 2) plus a cell (small and data-wide boxes)', () => {
    fc.assert(
      fc.property(points, point, fc.constantFrom(2000, 10_000, 80_000, 400_000), (ps, [lat, lon], r) => {
        const n = grid(ps).venuesNear(lat, lon, r);
        expect(n).toBeGreaterThanOrEqual(countWithin(ps, lat, lon, r));
        expect(n).toBeLessThanOrEqual(countWithin(ps, lat, lon, r * Math.SQRT2 * 1.01 + CELL_DIAGONAL_MAX));
      }),
      { numRuns: 300 },
    );
  });

  it('reachMeters is the 95th percentile of occupied cells\' nearest occupied neighbours (centre to centre, within 60 rings), brute force', () => {
    const CELL = 0.05;
    const cellOf = ([lat, lon]: readonly [number, number]) => [Math.floor((lat + 90) / CELL), Math.floor((lon + 180) / CELL)] as const;
    const centre = ([r, c]: readonly [number, number]) => [(r + 0.5) * CELL - 90, (c + 0.5) * CELL - 180] as const;
    expect(grid([]).reachMeters()).toBe(0);
    expect(grid([[51.51, -0.11], [51.512, -0.112]]).reachMeters()).toBe(0); // one cell: no neighbour
    fc.assert(
      fc.property(points, (ps) => {
        const cells = [...new Map(ps.map((p) => { const c = cellOf(p); return [`${c[0]},${c[1]}`, c] as const; })).values()];
        const nearest: number[] = [];
        for (const a of cells) {
          let best = Infinity;
          for (const b of cells) {
            if (a === b || Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) > 60) continue;
            best = Math.min(best, geodesic(...centre(a), ...centre(b)));
          }
          if (best !== Infinity) nearest.push(best);
        }
        nearest.sort((x, y) => x - y);
        const expected = nearest.length === 0 ? 0 : nearest[Math.min(nearest.length - 1, Math.floor(0.95 * nearest.length))]!;
        const reach = grid(ps).reachMeters();
        expect(Math.abs(reach - expected)).toBeLessThanOrEqual(expected * 0.005 + 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('nearestVenueMeters is the nearest venue distance to within half a cell diagonal; Infinity for no venues', () => {
    expect(grid([]).nearestVenueMeters(51.5, -0.1)).toBe(Infinity);
    fc.assert(
      fc.property(points, point, (ps, [lat, lon]) => {
        fc.pre(ps.length > 0);
        const exact = Math.min(...ps.map(([y, x]) => geodesic(lat, lon, y, x)));
        expect(Math.abs(grid(ps).nearestVenueMeters(lat, lon) - exact)).toBeLessThanOrEqual(CELL_HALF_DIAGONAL_MAX);
      }),
      { numRuns: 300 },
    );
  });
});
