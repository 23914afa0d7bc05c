import geographiclib from 'geographiclib-geodesic';
import { VenueSearchError } from '../errors.js';
import { BoxList } from './bbox.js';
import { LOCAL_FRAME_MAX_METERS, distanceMeters, nearDistanceMeters, POLAR_LIMIT_DEG } from './distance.js';
import { DEG, RAD, metersPerDegLat, metersPerDegLon, normalizeLon, wrapLonDelta } from './ellipsoid.js';
import { SHORT_GEODESIC_MAX_METERS, shortGeodesic } from './short-geodesic.js';

/**
 * A route prepared for corridor queries. The route between consecutive vertices follows the
 * WGS84 geodesic; long legs are split into pieces of at most `MAX_PIECE_METERS` so that each
 * piece is nearly straight in a local ellipsoidal frame. A point's distance from the route
 * is its distance to the nearest piece: the foot of the perpendicular is found in the
 * piece's local frame and the distance to that foot is then measured by the local
 * ellipsoidal formula, which keeps the result exact (sub-metre) at the corridor's edge.
 *
 * Layout: pieces live in one Float64Array, `PIECE_STRIDE` numbers each:
 *   lat0, lon0      start of the piece (degrees)
 *   dLat, dLon      piece vector in degrees (dLon unwrapped across the antimeridian)
 *   kx, ky          metres per degree of lon / lat at the piece's mid-latitude
 *   len             piece length, metres (geodesic)
 *   along           distance along the route to the piece's start, metres
 *   bLat, bLon      the great circle's offset from the straight lat/lon line at the piece's
 *                   middle (degrees): the route point at fraction t is
 *                   start + t * (dLat, dLon) + 4 t (1 - t) * (bLat, bLon), a quadratic fit
 *                   of the great circle that is exact to centimetres on a 20 km piece.
 *   midLat          the latitude at which kx, ky were taken (degrees)
 *   dkx, dky        their derivatives per degree of latitude, so the scale at the mean
 *                   latitude of a point and its foot is one multiply-add away (no trig per
 *                   candidate; same second-order accuracy as LocalFrame)
 */
export const MAX_PIECE_METERS = SHORT_GEODESIC_MAX_METERS;
// CommonJS package: Node's ESM loader exposes it as a default export only.
const WGS84_GEODESIC = geographiclib.Geodesic.WGS84;
const PIECE_STRIDE = 13;
/**
 * Layout of {@link PreparedRoute.corridorScreen}, per piece: lat0, lon0 (degrees), kx, ky
 * (metres per degree), vx, vy (the chord in metres), 1 / |v|^2 (0 for an empty piece), the
 * squared screen distance (m^2; +Infinity for a polar piece), 1 for a polar piece, 1
 * when the foot must be refined on the curve (see refineChordFoot); then, for
 * {@link footDistance}: dLat, dLon, bLat, bLon (degrees), the mid-latitude of the scales
 * and their derivatives dkx, dky (as in the piece layout), the along-route metres at the
 * piece's start and the piece's length (metres).
 */
export const SCREEN_STRIDE = 19;

/**
 * Exact distance (metres) from (lat, lon) to the point at fraction `t` of the piece whose
 * screen entry starts at `s` of `sc` ({@link PreparedRoute.corridorScreen}): see
 * {@link pieceFootDistance}.
 */
export function footDistance(sc: Float64Array, s: number, lat: number, lon: number, t: number): number {
  return pieceFootDistance(lat, lon, t, sc[s]!, sc[s + 1]!, sc[s + 10]!, sc[s + 11]!, sc[s + 12]!, sc[s + 13]!, sc[s + 14]!, sc[s + 2]!, sc[s + 3]!, sc[s + 15]!, sc[s + 16]!);
}

/**
 * Exact distance (metres) from (lat, lon) to the point at fraction `t` of a piece given by
 * its screen constants (layout at SCREEN_STRIDE; degrees, metres per degree): the foot on
 * the piece's quadratic curve, then the mean-latitude local formula with the scales
 * expanded around the piece's mid-latitude (the pair is within the corridor's width). A
 * small pure function of numbers, so the corridor walk's hot loop, which holds the
 * constants in locals, gets it inlined without re-reading them per point.
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
  return d <= LOCAL_FRAME_MAX_METERS ? d : nearDistanceMeters(lat, lon, footLat, footLon);
}

export class PreparedRoute {
  readonly pieces: Float64Array;
  readonly pieceCount: number;
  /** Total length, metres. */
  readonly length: number;
  /** Vertices as given (degrees). */
  readonly lats: Float64Array;
  readonly lons: Float64Array;

  constructor(lats: ArrayLike<number>, lons: ArrayLike<number>) {
    const n = lats.length;
    if (n === 0 || lons.length !== n) {
      throw new VenueSearchError('invalid_request', 'a route needs at least one vertex', { param: 'locations' });
    }
    this.lats = Float64Array.from(lats);
    this.lons = Float64Array.from(lons);
    const pieces: number[] = [];
    let along = 0;
    for (let i = 0; i + 1 < n; i++) {
      along = appendLeg(pieces, this.lats[i]!, this.lons[i]!, this.lats[i + 1]!, this.lons[i + 1]!, along);
    }
    if (n === 1) pushPiece(pieces, this.lats[0]!, this.lons[0]!, this.lats[0]!, this.lons[0]!, 0, 0, this.lats[0]!, this.lons[0]!);
    this.pieces = Float64Array.from(pieces);
    this.pieceCount = pieces.length / PIECE_STRIDE;
    this.length = along;
  }

  /**
   * Into how many stretches {@link pieceBoxes} should cut piece `p` for a corridor of
   * `padMeters`: one box per stretch of about 4 x the pad (at least 500 m, at most 16), so
   * the boxes hug a diagonal corridor instead of one box spanning the piece's whole extent
   * in both latitude and longitude (mostly outside the corridor).
   */
  pieceBoxParts(p: number, padMeters: number): number {
    const len = this.pieces[p * PIECE_STRIDE + 6]!;
    return Math.max(1, Math.min(16, Math.ceil(len / Math.max(500, 4 * padMeters))));
  }

  /**
   * Adds to `out` boxes covering everything within `padMeters` of stretch `part` of `parts`
   * (fractions [part / parts, (part + 1) / parts] of the piece; default: the whole piece).
   */
  pieceBoxes(p: number, padMeters: number, out: BoxList, part = 0, parts = 1): void {
    const o = p * PIECE_STRIDE;
    const pc = this.pieces;
    const len = pc[o + 6]!;
    // Stretch ends on the piece's quadratic curve (see the layout above).
    const ta = part / parts;
    const tb = (part + 1) / parts;
    const wa = 4 * ta * (1 - ta);
    const wb = 4 * tb * (1 - tb);
    const lat0 = pc[o]! + ta * pc[o + 2]! + wa * pc[o + 8]!;
    const lon0 = pc[o + 1]! + ta * pc[o + 3]! + wa * pc[o + 9]!;
    const lat1 = pc[o]! + tb * pc[o + 2]! + wb * pc[o + 8]!;
    const lon1 = pc[o + 1]! + tb * pc[o + 3]! + wb * pc[o + 9]!;
    // A geodesic piece bulges poleward of the straight lat/lon line between its ends by
    // about len^2 / (8 R) * tan(lat); pad by a generous bound of that (R >= 6.3e6 m). A
    // stretch bulges less than its piece, so the piece's bound covers it.
    const maxAbsLat = Math.min(89.9, Math.max(Math.abs(lat0), Math.abs(lat1), Math.abs(pc[o]!), Math.abs(pc[o]! + pc[o + 2]!)));
    const bulge = ((len * len) / (8 * 6.3e6)) * (1 + Math.tan(maxAbsLat * RAD)) + 1;
    out.addPadded(Math.min(lat0, lat1), Math.min(lon0, lon1), Math.max(lat0, lat1), Math.max(lon0, lon1), padMeters + bulge);
  }

  /**
   * The planar screen of every piece for a corridor of `limit` metres, `SCREEN_STRIDE`
   * numbers per piece (layout at SCREEN_STRIDE), in a buffer reused by the next call. A
   * point whose planar distance from a piece's chord, in the piece's frame, exceeds the
   * screen is more than `limit` metres from the piece; survivors are measured exactly by
   * {@link distanceFromChordFoot}. Polar pieces get an infinite screen (nothing rejected).
   */
  corridorScreen(limit: number): Float64Array {
    // The pieces never change: the screen depends on `limit` only.
    if (limit === this.screenLimit) return this.screen;
    this.screenLimit = limit;
    const need = this.pieceCount * SCREEN_STRIDE;
    if (this.screen.length < need) this.screen = new Float64Array(need);
    const sc = this.screen;
    const pc = this.pieces;
    for (let p = 0; p < this.pieceCount; p++) {
      const o = p * PIECE_STRIDE;
      const s = p * SCREEN_STRIDE;
      const lat0 = pc[o]!;
      const dLat = pc[o + 2]!;
      const kx = pc[o + 4]!;
      const ky = pc[o + 5]!;
      const vx = pc[o + 3]! * kx;
      const vy = dLat * ky;
      const vv = vx * vx + vy * vy;
      // The chord is up to |B| (the piece's bulge, metres) from the curve: widen the screen
      // by it; the planar frame itself is within ~1 % of the truth at corridor offsets.
      const bulge = Math.abs(pc[o + 9]! * kx) + Math.abs(pc[o + 8]! * ky);
      const screen = limit * 1.02 + 1 + bulge;
      // Taking the chord's foot for the curve's moves the foot by up to offset * angle
      // (angle = 4 |B| / len, between chord and curve) and lengthens the distance by at most
      // offset * angle^2 / 2: refine by Newton unless that is under 0.1 mm at the screen.
      const len = pc[o + 6]!;
      const angle = len > 0 ? (4 * bulge) / len : 0;
      const refine = screen * angle * angle * 0.5 > 1e-4;
      const polar = Math.abs(lat0) > POLAR_LIMIT_DEG || Math.abs(lat0 + dLat) > POLAR_LIMIT_DEG;
      sc[s] = lat0;
      sc[s + 1] = pc[o + 1]!;
      sc[s + 2] = kx;
      sc[s + 3] = ky;
      sc[s + 4] = vx;
      sc[s + 5] = vy;
      sc[s + 6] = vv > 0 ? 1 / vv : 0;
      sc[s + 7] = polar ? Number.POSITIVE_INFINITY : screen * screen;
      sc[s + 8] = polar ? 1 : 0;
      sc[s + 9] = refine ? 1 : 0;
      sc[s + 10] = dLat;
      sc[s + 11] = pc[o + 3]!;
      sc[s + 12] = pc[o + 8]!;
      sc[s + 13] = pc[o + 9]!;
      sc[s + 14] = pc[o + 10]!;
      sc[s + 15] = pc[o + 11]!;
      sc[s + 16] = pc[o + 12]!;
      sc[s + 17] = pc[o + 7]!;
      sc[s + 18] = len;
    }
    return sc;
  }

  /**
   * Distance (metres) from (lat, lon) to piece `p`, or +Infinity when the point is clearly
   * further than `limit` metres away. Writes the position along the route of the nearest
   * point into `this.lastAlong` when a finite distance is returned.
   */
  distanceToPiece(p: number, lat: number, lon: number, limit: number): number {
    const sc = this.corridorScreen(limit);
    const s = p * SCREEN_STRIDE;
    if (sc[s + 8] === 1) return this.polarDistanceToPiece(p, lat, lon);
    const px = wrapLonDelta(lon - sc[s + 1]!) * sc[s + 2]!;
    const py = (lat - sc[s]!) * sc[s + 3]!;
    const vx = sc[s + 4]!;
    const vy = sc[s + 5]!;
    let t = (px * vx + py * vy) * sc[s + 6]!;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const ex = px - t * vx;
    const ey = py - t * vy;
    if (ex * ex + ey * ey > sc[s + 7]!) return Number.POSITIVE_INFINITY;
    return this.distanceFromChordFoot(p, lat, lon, t);
  }

  /**
   * Exact distance (metres) from (lat, lon) to non-polar piece `p`, given `t`, the
   * fraction along the piece of the point's foot on the piece's chord (clamped to [0, 1]),
   * as the screen of the latest {@link corridorScreen} call computes it. Sets `this.lastAlong`.
   */
  distanceFromChordFoot(p: number, lat: number, lon: number, t: number): number {
    const s = p * SCREEN_STRIDE;
    const sc = this.screen;
    const foot = sc[s + 9] === 1 ? this.refineChordFoot(p, lat, lon, t) : t;
    this.lastAlong = sc[s + 17]! + foot * sc[s + 18]!;
    return footDistance(sc, s, lat, lon, foot);
  }

  /**
   * The chord's foot `t` moved to the curve's: where a piece bulges (metres on a 20 km
   * piece), Newton on (C(t) - P) . C'(t) = 0 with C(t) = t V + 4 t (1 - t) B, in the
   * piece's planar frame. Needed only where the screen's refine flag is set.
   */
  refineChordFoot(p: number, lat: number, lon: number, t: number): number {
    const o = p * PIECE_STRIDE;
    const pc = this.pieces;
    const kx = pc[o + 4]!;
    const ky = pc[o + 5]!;
    const bx = pc[o + 9]! * kx;
    const by = pc[o + 8]! * ky;
    const px = wrapLonDelta(lon - pc[o + 1]!) * kx;
    const py = (lat - pc[o]!) * ky;
    const vx = pc[o + 3]! * kx;
    const vy = pc[o + 2]! * ky;
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

  /** The route point `along` metres from the start (clamped to the route's ends). */
  pointAt(along: number): { lat: number; lon: number } {
    const pc = this.pieces;
    if (!(this.length > 0)) return { lat: this.lats[0]!, lon: this.lons[0]! };
    for (let p = 0; p < this.pieceCount; p++) {
      const o = p * PIECE_STRIDE;
      const len = pc[o + 6]!;
      if (along <= pc[o + 7]! + len || p === this.pieceCount - 1) {
        const t = len > 0 ? Math.min(1, Math.max(0, (along - pc[o + 7]!) / len)) : 0;
        const bend = 4 * t * (1 - t);
        return {
          lat: pc[o]! + t * pc[o + 2]! + bend * pc[o + 8]!,
          lon: normalizeLon(pc[o + 1]! + t * pc[o + 3]! + bend * pc[o + 9]!),
        };
      }
    }
    return { lat: this.lats[0]!, lon: this.lons[0]! };
  }

  /** Set by {@link distanceToPiece}: along-route metres of the nearest point found. */
  lastAlong = 0;
  private screen = new Float64Array(0);
  private screenLimit = Number.NaN;

  /**
   * Distance (metres) to piece `p` near the poles, where the planar screen does not hold:
   * the foot on the great circle from 3D unit vectors. Sets `this.lastAlong`.
   */
  polarDistanceToPiece(p: number, lat: number, lon: number): number {
    const o = p * PIECE_STRIDE;
    const pc = this.pieces;
    const lat0 = pc[o]!;
    const lon0 = pc[o + 1]!;
    const lat1 = lat0 + pc[o + 2]!;
    const lon1 = lon0 + pc[o + 3]!;
    const len = pc[o + 6]!;
    const a = unit(lat0, lon0);
    const b = unit(lat1, lon1);
    const q = unit(lat, lon);
    const n = cross(a, b);
    const nn = Math.hypot(n[0], n[1], n[2]);
    let t = 0;
    if (nn > 1e-15) {
      n[0] /= nn;
      n[1] /= nn;
      n[2] /= nn;
      const qn = q[0] * n[0] + q[1] * n[1] + q[2] * n[2];
      const f: [number, number, number] = [q[0] - qn * n[0], q[1] - qn * n[1], q[2] - qn * n[2]];
      const ab = Math.atan2(nn, dot(a, b));
      const af = Math.atan2(dot(cross(a, f), n), dot(a, f));
      if (af >= 0 && af <= ab && ab > 0) t = af / ab;
      else t = dot(q, a) >= dot(q, b) ? 0 : 1; // foot off the arc: the nearer end
    }
    const foot = slerp(a, b, t);
    const footLat = Math.atan2(foot[2], Math.hypot(foot[0], foot[1])) * DEG;
    const footLon = Math.atan2(foot[1], foot[0]) * DEG;
    this.lastAlong = pc[o + 7]! + t * len;
    return distanceMeters(lat, lon, footLat, footLon);
  }
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

const SHORT = { length: 0, midLat: 0, midLon: 0, chord: 0 };

/**
 * Splits one leg into pieces of at most MAX_PIECE_METERS along its WGS84 geodesic; returns
 * the new along-route total. A leg short enough to be one piece is solved in closed form
 * (shortGeodesic: a city route's legs); longer legs exactly by GeographicLib.
 */
function appendLeg(out: number[], latA: number, lonA: number, latB: number, lonB: number, along: number): number {
  const short = shortGeodesic(latA, lonA, latB, lonB, SHORT);
  // The arc exceeds its chord by under 1 m at 20 km: a chord 1 m short of a piece's length
  // keeps the leg in one piece.
  if (short.chord <= MAX_PIECE_METERS - 1) {
    pushPiece(out, latA, lonA, latB, lonB, short.length, along, short.midLat, short.midLon);
    return along + short.length;
  }
  const line = WGS84_GEODESIC.InverseLine(latA, lonA, latB, lonB);
  const legLength = line.s13 ?? distanceMeters(latA, lonA, latB, lonB);
  const count = Math.max(1, Math.ceil(legLength / MAX_PIECE_METERS));
  const step = legLength / count;
  let prevLat = latA;
  let prevLon = lonA;
  for (let k = 1; k <= count; k++) {
    let lat = latB;
    let lon = lonB;
    if (k < count) {
      const p = line.Position(k * step);
      lat = p.lat2!;
      lon = p.lon2!;
    }
    const m = line.Position((k - 0.5) * step);
    pushPiece(out, prevLat, prevLon, lat, lon, step, along, m.lat2!, m.lon2!);
    along += step;
    prevLat = lat;
    prevLon = lon;
  }
  return along;
}

function pushPiece(out: number[], lat0: number, lon0: number, lat1: number, lon1: number, len: number, along: number, midLat: number, midLon: number): void {
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
