import geographiclib from 'geographiclib-geodesic';
import { VenueSearchError } from '../errors.js';
import { BoxList } from './bbox.js';
import { distanceMeters } from './distance.js';
import { RAD, normalizeLon } from './ellipsoid.js';
import {
  PIECE_ALONG,
  PIECE_BLAT,
  PIECE_BLON,
  PIECE_DLAT,
  PIECE_DLON,
  PIECE_LAT0,
  PIECE_LENGTH,
  PIECE_LON0,
  PIECE_STRIDE,
  PieceScreen,
  chordFoot,
  isPolarPiece,
  pieceFootDistance,
  polarFoot,
  polarFootDistance,
  pushPiece,
  curveFoot,
  refineFoot,
} from './route-piece.js';
import { SHORT_GEODESIC_MAX_METERS, shortGeodesic } from './short-geodesic.js';

/**
 * A route prepared for corridor queries. The route between consecutive vertices follows the
 * WGS84 geodesic; long legs are split into pieces of at most `MAX_PIECE_METERS` so that each
 * piece is nearly straight in a local ellipsoidal frame. A point's distance from the route
 * is its distance to the nearest piece: the foot of the perpendicular is found in the
 * piece's local frame and the distance to that foot is then measured by the local
 * ellipsoidal formula, which keeps the result exact (sub-metre) at the corridor's edge.
 * The pieces' layout and the per-point geometry are in route-piece.ts.
 */
export const MAX_PIECE_METERS = SHORT_GEODESIC_MAX_METERS;
// CommonJS package: Node's ESM loader exposes it as a default export only.
const WGS84_GEODESIC = geographiclib.Geodesic.WGS84;

/** A point's nearest place on a route piece: distance (metres) and along-route position (metres). */
export interface PieceNearest {
  distance: number;
  along: number;
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
    const len = this.pieces[p * PIECE_STRIDE + PIECE_LENGTH]!;
    return Math.max(1, Math.min(16, Math.ceil(len / Math.max(500, 4 * padMeters))));
  }

  /**
   * Adds to `out` boxes covering everything within `padMeters` of stretch `part` of `parts`
   * (fractions [part / parts, (part + 1) / parts] of the piece; default: the whole piece).
   */
  pieceBoxes(p: number, padMeters: number, out: BoxList, part = 0, parts = 1): void {
    const o = p * PIECE_STRIDE;
    const pc = this.pieces;
    const len = pc[o + PIECE_LENGTH]!;
    // Stretch ends on the piece's quadratic curve (see the layout above).
    const ta = part / parts;
    const tb = (part + 1) / parts;
    const wa = 4 * ta * (1 - ta);
    const wb = 4 * tb * (1 - tb);
    const lat0 = pc[o + PIECE_LAT0]! + ta * pc[o + PIECE_DLAT]! + wa * pc[o + PIECE_BLAT]!;
    const lon0 = pc[o + PIECE_LON0]! + ta * pc[o + PIECE_DLON]! + wa * pc[o + PIECE_BLON]!;
    const lat1 = pc[o + PIECE_LAT0]! + tb * pc[o + PIECE_DLAT]! + wb * pc[o + PIECE_BLAT]!;
    const lon1 = pc[o + PIECE_LON0]! + tb * pc[o + PIECE_DLON]! + wb * pc[o + PIECE_BLON]!;
    // A geodesic piece bulges poleward of the straight lat/lon line between its ends by
    // about len^2 / (8 R) * tan(lat); pad by a generous bound of that (R >= 6.3e6 m). A
    // stretch bulges less than its piece, so the piece's bound covers it.
    const maxAbsLat = Math.min(89.9, Math.max(Math.abs(lat0), Math.abs(lat1), Math.abs(pc[o + PIECE_LAT0]!), Math.abs(pc[o + PIECE_LAT0]! + pc[o + PIECE_DLAT]!)));
    const bulge = ((len * len) / (8 * 6.3e6)) * (1 + Math.tan(maxAbsLat * RAD)) + 1;
    out.addPadded(Math.min(lat0, lat1), Math.min(lon0, lon1), Math.max(lat0, lat1), Math.max(lon0, lon1), padMeters + bulge);
  }

  /**
   * The nearest point of piece `p` to (lat, lon) when it is within `limit` metres (or
   * clearly further: then distance +Infinity and along NaN): its distance (metres) and its
   * position along the route (metres). Allocates; the corridor walk uses the pure functions
   * of route-piece.ts instead.
   */
  nearestOnPiece(p: number, lat: number, lon: number, limit: number): PieceNearest {
    const ps = new PieceScreen().fill(this.pieces, p, limit);
    let t: number;
    let distance: number;
    if (ps.polar === 1) {
      t = polarFoot(lat, lon, ps.lat0, ps.lon0, ps.lat1, ps.lon1);
      distance = polarFootDistance(lat, lon, t, ps.lat0, ps.lon0, ps.lat1, ps.lon1);
    } else {
      t = chordFoot(lat, lon, ps.lat0, ps.lon0, ps.kx, ps.ky, ps.vx, ps.vy, ps.invVV, ps.screenSq);
      if (t < 0) return { distance: Number.POSITIVE_INFINITY, along: Number.NaN };
      t = curveFoot(t, ps.alongBulge);
      if (ps.refine === 1) t = refineFoot(lat, lon, t, ps.lat0, ps.lon0, ps.kx, ps.ky, ps.vx, ps.vy, ps.bx, ps.by);
      distance = pieceFootDistance(lat, lon, t, ps.lat0, ps.lon0, ps.dLat, ps.dLon, ps.bLat, ps.bLon, ps.midLat, ps.kx, ps.ky, ps.dkx, ps.dky);
    }
    return { distance, along: ps.along0 + t * ps.length };
  }

  /** Fills `into` with piece `p`'s constants for a corridor of `limit` metres. */
  screenPiece(p: number, limit: number, into: PieceScreen): PieceScreen {
    return into.fill(this.pieces, p, limit);
  }

  /** The route point `along` metres from the start (clamped to the route's ends). */
  pointAt(along: number): { lat: number; lon: number } {
    const pc = this.pieces;
    if (!(this.length > 0)) return { lat: this.lats[0]!, lon: this.lons[0]! };
    for (let p = 0; p < this.pieceCount; p++) {
      const o = p * PIECE_STRIDE;
      const len = pc[o + PIECE_LENGTH]!;
      if (along <= pc[o + PIECE_ALONG]! + len || p === this.pieceCount - 1) {
        const t = len > 0 ? Math.min(1, Math.max(0, (along - pc[o + PIECE_ALONG]!) / len)) : 0;
        const lat0 = pc[o + PIECE_LAT0]!;
        const lon0 = pc[o + PIECE_LON0]!;
        if (isPolarPiece(lat0, lat0 + pc[o + PIECE_DLAT]!)) {
          // the lat/lon curve cannot follow a geodesic whose longitude swings past a pole
          // (audit 71c F1: 465 m off at 89.95 degrees): placed on the geodesic itself
          const line = WGS84_GEODESIC.InverseLine(lat0, lon0, lat0 + pc[o + PIECE_DLAT]!, lon0 + pc[o + PIECE_DLON]!);
          const at = line.Position(t * (line.s13 ?? 0));
          return { lat: at.lat2!, lon: normalizeLon(at.lon2!) };
        }
        const bend = 4 * t * (1 - t);
        return {
          lat: lat0 + t * pc[o + PIECE_DLAT]! + bend * pc[o + PIECE_BLAT]!,
          lon: normalizeLon(lon0 + t * pc[o + PIECE_DLON]! + bend * pc[o + PIECE_BLON]!),
        };
      }
    }
    return { lat: this.lats[0]!, lon: this.lons[0]! };
  }

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

/**
 * One route kept alive for the life of the process, so that the hidden class of a route
 * (its fields, added in order by the constructor) is never collected: V8 holds such a class
 * only weakly, and once no route outlived a full collection, every optimised function that
 * reads routes (the corridor walk, the search) was thrown away and compiled again at the
 * next searches ("weak objects" in --trace-deopt), a cost paid in the first searches after
 * each major collection.
 */
export const ROUTE_SHAPE_ANCHOR = new PreparedRoute(Float64Array.of(51.5, 51.5001), Float64Array.of(-0.1, -0.1001));

