/**
 * Where most venues are: the box between the 1st and 99th percentiles of their latitudes and
 * of their longitudes, degrees. The widget opens its map on it (docs/widget.md). Percentiles,
 * not the plain bounding box: a mostly British dataset with a few venues in New York and
 * Auckland (the fixtures) would otherwise open on the whole world.
 *
 * One pass into 0.1-degree histograms (1,800 latitude and 3,600 longitude bins), then a
 * cumulative walk: O(n) with no sort, about 1 ms per million venues. The box's edges are bin
 * edges, so it is 0.1 degree coarse, which an initial view does not notice.
 * Longitudes are taken as they are: data that straddles the antimeridian gives a box
 * spanning the world's width.
 */

import type { LonLatBox } from '../geo/bbox.js';

export type VenueExtent = LonLatBox;

/** Share of venues left out on each side of each axis. */
export const EXTENT_TRIM = 0.01;
const BINS_PER_DEGREE = 10;

/** The 1-99 percentile box of the first `size` venues of the columns, or null for none. */
export function venueExtent(lat: Float64Array, lon: Float64Array, size = lat.length): VenueExtent | null {
  if (size === 0) return null;
  const [south, north] = trimmedRange(lat, size, -90, 90);
  const [west, east] = trimmedRange(lon, size, -180, 180);
  return { south, west, north, east };
}

/** [low, high]: the edges of the bins holding the EXTENT_TRIM and 1 - EXTENT_TRIM quantiles. */
function trimmedRange(values: Float64Array, size: number, min: number, max: number): [number, number] {
  const bins = new Uint32Array((max - min) * BINS_PER_DEGREE);
  const last = bins.length - 1;
  for (let i = 0; i < size; i++) bins[Math.min(last, Math.max(0, Math.floor((values[i]! - min) * BINS_PER_DEGREE)))]!++;
  // the venue of rank floor(trim * (size - 1)) from either end, as in a sorted list
  const skip = Math.floor(EXTENT_TRIM * (size - 1));
  let low = 0;
  for (let seen = 0; low <= last; low++) {
    seen += bins[low]!;
    if (seen > skip) break;
  }
  let high = last;
  for (let seen = 0; high >= 0; high--) {
    seen += bins[high]!;
    if (seen > skip) break;
  }
  return [min + low / BINS_PER_DEGREE, min + (high + 1) / BINS_PER_DEGREE];
}
