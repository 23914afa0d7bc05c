import { nearDistanceMeters } from '../geo/distance.js';
import { MIN_METERS_PER_DEG_LAT } from '../geo/ellipsoid.js';

/**
 * A robust centre of a group of venues that share a place name or postcode: the
 * coordinate-wise median, then the mean of the points within `clusterMeters` of it
 * (outliers, such as a mistyped address or a same-named street in another town, dropped).
 * Null when fewer than `minShare` of the points lie in that cluster: the name is ambiguous
 * ("City Centre" of many towns) and is not learnt. Coordinates in degrees.
 * The result does not depend on the order of the points (the medians are selected, and each
 * mean is an exact sum in fixed point: {@link FixedPointSum}), so places kept up to date
 * venue by venue (src/live) equal places learnt afresh from the same venues. Linear in the
 * points, nothing sorted: a place such as "London" can gather hundreds of thousands of
 * venues, and it is learnt again after every change naming it.
 */
export function robustCentroid(
  lat: readonly number[],
  lon: readonly number[],
  clusterMeters: number,
  minShare: number,
): { lat: number; lon: number; count: number } | null {
  const n = lat.length;
  if (n === 0) return null;
  // Most groups are small (a full postcode names a few venues): they share one scratch buffer.
  const columns = n <= SCRATCH_POINTS ? SCRATCH : new Float64Array(2 * n);
  const latCopy = columns.subarray(0, n);
  const lonCopy = columns.subarray(n, 2 * n);
  for (let i = 0; i < n; i++) {
    latCopy[i] = lat[i]!;
    lonCopy[i] = lon[i]!;
  }
  const mLat = median(latCopy);
  const mLon = median(lonCopy);
  // A point further in latitude alone than the radius (a degree of latitude is never shorter
  // than MIN_METERS_PER_DEG_LAT; 1 % spare for the distance rule's own error) is outside.
  const latReach = (1.01 * clusterMeters) / MIN_METERS_PER_DEG_LAT;
  const sumLat = SUM_LAT.reset();
  const sumLon = SUM_LON.reset();
  let k = 0;
  for (let i = 0; i < n; i++) {
    const a = lat[i]!;
    const b = lon[i]!;
    if (Math.abs(a - mLat) > latReach || nearDistanceMeters(mLat, mLon, a, b) > clusterMeters) continue;
    sumLat.add(a);
    sumLon.add(b);
    k++;
  }
  if (k === 0 || k < minShare * n) return null;
  return { lat: sumLat.value() / k, lon: sumLon.value() / k, count: k };
}

/** Groups of at most this many points use {@link SCRATCH} (robustCentroid is not re-entrant). */
const SCRATCH_POINTS = 1024;
const SCRATCH = new Float64Array(2 * SCRATCH_POINTS);

/**
 * A sum of coordinates (|x| <= 180 degrees) that does not depend on their order: each is
 * rounded to a multiple of 2^-40 degree (about 0.1 micrometre) and the multiples are added as
 * integers, exactly, split in two parts of at most 2^24 each, so either part's sum stays an
 * exact double (below 2^53) for up to 2^29 values. {@link value} rounds once.
 */
class FixedPointSum {
  /** Sums of the multiples' high parts (floor of multiple / 2^24) and low parts (the rest, in [0, 2^24)). */
  private high = 0;
  private low = 0;

  reset(): this {
    this.high = 0;
    this.low = 0;
    return this;
  }

  add(x: number): void {
    const multiple = Math.round(x * FIXED_POINT_SCALE);
    const high = Math.floor(multiple / LOW_PART);
    this.high += high;
    this.low += multiple - high * LOW_PART;
  }

  value(): number {
    return (this.high * LOW_PART + this.low) / FIXED_POINT_SCALE;
  }
}

const FIXED_POINT_SCALE = 2 ** 40;
const LOW_PART = 2 ** 24;
const SUM_LAT = new FixedPointSum();
const SUM_LON = new FixedPointSum();

/**
 * The median of `values` (the mean of the middle two for an even count), reordering them:
 * the middle values selected (quickselect), not the whole sorted.
 * @internal (exported for its test)
 */
export function median(values: Float64Array): number {
  const n = values.length;
  const m = n >> 1;
  const upper = select(values, m);
  if (n % 2 === 1) return upper;
  // values[0, m) are now all <= values[m]: the lower middle is their largest
  let lower = values[0]!;
  for (let i = 1; i < m; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/**
 * The k-th smallest of `values` (0-based), moved to `values[k]` with no larger value before it
 * and no smaller after it (Hoare's selection, pivot the median of three). Rounds past twice
 * the expected depth: the typed array's own sort (so never quadratic).
 */
function select(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  let rounds = 2 * Math.ceil(Math.log2(values.length + 1)) + 8;
  while (hi > lo) {
    if (--rounds < 0) {
      values.subarray(lo, hi + 1).sort();
      return values[k]!;
    }
    const mid = (lo + hi) >> 1;
    const pivot = medianOfThree(values[lo]!, values[mid]!, values[hi]!);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    // [lo, j] <= pivot <= [i, hi], and (i, j) between them equal to the pivot
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

function medianOfThree(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}
