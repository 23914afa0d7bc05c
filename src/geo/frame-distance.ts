import { LOCAL_FRAME_MAX_METERS, type LocalFrame, POLAR_LIMIT_DEG, nearDistanceMeters } from './distance.js';

/** Within this distance (metres) of an origin below POLAR_LIMIT_DEG, its LocalFrame is within 0.1 m. */
export const FRAME_EXACT_METERS = LOCAL_FRAME_MAX_METERS;

/**
 * Straight-line WGS84 distance (metres) from a frame's origin (a person, a centre) to
 * (lat, lon): the LocalFrame (built once per query, a few multiplies per venue) within
 * 10 km, where it is within 0.1 m; the mean-latitude formula beyond, or near a pole (which
 * defers to the ellipsoidal formula past 100 km). The one rule for per-person distances:
 * travel estimates and the fair walk both use it, so a venue's cost and its reported
 * travel agree to the bit.
 */
export function frameDistance(from: LocalFrame, lat: number, lon: number): number {
  const d = from.distance(lat, lon);
  if (d <= FRAME_EXACT_METERS && Math.abs(from.lat) < POLAR_LIMIT_DEG) return d;
  return nearDistanceMeters(from.lat, from.lon, lat, lon);
}
