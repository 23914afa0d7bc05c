/**
 * The Earth model: the WGS84 ellipsoid. Every other module takes its constants from here;
 * nothing else in the code base may hold an Earth radius.
 */
export const WGS84_A = 6_378_137.0; // semi-major axis, metres
export const WGS84_F = 1 / 298.257223563; // flattening
export const WGS84_B = WGS84_A * (1 - WGS84_F); // semi-minor axis, metres
export const WGS84_E2 = WGS84_F * (2 - WGS84_F); // first eccentricity squared

/** Radians per degree. */
export const RAD = Math.PI / 180;
/** Degrees per radian. */
export const DEG = 180 / Math.PI;

/**
 * The smallest meridional radius of curvature (at the equator), metres. A degree of latitude
 * is never shorter than `MIN_METERS_PER_DEG_LAT`, which makes latitude padding conservative.
 */
export const MIN_MERIDIONAL_RADIUS = WGS84_A * (1 - WGS84_E2);
export const MIN_METERS_PER_DEG_LAT = MIN_MERIDIONAL_RADIUS * RAD;

/** Meridional radius of curvature M(lat), metres; `latRad` in radians. */
export function meridionalRadius(latRad: number): number {
  const s = Math.sin(latRad);
  const w = 1 - WGS84_E2 * s * s;
  return (WGS84_A * (1 - WGS84_E2)) / (w * Math.sqrt(w));
}

/** Prime-vertical radius of curvature N(lat), metres; `latRad` in radians. */
export function primeVerticalRadius(latRad: number): number {
  const s = Math.sin(latRad);
  return WGS84_A / Math.sqrt(1 - WGS84_E2 * s * s);
}

/** Metres per degree of longitude at a latitude (degrees). Zero at the poles. */
export function metersPerDegLon(latDeg: number): number {
  const phi = latDeg * RAD;
  return Math.max(0, primeVerticalRadius(phi) * Math.cos(phi) * RAD);
}

/** Metres per degree of latitude at a latitude (degrees). */
export function metersPerDegLat(latDeg: number): number {
  return meridionalRadius(latDeg * RAD) * RAD;
}

/** Wraps a longitude difference (degrees) into [-180, 180). */
export function wrapLonDelta(d: number): number {
  if (d >= -180 && d < 180) return d;
  return ((((d + 180) % 360) + 360) % 360) - 180;
}

/** Wraps a longitude (degrees) into [-180, 180]; 180 stays 180. */
export function normalizeLon(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon;
  return wrapLonDelta(lon);
}
