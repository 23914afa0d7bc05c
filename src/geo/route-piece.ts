import { POLAR_LIMIT_DEG, distanceMeters, localFrameHolds, nearDistanceMeters } from './distance.js';
import { DEG, RAD, metersPerDegLat, metersPerDegLon, wrapLonDelta } from './ellipsoid.js';

/**
 * The pieces of a prepared route (PreparedRoute, polyline.ts) and the per-point geometry of
 * one piece: where a point's foot lies on it, how far the point is from it, and how far
 * along the route that foot is. The only module that knows the piece layout; the corridor
 * walk (src/spatial) reads a piece through a {@link PieceScreen}'s named fields and measures
 * points with the small pure functions below, which take numbers only (no object is read
 * per point, so optimised code has no property access whose type feedback could be missing
 * or cleared by a garbage collection).
 *
 * A piece is at most 20 km of one geodesic leg. The route point at fraction t of a piece is
 *   start + t * (dLat, dLon) + 4 t (1 - t) * (bLat, bLon)   (degrees)
 * a quadratic fit of the geodesic, exact to centimetres on a 20 km piece.
 *
 * Layout of PreparedRoute.pieces, PIECE_STRIDE numbers per piece:
 */
/** Start of the piece, degrees. */
export const PIECE_LAT0 = 0;
export const PIECE_LON0 = 1;
/** The piece's vector, degrees (dLon unwrapped across the antimeridian). */
export const PIECE_DLAT = 2;
export const PIECE_DLON = 3;
/** Metres per degree of longitude / latitude at the piece's mid-latitude. */
export const PIECE_KX = 4;
export const PIECE_KY = 5;
/** Geodesic length of the piece, metres. */
export const PIECE_LENGTH = 6;
/** Distance along the route to the piece's start, metres. */
export const PIECE_ALONG = 7;
/** The geodesic's offset from the straight lat/lon line at the piece's middle, degrees. */
export const PIECE_BLAT = 8;
export const PIECE_BLON = 9;
/** The latitude at which kx, ky were taken, degrees. */
export const PIECE_MID_LAT = 10;
/** Derivatives of kx, ky per degree of latitude (metres per degree per degree). */
export const PIECE_DKX = 11;
export const PIECE_DKY = 12;
export const PIECE_STRIDE = 13;

/** Appends a piece from (lat0, lon0) to (lat1, lon1) of geodesic length `len` whose middle is (midLat, midLon). */
export function pushPiece(out: number[], lat0: number, lon0: number, lat1: number, lon1: number, len: number, along: number, midLat: number, midLon: number): void {
  const dLat = lat1 - lat0;
  const dLon = wrapLonDelta(lon1 - lon0);
  const mid = (lat0 + lat1) / 2;
  // Offset of the great circle's middle from the straight line's middle.
  const bLat = midLat - (lat0 + dLat / 2);
  const bLon = wrapLonDelta(midLon - (lon0 + dLon / 2));
  const step = 0.01; // degrees; central differences of smooth functions
  const dkx = (metersPerDegLon(Math.min(90, mid + step)) - metersPerDegLon(Math.max(-90, mid - step))) / (2 * step);
  const dky = (metersPerDegLat(Math.min(90, mid + step)) - metersPerDegLat(Math.max(-90, mid - step))) / (2 * step);
  out.push(lat0, lon0, dLat, dLon, metersPerDegLon(mid), metersPerDegLat(mid), len, along, bLat, bLon, mid, dkx, dky);
}

/**
 * One piece's constants for a corridor of a given limit, by name: the corridor walk copies
 * them into locals once per piece. Reused (one per walker): all fields are numbers and
 * always written as doubles, so the object keeps one shape.
 */
export class PieceScreen {
  /** Start, degrees. */
  lat0 = 0.5;
  lon0 = 0.5;
  /** End of the chord, degrees (lon unwrapped). */
  lat1 = 0.5;
  lon1 = 0.5;
  /** Metres per degree of lon / lat at the piece's middle, and their derivatives per degree of latitude. */
  kx = 0.5;
  ky = 0.5;
  dkx = 0.5;
  dky = 0.5;
  /** Mid-latitude of the scales, degrees. */
  midLat = 0.5;
  /** The piece's vector and bulge, degrees. */
  dLat = 0.5;
  dLon = 0.5;
  bLat = 0.5;
  bLon = 0.5;
  /** The chord (metres, in the piece's planar frame) and 1 / |chord|^2 (0 for an empty piece). */
  vx = 0.5;
  vy = 0.5;
  invVV = 0.5;
  /** The bulge in metres, in the planar frame (for refineFoot). */
  bx = 0.5;
  by = 0.5;
  /** The chord's largest distance from the curve, metres (|bx| + |by|): a bound for the planar distance's error. */
  bulge = 0.5;
  /**
   * Squared screen distance, m^2: a point whose planar distance from the chord exceeds the
   * screen is further than the limit from the piece. +Infinity for a polar piece.
   */
  screenSq = 0.5;
  /** 1 near a pole, where the planar frame does not hold (measure with polarFoot), else 0. */
  polar = 0.5;
  /**
   * The bulge's component along the chord, as a fraction of it: (B . V) / |V|^2. The chord's
   * foot of a point on the curve at fraction s lies at s + 4 s (1 - s) alongBulge
   * ({@link curveFoot} undoes it).
   */
  alongBulge = 0.5;
  /** 1 when the chord's foot must be moved to the curve's by Newton (refineFoot), else 0. */
  refine = 0.5;
  /** Along-route metres at the piece's start, and the piece's length (metres). */
  along0 = 0.5;
  length = 0.5;

  /** Fills this with piece `p` of `pieces` (layout above) for a corridor of `limit` metres. */
  fill(pieces: Float64Array, p: number, limit: number): this {
    const o = p * PIECE_STRIDE;
    const lat0 = pieces[o + PIECE_LAT0]!;
    const lon0 = pieces[o + PIECE_LON0]!;
    const dLat = pieces[o + PIECE_DLAT]!;
    const dLon = pieces[o + PIECE_DLON]!;
    const kx = pieces[o + PIECE_KX]!;
    const ky = pieces[o + PIECE_KY]!;
    const bLat = pieces[o + PIECE_BLAT]!;
    const bLon = pieces[o + PIECE_BLON]!;
    const len = pieces[o + PIECE_LENGTH]!;
    const vx = dLon * kx;
    const vy = dLat * ky;
    const vv = vx * vx + vy * vy;
    const bx = bLon * kx;
    const by = bLat * ky;
    // The chord is up to |B| (the piece's bulge, metres) from the curve: widen the screen by
    // it, and by the planar frame's own error (planarSurelyBeyond).
    const bulge = Math.abs(bx) + Math.abs(by);
    const screen = planarSurelyBeyond(limit, bulge);
    // Taking the chord's foot for the curve's moves the foot in two ways. Along the chord, by
    // up to the bulge's component along it (metres on a long piece, whatever the point's
    // offset: a point on the curve would be measured that far from it): curveFoot undoes
    // that, for every point. Across, by up to offset * angle (angle = 4 |B| / len, between
    // chord and curve), which lengthens the distance by at most offset * angle^2 / 2: refine
    // by Newton unless that is under 0.1 mm at the screen.
    const angle = len > 0 ? (4 * bulge) / len : 0;
    const polar = isPolarPiece(lat0, lat0 + dLat);
    this.lat0 = lat0;
    this.lon0 = lon0;
    this.lat1 = lat0 + dLat;
    this.lon1 = lon0 + dLon;
    this.kx = kx;
    this.ky = ky;
    this.dkx = pieces[o + PIECE_DKX]!;
    this.dky = pieces[o + PIECE_DKY]!;
    this.midLat = pieces[o + PIECE_MID_LAT]!;
    this.dLat = dLat;
    this.dLon = dLon;
    this.bLat = bLat;
    this.bLon = bLon;
    this.vx = vx;
    this.vy = vy;
    this.invVV = vv > 0 ? 1 / vv : 0;
    this.alongBulge = vv > 0 ? (bx * vx + by * vy) / vv : 0;
    this.bx = bx;
    this.by = by;
    this.bulge = bulge;
    this.screenSq = polar ? Number.POSITIVE_INFINITY : screen * screen;
    this.polar = polar ? 1 : 0;
    this.refine = screen * angle * angle * 0.5 > 1e-4 ? 1 : 0;
    this.along0 = pieces[o + PIECE_ALONG]!;
    this.length = len;
    return this;
  }
}

/**
 * Fraction t in [0, 1] along a non-polar piece of the foot of (lat, lon) on its chord, in
 * the piece's planar frame, or -1 when the point is outside the screen (further than the
 * limit the screen was made for). Arguments are a PieceScreen's fields.
 */
export function chordFoot(lat: number, lon: number, lat0: number, lon0: number, kx: number, ky: number, vx: number, vy: number, invVV: number, screenSq: number): number {
  let dx = lon - lon0;
  if (!(dx >= -180 && dx < 180)) dx = wrapLonDelta(dx);
  const px = dx * kx;
  const py = (lat - lat0) * ky;
  let t = (px * vx + py * vy) * invVV;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = px - t * vx;
  const ey = py - t * vy;
  return ex * ex + ey * ey > screenSq ? -1 : t;
}

/**
 * Squared planar distance (m^2) from (lat, lon) to the point at fraction `t` of a non-polar
 * piece's chord (t from {@link chordFoot}), in the piece's planar frame. Arguments are a
 * PieceScreen's fields.
 */
export function chordOffsetSq(lat: number, lon: number, t: number, lat0: number, lon0: number, kx: number, ky: number, vx: number, vy: number): number {
  let dx = lon - lon0;
  if (!(dx >= -180 && dx < 180)) dx = wrapLonDelta(dx);
  const ex = dx * kx - t * vx;
  const ey = (lat - lat0) * ky - t * vy;
  return ex * ex + ey * ey;
}

/**
 * What a point's planar distance e from a non-polar piece's chord ({@link chordOffsetSq})
 * says of its exact distance d from the piece (metres), with `bulge` the PieceScreen's:
 *   (e - SURE_ABSOLUTE_M - bulge) / SURE_RELATIVE <= d <= SURE_RELATIVE * e + SURE_ABSOLUTE_M + bulge.
 * The chord is within `bulge` of the curve, and the planar frame within 0.2 % of the truth
 * at corridor offsets (up to 12 km, against GeographicLib: test/geo/route-piece-bounds.test.ts);
 * the bounds allow 2 % and a metre. The screen (PieceScreen.fill) and the nearest corridor walk
 * (src/spatial/corridor.ts) both rest on them.
 */
export const SURE_RELATIVE = 1.02;
export const SURE_ABSOLUTE_M = 1;

/** The planar distance (m) at or under which a point is surely within `meters` of the piece (negative: none is). */
export function planarSurelyWithin(meters: number, bulge: number): number {
  return (meters - SURE_ABSOLUTE_M - bulge) / SURE_RELATIVE;
}

/** The planar distance (m) over which a point is surely further than `meters` from the piece. */
export function planarSurelyBeyond(meters: number, bulge: number): number {
  return meters * SURE_RELATIVE + SURE_ABSOLUTE_M + bulge;
}

/**
 * The fraction s on a non-polar piece's curve whose chord foot is `t` ({@link chordFoot}),
 * for a point on or near the curve: the inverse of t = s + 4 s (1 - s) alongBulge, by two
 * fixed-point steps, each shrinking the error at least 4 alongBulge-fold: what is left is at
 * most 16 alongBulge^3 of the piece (alongBulge is about 1e-4 on a 20 km piece at 51 degrees,
 * 1.5e-3 at 75: a micrometre, a millimetre). The ends stay ends. What is left (the foot's
 * move across the chord) is refineFoot's.
 */
export function curveFoot(t: number, alongBulge: number): number {
  const s = t - 4 * t * (1 - t) * alongBulge;
  return t - 4 * s * (1 - s) * alongBulge;
}

/**
 * The chord's foot `t` moved to the curve's: where a piece bulges (metres on a 20 km
 * piece), Newton on (C(t) - P) . C'(t) = 0 with C(t) = t V + 4 t (1 - t) B in the piece's
 * planar frame (V = (vx, vy), B = (bx, by), metres). Needed only where `refine` is set.
 */
export function refineFoot(lat: number, lon: number, t: number, lat0: number, lon0: number, kx: number, ky: number, vx: number, vy: number, bx: number, by: number): number {
  const px = wrapLonDelta(lon - lon0) * kx;
  const py = (lat - lat0) * ky;
  for (let k = 0; k < 2; k++) {
    const w = 4 * t * (1 - t);
    const cx = t * vx + w * bx - px;
    const cy = t * vy + w * by - py;
    const s = 4 * (1 - 2 * t);
    const dx = vx + s * bx;
    const dy = vy + s * by;
    const g1 = dx * dx + dy * dy - 8 * (cx * bx + cy * by);
    if (!(g1 > 0)) break;
    t -= (cx * dx + cy * dy) / g1;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
  }
  return t;
}

/**
 * Exact distance (metres) from (lat, lon) to the point at fraction `t` of a non-polar
 * piece: the foot on the piece's quadratic curve, then the mean-latitude local formula with
 * the scales expanded around the piece's mid-latitude (the pair is within the corridor's
 * width); beyond the local frame's reach (localFrameHolds), the ellipsoidal one.
 */
export function pieceFootDistance(
  lat: number,
  lon: number,
  t: number,
  lat0: number,
  lon0: number,
  dLat: number,
  dLon: number,
  bLat: number,
  bLon: number,
  midLat: number,
  kx: number,
  ky: number,
  dkx: number,
  dky: number,
): number {
  const bend = 4 * t * (1 - t);
  const footLat = lat0 + t * dLat + bend * bLat;
  const footLon = lon0 + t * dLon + bend * bLon;
  const h = (lat + footLat) * 0.5 - midLat;
  let dx = lon - footLon;
  if (!(dx >= -180 && dx < 180)) dx = wrapLonDelta(dx);
  const x = dx * (kx + h * dkx);
  const y = (lat - footLat) * (ky + h * dky);
  const d = Math.sqrt(x * x + y * y);
  return localFrameHolds(midLat, d) ? d : nearDistanceMeters(lat, lon, footLat, footLon);
}

/**
 * Whether a piece from latitude `lat0` to `lat1` (degrees) is polar: an end beyond
 * POLAR_LIMIT_DEG, where the planar frame and the piece's lat/lon curve do not hold (a piece
 * passing a pole swings its longitude by up to 180 degrees). Measured and placed exactly.
 */
export function isPolarPiece(lat0: number, lat1: number): boolean {
  return Math.abs(lat0) > POLAR_LIMIT_DEG || Math.abs(lat1) > POLAR_LIMIT_DEG;
}

/**
 * Fraction t along a polar piece (from (lat0, lon0) to (lat1, lon1), degrees) of the foot
 * of (lat, lon) on the great circle, from 3D unit vectors; an end when the foot is off the
 * arc. Near the poles, where the planar screen does not hold.
 */
export function polarFoot(lat: number, lon: number, lat0: number, lon0: number, lat1: number, lon1: number): number {
  const a = unit(lat0, lon0);
  const b = unit(lat1, lon1);
  const q = unit(lat, lon);
  const n = cross(a, b);
  const nn = Math.hypot(n[0], n[1], n[2]);
  if (!(nn > 1e-15)) return 0;
  n[0] /= nn;
  n[1] /= nn;
  n[2] /= nn;
  const qn = q[0] * n[0] + q[1] * n[1] + q[2] * n[2];
  const f: Vec3 = [q[0] - qn * n[0], q[1] - qn * n[1], q[2] - qn * n[2]];
  const ab = Math.atan2(nn, dot(a, b));
  const af = Math.atan2(dot(cross(a, f), n), dot(a, f));
  if (af >= 0 && af <= ab && ab > 0) return af / ab;
  return dot(q, a) >= dot(q, b) ? 0 : 1; // foot off the arc: the nearer end
}

/** Distance (metres) from (lat, lon) to the point at fraction `t` of the great-circle arc of a polar piece. */
export function polarFootDistance(lat: number, lon: number, t: number, lat0: number, lon0: number, lat1: number, lon1: number): number {
  const foot = slerp(unit(lat0, lon0), unit(lat1, lon1), t);
  const footLat = Math.atan2(foot[2], Math.hypot(foot[0], foot[1])) * DEG;
  const footLon = Math.atan2(foot[1], foot[0]) * DEG;
  return distanceMeters(lat, lon, footLat, footLon);
}

type Vec3 = [number, number, number];

function unit(lat: number, lon: number): Vec3 {
  const phi = lat * RAD;
  const lambda = lon * RAD;
  const c = Math.cos(phi);
  return [c * Math.cos(lambda), c * Math.sin(lambda), Math.sin(phi)];
}
function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
/** Point at fraction t of the great-circle arc from a to b (unit vectors). */
function slerp(a: Vec3, b: Vec3, t: number): Vec3 {
  const omega = Math.acos(Math.min(1, Math.max(-1, dot(a, b))));
  if (omega < 1e-12) return [a[0], a[1], a[2]];
  const s = Math.sin(omega);
  const wa = Math.sin((1 - t) * omega) / s;
  const wb = Math.sin(t * omega) / s;
  return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]];
}
