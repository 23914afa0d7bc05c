import { VenueSearchError } from '../errors.js';
import { DEG, RAD } from './ellipsoid.js';

export interface WeightedPoint {
  readonly lat: number;
  readonly lon: number;
  /** Relative weight, finite and >= 0; defaults to 1. */
  readonly weight?: number;
}

/**
 * The weighted geographic midpoint: the weighted mean of the points' unit vectors, projected
 * back to the surface. Inside a city it lies metres to tens of metres from the plain average
 * of the coordinates (27 m for Heathrow and Stratford); unlike the plain average it stays
 * right across the antimeridian and near the poles.
 * Weights are validated by the caller's schema; here a zero total or vectors that cancel out
 * (antipodal points of equal weight) have no centre and are rejected.
 */
export function weightedMidpoint(points: ReadonlyArray<WeightedPoint>): { lat: number; lon: number } {
  let x = 0;
  let y = 0;
  let z = 0;
  let total = 0;
  for (const p of points) {
    const w = p.weight ?? 1;
    const phi = p.lat * RAD;
    const lambda = p.lon * RAD;
    const c = Math.cos(phi);
    x += w * c * Math.cos(lambda);
    y += w * c * Math.sin(lambda);
    z += w * Math.sin(phi);
    total += w;
  }
  if (!(total > 0)) {
    throw new VenueSearchError('invalid_request', 'at least one location must have a weight > 0', {
      param: 'locations',
    });
  }
  const horizontal = Math.hypot(x, y);
  if (horizontal + Math.abs(z) < 1e-12 * total) {
    throw new VenueSearchError('invalid_request', 'the locations cancel out (antipodal points): there is no centre', {
      param: 'locations',
    });
  }
  const lat = Math.atan2(z, horizontal) * DEG;
  // At a pole the longitude is arbitrary; report 0 rather than atan2's noise.
  const lon = horizontal < 1e-15 * total ? 0 : Math.atan2(y, x) * DEG;
  return { lat, lon };
}
