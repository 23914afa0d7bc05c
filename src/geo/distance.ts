import { MIN_METERS_PER_DEG_LAT, RAD, WGS84_A, WGS84_B, WGS84_F, metersPerDegLat, metersPerDegLon, wrapLonDelta } from './ellipsoid.js';

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
 * Geodesic distance on the WGS84 ellipsoid, metres, by Vincenty's inverse formula (1975):
 * within 0.1 mm of GeographicLib for the distances a search measures (test/geo). Iterates
 * on the longitude on the auxiliary sphere, 2 to 4 rounds for lines of up to hundreds of km;
 * nearly antipodal points, where it may not converge, fall back to {@link distanceMeters}.
 * The distance rule's formula beyond the local frame ({@link ruledFromFrame}). Pure
 * arithmetic on numbers: no allocation.
 */
export function geodesicMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const L = wrapLonDelta(lon2 - lon1) * RAD;
  const tanU1 = (1 - WGS84_F) * Math.tan(lat1 * RAD);
  const tanU2 = (1 - WGS84_F) * Math.tan(lat2 * RAD);
  const cosU1 = 1 / Math.sqrt(1 + tanU1 * tanU1);
  const sinU1 = tanU1 * cosU1;
  const cosU2 = 1 / Math.sqrt(1 + tanU2 * tanU2);
  const sinU2 = tanU2 * cosU2;
  let lambda = L; // longitude difference on the auxiliary sphere, radians
  for (let k = 0; k < 50; k++) {
    const sinL = Math.sin(lambda);
    const cosL = Math.cos(lambda);
    const a = cosU2 * sinL;
    const b = cosU1 * sinU2 - sinU1 * cosU2 * cosL;
    const sinSigma = Math.sqrt(a * a + b * b);
    if (sinSigma === 0) return 0; // the same point
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinL) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha !== 0 ? cosSigma - (2 * sinU1 * sinU2) / cos2Alpha : 0; // on the equator: 0
    const C = (WGS84_F / 16) * cos2Alpha * (4 + WGS84_F * (4 - 3 * cos2Alpha));
    const prev = lambda;
    lambda = L + (1 - C) * WGS84_F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    // 1e-12 rad: with 1e-10 (one round fewer, ~12 % faster) east-west lines near the equator,
    // where the iteration converges slowly, were up to 0.6 mm off
    if (Math.abs(lambda - prev) <= 1e-12) {
      const u2 = cos2Alpha * VINCENTY_EP2;
      const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
      const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
      const dSigma =
        B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
      return WGS84_B * A * (sigma - dSigma);
    }
  }
  return distanceMeters(lat1, lon1, lat2, lon2); // no convergence: nearly antipodal
}
/** (a^2 - b^2) / b^2, Vincenty's u^2 per cos^2 alpha. */
const VINCENTY_EP2 = (WGS84_A * WGS84_A - WGS84_B * WGS84_B) / (WGS84_B * WGS84_B);

/**
 * Distances from one fixed origin, for hot loops: a local ellipsoidal approximation in the
 * manner of cheap-ruler, but evaluated at the MEAN latitude of each pair (the scale factors
 * are expanded to second order around the origin, so each call is a handful of multiplies).
 * Against GeographicLib at 10 km it is within 0.3 mm at the equator, 0.6 mm at 30 degrees,
 * 2 mm at 51.5, 3.7 mm at 60, 9 mm at 70 and 37 mm just below 80 (too long, never more than
 * 0.03 mm too short; the relative error grows as the square of the distance; test/geo);
 * relative error under 5e-4 within 100 km of the origin.
 *
 * Which formula a query uses is one rule, {@link ruledFromFrame} (reach: {@link frameReach},
 * {@link localFrameHolds}): radius, corridor, find and travel estimates all ask it.
 */
export const LOCAL_FRAME_MAX_METERS = 10_000;
/** Beyond this |latitude| (degrees) meridians converge too fast for the local approximation. */
export const POLAR_LIMIT_DEG = 80;
/**
 * Width (metres) of the band beyond the frame's reach over which the distance rule passes
 * from the frame's distance to the geodesic one ({@link ruledFromFrame}). The two differ by
 * the frame's error, at most ~4 cm (below 80 degrees; 2 mm at 51.5), so across the band the
 * ruled distance grows at least 1 - 5e-5 times as fast as the geodesic one: it never steps
 * back, and it is never further from the geodesic than the frame is at its reach.
 */
export const FRAME_BLEND_METERS = 1_000;

/**
 * The frame's reach from a point at latitude `lat` (degrees), metres: LOCAL_FRAME_MAX_METERS,
 * less near POLAR_LIMIT_DEG (a reach that cannot take a venue past that latitude), negative
 * at or beyond it (NaN for NaN). One function of the origin's latitude only.
 */
export function frameReach(lat: number): number {
  return Math.min(LOCAL_FRAME_MAX_METERS, (POLAR_LIMIT_DEG - Math.abs(lat)) * MIN_METERS_PER_DEG_LAT);
}

/**
 * Whether the frame of a point at latitude `lat` (degrees) reaches `meters`: `meters` is at
 * most {@link frameReach}(lat). For a venue (`meters` its frame distance) it is the first
 * branch of the distance rule ({@link ruledFromFrame}); for a walk (`meters` its radius) it
 * says the frame's squared distance alone decides the walk, exactly as the rule would: a
 * venue the frame puts within the reach is reported at its frame distance, and one beyond
 * the reach is reported beyond the reach, so beyond any radius the frame reaches.
 */
export function localFrameHolds(lat: number, meters: number): boolean {
  return meters <= frameReach(lat);
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
   * Distance in metres from the origin to (lat, lon) by the distance rule,
   * {@link ruledFromFrame}: this frame within its reach, the geodesic formula beyond.
   */
  ruledDistance(lat: number, lon: number): number {
    return ruledFromFrame(this.distance(lat, lon), this.lat, this.lon, lat, lon);
  }
}

/**
 * THE distance rule (metres) from an origin (lat0, lon0) to a venue (lat, lon), degrees, given
 * `frameMeters`, the distance the origin's local frame gives to the venue ({@link LocalFrame},
 * {@link frameDistanceSq}). With r = {@link frameReach}(lat0) and g = {@link geodesicMeters}:
 *
 *   frameMeters <= r                          frameMeters
 *   r < frameMeters < r + FRAME_BLEND_METERS  frameMeters + w (g - frameMeters),
 *                                             w = (frameMeters - r) / FRAME_BLEND_METERS
 *   beyond, or r <= 0 (|lat0| >= 80 degrees)  g
 *
 * Invariants (every distance from an origin to a venue goes through this function, or
 * through the frame alone in a walk whose radius the frame reaches, which gives the same):
 * - a function of the origin and the venue only, so a venue's distance does not depend on
 *   the radius a query asked (audit 60b);
 * - continuous (no step where the formulas meet: the frame and the geodesic formula differ
 *   by millimetres at 10 km, and a plain switch made distances step back by up to 1.4 cm,
 *   audit 61b N4), so it grows with the geodesic distance along any bearing, and two venues
 *   are in geodesic order whenever their geodesic distances differ by more than twice the
 *   frame's error;
 * - a venue beyond the reach (frameMeters > r) is reported beyond it (> r): a walk whose
 *   radius the frame reaches may test the frame's squared distance alone.
 * Pure arithmetic on numbers: no allocation.
 */
export function ruledFromFrame(frameMeters: number, lat0: number, lon0: number, lat: number, lon: number): number {
  const reach = frameReach(lat0);
  if (frameMeters <= reach) return frameMeters;
  const g = geodesicMeters(lat0, lon0, lat, lon);
  const over = frameMeters - reach;
  if (!(over < FRAME_BLEND_METERS) || !(reach > 0)) return g;
  const d = frameMeters + (over / FRAME_BLEND_METERS) * (g - frameMeters);
  // the blend moves frameMeters by a few parts in a million of `over`, so d > reach; kept
  // true by construction should rounding ever say otherwise (frameMeters > reach)
  return d > reach ? d : frameMeters;
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
 * `LOCAL_FRAME_MAX_METERS` it defers to the ellipsoidal formula (Lambert's: a step of up to
 * 1.4 cm there). Not the distance rule of searches ({@link ruledFromFrame}): for place
 * matching, where centimetres do not matter.
 */
export function nearDistanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const mid = (lat1 + lat2) / 2;
  if (mid > POLAR_LIMIT_DEG || mid < -POLAR_LIMIT_DEG) return distanceMeters(lat1, lon1, lat2, lon2);
  const x = wrapLonDelta(lon2 - lon1) * metersPerDegLon(mid);
  const y = (lat2 - lat1) * metersPerDegLat(mid);
  const d = Math.sqrt(x * x + y * y);
  return localFrameHolds(mid, d) ? d : distanceMeters(lat1, lon1, lat2, lon2);
}
