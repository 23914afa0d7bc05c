import { nearDistanceMeters } from '../geo/distance.js';

/**
 * A robust centre of a group of venues that share a place name or postcode: the
 * coordinate-wise median, then the mean of the points within `clusterMeters` of it
 * (outliers, such as a mistyped address or a same-named street in another town, dropped).
 * Null when fewer than `minShare` of the points lie in that cluster: the name is ambiguous
 * ("City Centre" of many towns) and is not learnt. Coordinates in degrees.
 * The result does not depend on the order of the points (each mean is summed in ascending
 * order of its own coordinate), so places kept up to date venue by venue (src/live) equal
 * places learnt afresh from the same venues. Sorted as typed arrays (numeric, no comparator
 * call): a place such as "London" can gather hundreds of thousands of venues, and it is
 * learnt again after every change naming it.
 */
export function robustCentroid(
  lat: readonly number[],
  lon: readonly number[],
  clusterMeters: number,
  minShare: number,
): { lat: number; lon: number; count: number } | null {
  const n = lat.length;
  if (n === 0) return null;
  const mLat = median(Float64Array.from(lat).sort());
  const mLon = median(Float64Array.from(lon).sort());
  // the points of the cluster, then each coordinate summed in ascending order
  const inLat = new Float64Array(n);
  const inLon = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (nearDistanceMeters(mLat, mLon, lat[i]!, lon[i]!) <= clusterMeters) {
      inLat[k] = lat[i]!;
      inLon[k] = lon[i]!;
      k++;
    }
  }
  if (k === 0 || k < minShare * n) return null;
  return { lat: ascendingSum(inLat.subarray(0, k).sort()) / k, lon: ascendingSum(inLon.subarray(0, k).sort()) / k, count: k };
}

/** The median of ascending values (the mean of the middle two for an even count). */
function median(sorted: Float64Array): number {
  const m = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

/** The sum of values already in ascending order, left to right. */
function ascendingSum(sorted: Float64Array): number {
  let s = 0;
  for (let i = 0; i < sorted.length; i++) s += sorted[i]!;
  return s;
}
