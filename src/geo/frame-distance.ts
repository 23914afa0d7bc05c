import type { LocalFrame } from './distance.js';

/**
 * Straight-line WGS84 distance (metres) from a frame's origin (a person, a centre) to
 * (lat, lon) by the one distance rule, ruledFromFrame (src/geo/distance.ts): the
 * LocalFrame (built once per query, a few multiplies per venue) within its reach, Vincenty's
 * geodesic formula beyond, blended over the first kilometre (LocalFrame.ruledDistance). The rule for per-person distances: travel
 * estimates and the fair walk both use it, so a venue's cost and its reported travel agree
 * to the bit, and radius, corridor and find ask the same rule.
 */
export function frameDistance(from: LocalFrame, lat: number, lon: number): number {
  return from.ruledDistance(lat, lon);
}
