import { MIN_METERS_PER_DEG_LAT, RAD, WGS84_A, WGS84_F, metersPerDegLat, metersPerDegLon, wrapLonDelta } from './ellipsoid.js';

/**
 * Geodesic distance on the WGS84 ellipsoid, metres, by Lambert's formula for long lines
 * (great-circle angle between reduced latitudes plus a first-order flattening correction).
 * Accurate to about 10 m over 10,000 km and to millimetres over a few km: far inside the
 * contract's 0.5 %. Nearly antipodal points (within ~1 degree) lose accuracy; nothing in a
 * venue search measures such distances.
 */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const b1 = Math.atan((1 - WGS84_F) * Math.tan(lat1 * RAD));
  const b2 = Math.atan((1 - WGS84_F) * Math.tan(lat2 * RAD));
  const dLon = wrapLonDelta(lon2 - lon1) * RAD;
  const sinHalfDB = Math.sin((b2 - b1) / 2);
  const sinHalfDL = Math.sin(dLon / 2);
  const h = sinHalfDB * sinHalfDB + Math.cos(b1) * Math.cos(b2) * sinHalfDL * sinHalfDL;
  const sigma = 2 * Math.asin(Math.min(1, Math.sqrt(h)));
  if (sigma === 0) return 0;
  const p = (b1 + b2) / 2;
  const q = (b2 - b1) / 2;
  const sinP = Math.sin(p);
  const cosP = Math.cos(p);
  const sinQ = Math.sin(q);
  const cosQ = Math.cos(q);
  const sinS = Math.sin(sigma);
  const cosHalfS = Math.cos(sigma / 2);
  const sinHalfS = Math.sin(sigma / 2);
  const x = ((sigma - sinS) * sinP * sinP * cosQ * cosQ) / (cosHalfS * cosHalfS || Number.MIN_VALUE);
  const y = ((sigma + sinS) * cosP * cosP * sinQ * sinQ) / (sinHalfS * sinHalfS);
  return WGS84_A * (sigma - (WGS84_F / 2) * (x + y));
}

/**
 * Distances from one fixed origin, for hot loops: a local ellipsoidal approximation in the
 * manner of cheap-ruler, but evaluated at the MEAN latitude of each pair (the scale factors
 * are expanded to second order around the origin, so each call is a handful of multiplies).
 * Relative error under 1e-5 within 10 km (0.1 m) and under 5e-4 within 100 km of the origin
 * (measured against GeographicLib in test/geo, below 80 degrees latitude).
 *
 * Which formula a query uses is one rule, {@link localFrameHolds}: radius, corridor, find
 * and travel estimates all ask it.
 */
export const LOCAL_FRAME_MAX_METERS = 10_000;
/** Beyond this |latitude| (degrees) meridians converge too fast for the local approximation. */
export const POLAR_LIMIT_DEG = 80;

/**
 * The rule for the distance formula: distances out to `meters` from a point at latitude
 * `lat` (degrees) are taken in the point's local frame (LocalFrame, or a piece's frame) when
 * they stay within LOCAL_FRAME_MAX_METERS and below POLAR_LIMIT_DEG; otherwise by the exact
 * ellipsoidal formula ({@link distanceMeters}, or {@link nearDistanceMeters}).
 */
export function localFrameHolds(lat: number, meters: number): boolean {
  return meters <= LOCAL_FRAME_MAX_METERS && Math.abs(lat) + meters / MIN_METERS_PER_DEG_LAT < POLAR_LIMIT_DEG;
}

const ULP_BITS = new Float64Array(1);
const ULP_INT = new BigInt64Array(ULP_BITS.buffer);

/**
 * The squared radius (m^2) a walk compares squared distances with, so that the edge is
 * inclusive as reported: the largest double `x` with `Math.sqrt(x) <= radius`. Then
 * `d2 <= squaredRadius(radius)` exactly when the reported distance `Math.sqrt(d2)` is at most
 * `radius`; `radius * radius` can round below the square of a distance equal to `radius`,
 * leaving out a venue whose reported distance is the radius asked (audit 60b). 0, NaN and
 * an infinite or overflowing radius give `radius * radius`.
 */
export function squaredRadius(radius: number): number {
  let x = radius * radius;
  if (!(x > 0 && x < Infinity)) return x;
  // sqrt is monotone, so {x : sqrt(x) <= radius} is a prefix of the doubles: step to its last one (a step or two)
  while (x > 0 && Math.sqrt(x) > radius) x = stepDouble(x, -1n);
  for (let next = stepDouble(x, 1n); Math.sqrt(next) <= radius; next = stepDouble(x, 1n)) x = next;
  return x;
}

/** The positive double next to `x` (> 0) upwards (`step` 1n) or downwards (-1n). */
function stepDouble(x: number, step: bigint): number {
  ULP_BITS[0] = x;
  ULP_INT[0]! += step;
  return ULP_BITS[0]!;
}

/**
 * Squared distance (m^2) from a frame's origin (lat0, lon0) to (lat, lon), given the frame's
 * scale coefficients (LocalFrame's fields): a pure function of numbers, for loops that hold
 * the frame in locals.
 */
export function frameDistanceSq(lat: number, lon: number, lat0: number, lon0: number, kx0: number, kx1: number, kx2: number, ky0: number, ky1: number, ky2: number): number {
  const dLat = lat - lat0;
  let dLon = lon - lon0;
  if (dLon < -180 || dLon >= 180) dLon = wrapLonDelta(dLon);
  const h = dLat / 2; // offset of the pair's mean latitude from the origin, degrees
  const kx = kx0 + h * (kx1 + 0.5 * h * kx2);
  const ky = ky0 + h * (ky1 + 0.5 * h * ky2);
  const x = dLon * kx;
  const y = dLat * ky;
  return x * x + y * y;
}

export class LocalFrame {
  readonly lat: number;
  readonly lon: number;
  // metres per degree of longitude / latitude at the origin and their first two derivatives
  // with respect to latitude (per degree), for a Taylor expansion around the origin.
  readonly kx0: number;
  readonly kx1: number;
  readonly kx2: number;
  readonly ky0: number;
  readonly ky1: number;
  readonly ky2: number;

  constructor(lat: number, lon: number) {
    const c = FRAME_SCRATCH;
    storeFrame(c, 0, lat, lon);
    this.lat = lat;
    this.lon = lon;
    this.kx0 = c[FRAME_KX0]!;
    this.kx1 = c[FRAME_KX1]!;
    this.kx2 = c[FRAME_KX2]!;
    this.ky0 = c[FRAME_KY0]!;
    this.ky1 = c[FRAME_KY1]!;
    this.ky2 = c[FRAME_KY2]!;
  }

  /** Squared distance in square metres from the origin to (lat, lon). */
  distanceSq(lat: number, lon: number): number {
    return frameDistanceSq(lat, lon, this.lat, this.lon, this.kx0, this.kx1, this.kx2, this.ky0, this.ky1, this.ky2);
  }

  /** Distance in metres from the origin to (lat, lon). */
  distance(lat: number, lon: number): number {
    return Math.sqrt(this.distanceSq(lat, lon));
  }

  /**
   * Distance in metres from the origin to (lat, lon) by the distance rule: this frame where
   * localFrameHolds allows, the exact formula beyond.
   */
  ruledDistance(lat: number, lon: number): number {
    return ruledFromFrame(this.distance(lat, lon), this.lat, this.lon, lat, lon);
  }
}

/**
 * The distance rule for one pair, given `frameMeters`, the distance the local frame of
 * (lat0, lon0) gives to (lat, lon): that distance where localFrameHolds allows it, the
 * exact formula beyond. Every distance from an origin to a venue goes through it (or through
 * the frame alone, in a walk whose whole radius the frame holds), so a venue's distance does
 * not depend on the radius a query asked.
 */
export function ruledFromFrame(frameMeters: number, lat0: number, lon0: number, lat: number, lon: number): number {
  return localFrameHolds(lat0, frameMeters) ? frameMeters : nearDistanceMeters(lat0, lon0, lat, lon);
}

/**
 * Frames in a Float64Array, FRAME_STRIDE numbers each (layout below; only this module reads
 * it): for loops over several origins that must not read objects' properties
 * ({@link writeFrameDistanceSq}, {@link writeRuledDistance}).
 */
export const FRAME_STRIDE = 8;
const FRAME_LAT = 0;
const FRAME_LON = 1;
const FRAME_KX0 = 2;
const FRAME_KX1 = 3;
const FRAME_KX2 = 4;
const FRAME_KY0 = 5;
const FRAME_KY1 = 6;
const FRAME_KY2 = 7;
const FRAME_SCRATCH = new Float64Array(FRAME_STRIDE);

/** Writes the local frame of (lat, lon) as frame `k` of `out`. */
export function storeFrame(out: Float64Array, k: number, lat: number, lon: number): void {
  const o = k * FRAME_STRIDE;
  // Central differences with a 0.01 degree step: the functions are smooth, so the
  // truncation error (~1e-10 relative) is far below what the expansion needs.
  const h = 0.01;
  const lo = Math.max(-90, lat - h);
  const hi = Math.min(90, lat + h);
  const span = (hi - lo) / 2;
  const kx0 = metersPerDegLon(lat);
  const ky0 = metersPerDegLat(lat);
  const xlo = metersPerDegLon(lo);
  const xhi = metersPerDegLon(hi);
  const ylo = metersPerDegLat(lo);
  const yhi = metersPerDegLat(hi);
  out[o + FRAME_LAT] = lat;
  out[o + FRAME_LON] = lon;
  out[o + FRAME_KX0] = kx0;
  out[o + FRAME_KY0] = ky0;
  out[o + FRAME_KX1] = (xhi - xlo) / (hi - lo);
  out[o + FRAME_KY1] = (yhi - ylo) / (hi - lo);
  out[o + FRAME_KX2] = span > 0 ? (xhi - 2 * kx0 + xlo) / (span * span) : 0;
  out[o + FRAME_KY2] = span > 0 ? (yhi - 2 * ky0 + ylo) / (span * span) : 0;
}

/**
 * Writes to `out[k]` the squared distance (m^2) from frame `f` of `frames` ({@link storeFrame})
 * to point `i` of `lonLat`, a kdbush coordinate array (lon at 2 i, lat at 2 i + 1): the
 * LocalFrame's distanceSq, to the bit. Typed arrays in and out, so a call V8 does not inline
 * boxes no number (see box-distance.ts writeBoxLowerBound).
 */
export function writeFrameDistanceSq(frames: Float64Array, f: number, lonLat: Float64Array, i: number, out: Float64Array, k: number): void {
  const o = f * FRAME_STRIDE;
  out[k] = frameDistanceSq(lonLat[2 * i + 1]!, lonLat[2 * i]!, frames[o + FRAME_LAT]!, frames[o + FRAME_LON]!, frames[o + FRAME_KX0]!, frames[o + FRAME_KX1]!, frames[o + FRAME_KX2]!, frames[o + FRAME_KY0]!, frames[o + FRAME_KY1]!, frames[o + FRAME_KY2]!);
}

/**
 * Writes to `out[k]` the distance (metres) by the distance rule from frame `f` of `frames`
 * to point `i` of `lonLat` (as {@link writeFrameDistanceSq}): the LocalFrame's
 * ruledDistance (src/geo/frame-distance.ts frameDistance), to the bit.
 */
export function writeRuledDistance(frames: Float64Array, f: number, lonLat: Float64Array, i: number, out: Float64Array, k: number): void {
  const o = f * FRAME_STRIDE;
  const lat0 = frames[o + FRAME_LAT]!;
  const lon0 = frames[o + FRAME_LON]!;
  const lat = lonLat[2 * i + 1]!;
  const lon = lonLat[2 * i]!;
  const d = Math.sqrt(frameDistanceSq(lat, lon, lat0, lon0, frames[o + FRAME_KX0]!, frames[o + FRAME_KX1]!, frames[o + FRAME_KX2]!, frames[o + FRAME_KY0]!, frames[o + FRAME_KY1]!, frames[o + FRAME_KY2]!));
  out[k] = ruledFromFrame(d, lat0, lon0, lat, lon);
}

/**
 * Distance between two nearby points by the mean-latitude local approximation: cheaper than
 * {@link distanceMeters} and as exact within a few km. For pairs further apart than
 * `LOCAL_FRAME_MAX_METERS` it defers to the ellipsoidal formula.
 */
export function nearDistanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const mid = (lat1 + lat2) / 2;
  if (mid > POLAR_LIMIT_DEG || mid < -POLAR_LIMIT_DEG) return distanceMeters(lat1, lon1, lat2, lon2);
  const x = wrapLonDelta(lon2 - lon1) * metersPerDegLon(mid);
  const y = (lat2 - lat1) * metersPerDegLat(mid);
  const d = Math.sqrt(x * x + y * y);
  return localFrameHolds(mid, d) ? d : distanceMeters(lat1, lon1, lat2, lon2);
}
