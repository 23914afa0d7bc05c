import { MIN_MERIDIONAL_RADIUS, MIN_METERS_PER_DEG_LAT, RAD, metersPerDegLat, metersPerDegLon } from './ellipsoid.js';
import { POLAR_LIMIT_DEG } from './distance.js';

/**
 * Bounds (metres) of the distance from a point to any point of a lon/lat box, for walks of
 * a kd-tree that prune or accept whole subtrees.
 *
 * - {@link sphericalBoxLowerBound}: valid anywhere (geokdbush's boxDist): the great-circle
 *   distance on a sphere of the ellipsoid's smallest radius of curvature, shrunk by 0.5 %.
 * - {@link writeBoxLowerBound} / {@link writeBoxUpperBound}: the fast planar bounds of one origin
 *   prepared by {@link prepareBoxBounds} for a band of latitude around it. Within the band
 *   (and 60 km of longitude) a distance measured by src/geo/frame-distance.ts is the
 *   mean-latitude planar distance (x = dLon * kx(mean lat), y = dLat * ky(mean lat)) or a
 *   Taylor expansion of it within 1e-5: bounding kx and ky over the band bounds it, and a
 *   relative margin of 1e-4 covers the expansion. Outside the band the lower bound falls
 *   back to the latitude difference alone (a meridian arc is the shortest way between two
 *   parallels) or to the spherical bound, and the upper bound is Infinity (no claim).
 *
 * Units: degrees in, metres out. Boxes never straddle the antimeridian (kdbush regions).
 */
const BOUND_RADIUS = MIN_MERIDIONAL_RADIUS * 0.995;
const LOWER_MARGIN = 1 - 1e-4;
const UPPER_MARGIN = 1 + 1e-4;
/** Longitude extent (metres at the origin) within which the planar bounds hold. */
const PLANAR_MAX_X_METERS = 60_000;
/** Widest latitude band (degrees either side of the origin) the planar bounds cover. */
const MAX_BAND_DEG = 0.5;

/** Numbers per origin in a bounds array (layout below; only this module reads it). */
export const BOX_BOUNDS_STRIDE = 8;
/** The origin, degrees. */
const BOUND_LAT = 0;
const BOUND_LON = 1;
/** Degrees of latitude either side of the origin the planar bounds cover; -1: none (near a pole). */
const BOUND_BAND = 2;
/** Metres per degree of longitude at the band's far (KX_LO) and near (KX_HI) edge from the equator. */
const BOUND_KX_LO = 3;
const BOUND_KX_HI = 4;
/** Metres per degree of latitude at the band's near (KY_LO) and far (KY_HI) edge from the equator. */
const BOUND_KY_LO = 5;
const BOUND_KY_HI = 6;
/** Degrees of longitude within which the planar bounds hold (PLANAR_MAX_X_METERS). */
const BOUND_MAX_DLON = 7;

/**
 * Writes origin (lat, lon)'s bound constants at `out[o ..]`, for boxes reached within
 * `reachMeters` (the band is wide enough to hold every point that close; Infinity or a
 * reach beyond 50 km gives the widest band, 0.5 degrees).
 */
export function prepareBoxBounds(lat: number, lon: number, reachMeters: number, out: Float64Array, o: number): void {
  const band = Math.min(MAX_BAND_DEG, (Math.min(reachMeters, 1e9) + 100) / MIN_METERS_PER_DEG_LAT);
  const far = Math.min(90, Math.abs(lat) + band);
  const near = Math.max(0, Math.abs(lat) - band);
  // metres per degree of longitude fall, and of latitude rise, with |latitude|
  const kxLo = metersPerDegLon(far);
  out[o + BOUND_LAT] = lat;
  out[o + BOUND_LON] = lon;
  out[o + BOUND_BAND] = Math.abs(lat) + band < POLAR_LIMIT_DEG ? band : -1; // -1: no planar bounds here
  out[o + BOUND_KX_LO] = kxLo;
  out[o + BOUND_KX_HI] = metersPerDegLon(near);
  out[o + BOUND_KY_LO] = metersPerDegLat(near);
  out[o + BOUND_KY_HI] = metersPerDegLat(far);
  out[o + BOUND_MAX_DLON] = kxLo > 0 ? PLANAR_MAX_X_METERS / kxLo : 0;
}

/** A box's numbers in a Float64Array of boxes, from its offset: lon/lat degrees. */
export const BoxLayout = { MIN_X: 0, MIN_Y: 1, MAX_X: 2, MAX_Y: 3, STRIDE: 4 } as const;

/**
 * Writes to `out[k]` the lower bound (metres) of the distance from origin `o` of `b` to any
 * point of the box at `boxes[j ..]` ({@link BoxLayout}). For tree walks: its numbers stay in
 * typed arrays, so a call V8 does not inline allocates nothing (a double passed or returned
 * across a call that is not inlined is boxed: at 1M venues, a 1 km POINT search allocated
 * ~10 KB of such numbers, a few per node, before the radius walk used this form).
 */
export function writeBoxLowerBound(b: Float64Array, o: number, boxes: Float64Array, j: number, out: Float64Array, k: number): void {
  const minX = boxes[j + BoxLayout.MIN_X]!;
  const minY = boxes[j + BoxLayout.MIN_Y]!;
  const maxX = boxes[j + BoxLayout.MAX_X]!;
  const maxY = boxes[j + BoxLayout.MAX_Y]!;
  const lat = b[o + BOUND_LAT]!;
  const lon = b[o + BOUND_LON]!;
  const dy = lat < minY ? minY - lat : lat > maxY ? lat - maxY : 0;
  const band = b[o + BOUND_BAND]!;
  if (band < 0) {
    out[k] = sphericalBoxLowerBound(lon, lat, minX, minY, maxX, maxY);
    return;
  }
  if (dy > band) {
    out[k] = dy * MIN_METERS_PER_DEG_LAT;
    return;
  }
  // degrees of longitude to the nearer side, the short way round
  let dx = 0;
  if (lon < minX) dx = Math.min(minX - lon, lon + 360 - maxX);
  else if (lon > maxX) dx = Math.min(lon - maxX, minX + 360 - lon);
  if (dx > b[o + BOUND_MAX_DLON]!) {
    out[k] = sphericalBoxLowerBound(lon, lat, minX, minY, maxX, maxY);
    return;
  }
  const x = dx * b[o + BOUND_KX_LO]!;
  const y = dy * b[o + BOUND_KY_LO]!;
  const planar = Math.sqrt(x * x + y * y) * LOWER_MARGIN;
  // Points of the box beyond the band are at least the band's meridian arc away.
  out[k] = maxY - lat > band || lat - minY > band ? Math.min(planar, band * MIN_METERS_PER_DEG_LAT) : planar;
}

/**
 * Writes to `out[k]` the upper bound (metres) of the distance from origin `o` of `b` to
 * every point of the box at `boxes[j ..]` ({@link BoxLayout}); Infinity when the planar
 * bounds do not cover it. Typed arrays in and out, as {@link writeBoxLowerBound}.
 */
export function writeBoxUpperBound(b: Float64Array, o: number, boxes: Float64Array, j: number, out: Float64Array, k: number): void {
  const minX = boxes[j + BoxLayout.MIN_X]!;
  const minY = boxes[j + BoxLayout.MIN_Y]!;
  const maxX = boxes[j + BoxLayout.MAX_X]!;
  const maxY = boxes[j + BoxLayout.MAX_Y]!;
  const lat = b[o + BOUND_LAT]!;
  const lon = b[o + BOUND_LON]!;
  const band = b[o + BOUND_BAND]!;
  const dy = Math.max(Math.abs(maxY - lat), Math.abs(lat - minY));
  if (dy > band || maxX - minX >= 180) {
    out[k] = Number.POSITIVE_INFINITY;
    return;
  }
  // degrees of longitude to the farther side, each the short way round
  let d1 = Math.abs(minX - lon);
  if (d1 > 180) d1 = 360 - d1;
  let d2 = Math.abs(maxX - lon);
  if (d2 > 180) d2 = 360 - d2;
  const dx = d1 > d2 ? d1 : d2;
  if (dx > b[o + BOUND_MAX_DLON]!) {
    out[k] = Number.POSITIVE_INFINITY;
    return;
  }
  const x = dx * b[o + BOUND_KX_HI]!;
  const y = dy * b[o + BOUND_KY_HI]!;
  out[k] = Math.sqrt(x * x + y * y) * UPPER_MARGIN;
}

/** Lower bound (metres) of the distance from (lon, lat) to a lon/lat box, valid anywhere (geokdbush's boxDist). */
export function sphericalBoxLowerBound(lon: number, lat: number, minX: number, minY: number, maxX: number, maxY: number): number {
  let h: number;
  if (lon >= minX && lon <= maxX) {
    if (lat < minY) h = hav((lat - minY) * RAD);
    else if (lat > maxY) h = hav((lat - maxY) * RAD);
    else return 0;
  } else {
    const cosLat = Math.cos(lat * RAD);
    const havDLon = Math.min(hav((minX - lon) * RAD), hav((maxX - lon) * RAD));
    const extremumLat = vertexLat(lat, havDLon);
    if (extremumLat > minY && extremumLat < maxY) h = havPartial(havDLon, cosLat, lat, extremumLat);
    else h = Math.min(havPartial(havDLon, cosLat, lat, minY), havPartial(havDLon, cosLat, lat, maxY));
  }
  return 2 * BOUND_RADIUS * Math.asin(Math.sqrt(Math.min(1, Math.max(0, h))));
}

function hav(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}
function havPartial(havDLon: number, cosLat1: number, lat1: number, lat2: number): number {
  return cosLat1 * Math.cos(lat2 * RAD) * havDLon + hav((lat1 - lat2) * RAD);
}
function vertexLat(lat: number, havDLon: number): number {
  const cosDLon = 1 - 2 * havDLon;
  if (cosDLon <= 0) return lat > 0 ? 90 : -90;
  return Math.atan(Math.tan(lat * RAD) / cosDLon) / RAD;
}
