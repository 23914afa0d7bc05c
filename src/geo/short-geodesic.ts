import { DEG, RAD, WGS84_A, WGS84_B, WGS84_E2 } from './ellipsoid.js';

/**
 * The WGS84 geodesic between two points up to {@link SHORT_GEODESIC_MAX_METERS} apart, in
 * closed form (about 0.3 us, against a few us for GeographicLib's iterative solution):
 *
 *   midpoint  the surface point below the midpoint of the chord between the two points in
 *             earth-centred coordinates (ECEF), found by Bowring's formula. On a line this
 *             short the chord's midpoint lies on the normal through the geodesic's midpoint
 *             to within micrometres.
 *   length    from the chord c: s = c (1 + c^2 / (24 R^2)), the arc of a circle of radius R,
 *             with R the radius of curvature of the normal section at the midpoint in the
 *             chord's direction (Euler: R = M N / (N cos^2 a + M sin^2 a)).
 *
 * Against GeographicLib on 20,000 random lines of up to 20 km at latitudes up to 80 degrees
 * (test/geo/short-geodesic.test.ts): lengths within 1e-7 m, midpoints within 1e-6 m.
 */
export const SHORT_GEODESIC_MAX_METERS = 20_000;

/** Second eccentricity squared, e'^2 = (a^2 - b^2) / b^2. */
const EP2 = WGS84_E2 / (1 - WGS84_E2);

/** Result of {@link shortGeodesic}: length (metres) and midpoint (degrees). */
export interface ShortGeodesic {
  length: number;
  midLat: number;
  midLon: number;
  /** Chord length (metres): callers check it against SHORT_GEODESIC_MAX_METERS. */
  chord: number;
}

/**
 * Length and midpoint of the geodesic from A to B, written into `out` (no allocation).
 * Meaningful while `out.chord` is at most SHORT_GEODESIC_MAX_METERS; the caller solves
 * longer lines exactly.
 */
export function shortGeodesic(latA: number, lonA: number, latB: number, lonB: number, out: ShortGeodesic): ShortGeodesic {
  // ECEF of both ends (metres).
  const pa = latA * RAD;
  const la = lonA * RAD;
  const sa = Math.sin(pa);
  const ca = Math.cos(pa);
  const na = WGS84_A / Math.sqrt(1 - WGS84_E2 * sa * sa);
  const xa = na * ca * Math.cos(la);
  const ya = na * ca * Math.sin(la);
  const za = na * (1 - WGS84_E2) * sa;
  const pb = latB * RAD;
  const lb = lonB * RAD;
  const sb = Math.sin(pb);
  const cb = Math.cos(pb);
  const nb = WGS84_A / Math.sqrt(1 - WGS84_E2 * sb * sb);
  const dx = nb * cb * Math.cos(lb) - xa;
  const dy = nb * cb * Math.sin(lb) - ya;
  const dz = nb * (1 - WGS84_E2) * sb - za;
  // The chord's midpoint, then the surface point on the normal through it (Bowring).
  const mx = xa + dx / 2;
  const my = ya + dy / 2;
  const mz = za + dz / 2;
  const p = Math.hypot(mx, my);
  const theta = Math.atan2(mz * WGS84_A, p * WGS84_B);
  const st = Math.sin(theta);
  const ct = Math.cos(theta);
  const phi = Math.atan2(mz + EP2 * WGS84_B * st * st * st, p - WGS84_E2 * WGS84_A * ct * ct * ct);
  const lambda = Math.atan2(my, mx);
  // The chord's direction in the midpoint's east / north plane gives the normal section's
  // radius of curvature.
  const sp = Math.sin(phi);
  const cp = Math.cos(phi);
  const sl = Math.sin(lambda);
  const cl = Math.cos(lambda);
  const east = -sl * dx + cl * dy;
  const north = -sp * cl * dx - sp * sl * dy + cp * dz;
  const flat = east * east + north * north;
  const cos2 = flat > 0 ? (north * north) / flat : 1;
  const w = 1 - WGS84_E2 * sp * sp;
  const n = WGS84_A / Math.sqrt(w); // prime vertical radius N
  const m = (WGS84_A * (1 - WGS84_E2)) / (w * Math.sqrt(w)); // meridional radius M
  const r = (m * n) / (n * cos2 + m * (1 - cos2));
  const c2 = dx * dx + dy * dy + dz * dz;
  const chord = Math.sqrt(c2);
  out.chord = chord;
  out.length = chord * (1 + c2 / (24 * r * r));
  out.midLat = phi * DEG;
  out.midLon = lambda * DEG;
  return out;
}
