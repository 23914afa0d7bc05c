import { nearDistanceMeters } from '../geo/distance.js';

/**
 * A robust centre of a group of venues that share a place name or postcode: the
 * coordinate-wise median, then the mean of the points within `clusterMeters` of it
 * (outliers, such as a mistyped address or a same-named street in another town, dropped).
 * Null when fewer than `minShare` of the points lie in that cluster: the name is ambiguous
 * ("City Centre" of many towns) and is not learnt. Coordinates in degrees.
 * The result does not depend on the order of the points (the mean is summed in
 * coordinate order), so places kept up to date venue by venue (src/live) equal places
 * learnt afresh from the same venues.
 */
export function robustCentroid(
  lat: readonly number[],
  lon: readonly number[],
  clusterMeters: number,
  minShare: number,
): { lat: number; lon: number; count: number } | null {
  const n = lat.length;
  if (n === 0) return null;
  const mLat = median(lat);
  const mLon = median(lon);
  let sLat = 0;
  let sLon = 0;
  let k = 0;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => lat[a]! - lat[b]! || lon[a]! - lon[b]!);
  for (const i of order) {
    if (nearDistanceMeters(mLat, mLon, lat[i]!, lon[i]!) <= clusterMeters) {
      sLat += lat[i]!;
      sLon += lon[i]!;
      k++;
    }
  }
  if (k === 0 || k < minShare * n) return null;
  return { lat: sLat / k, lon: sLon / k, count: k };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
