import { metersPerDegLat, metersPerDegLon, normalizeLon, wrapLonDelta } from './ellipsoid.js';

/**
 * A plane (metres east, metres north) around an origin, by the equirectangular scale of the
 * origin's latitude: for points within a city of it, distances in the plane match WGS84 to
 * about 1e-4 (a few metres at 20 km), enough to place a meeting point. For geometry on a
 * handful of people (enclosing circle, geometric median), not for per-venue distances.
 */
export class LocalPlane {
  readonly lat: number;
  readonly lon: number;
  private readonly kx: number;
  private readonly ky: number;

  constructor(lat: number, lon: number) {
    this.lat = lat;
    this.lon = lon;
    this.kx = Math.max(1e-9, metersPerDegLon(lat));
    this.ky = metersPerDegLat(lat);
  }

  /** Metres east of the origin. */
  x(lon: number): number {
    return wrapLonDelta(lon - this.lon) * this.kx;
  }

  /** Metres north of the origin. */
  y(lat: number): number {
    return (lat - this.lat) * this.ky;
  }

  lonOf(x: number): number {
    return normalizeLon(this.lon + x / this.kx);
  }

  latOf(y: number): number {
    return Math.max(-90, Math.min(90, this.lat + y / this.ky));
  }
}

/** Length (metres) of a vector of the plane: sqrt(x^2 + y^2) (Math.hypot's overflow guard costs several times more and planar metres never need it). */
export function norm(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}
