import { MIN_METERS_PER_DEG_LAT, metersPerDegLon } from './ellipsoid.js';

/** A longitude/latitude box, degrees (an import's `--bbox`, a country's extent, where the venues are). */
export interface LonLatBox {
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
}

/** True for a point inside the box (edges included; `west > east` wraps across 180°). NaN is outside. */
export function inLonLatBox(lat: number, lon: number, box: LonLatBox): boolean {
  if (!(lat >= box.south && lat <= box.north)) return false;
  return box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
}

/**
 * Longitude/latitude boxes (degrees) that together cover every point within a distance of
 * a region, for querying an index of (lon, lat) points. Boxes never straddle the
 * antimeridian: a region that crosses it yields two boxes. A region that reaches a pole
 * covers every longitude. The padding is conservative (the true region lies inside); the
 * exact distance filter runs afterwards.
 *
 * Boxes are written into a caller-owned `BoxList` so a query allocates nothing.
 */
export class BoxList {
  /** minLon, minLat, maxLon, maxLat per box. */
  readonly coords: Float64Array;
  count = 0;

  constructor(capacity = 2) {
    this.coords = new Float64Array(capacity * 4);
  }

  clear(): this {
    this.count = 0;
    return this;
  }

  private push(minLon: number, minLat: number, maxLon: number, maxLat: number): void {
    const o = this.count * 4;
    this.coords[o] = minLon;
    this.coords[o + 1] = minLat;
    this.coords[o + 2] = maxLon;
    this.coords[o + 3] = maxLat;
    this.count++;
  }

  /**
   * Adds the boxes covering a lat/lon rectangle padded by `padMeters`. `minLon` may be
   * greater than 180 or `maxLon` less than -180 only through padding; `maxLon - minLon`
   * is the rectangle's eastward extent and may run past 180 (a rectangle crossing the
   * antimeridian is given as e.g. minLon 179, maxLon 181).
   */
  addPadded(minLat: number, minLon: number, maxLat: number, maxLon: number, padMeters: number): void {
    if (this.count * 4 + 8 > this.coords.length) throw new Error('BoxList capacity exceeded');
    const padLat = padMeters / MIN_METERS_PER_DEG_LAT;
    const lo = minLat - padLat;
    const hi = maxLat + padLat;
    if (lo <= -90 || hi >= 90) {
      // The padded region reaches a pole: every longitude is within reach there.
      this.push(-180, Math.max(-90, lo), 180, Math.min(90, hi));
      return;
    }
    const widestLat = Math.max(Math.abs(lo), Math.abs(hi)); // where a degree of lon is shortest
    const padLon = padMeters / metersPerDegLon(widestLat);
    const west = minLon - padLon;
    const east = maxLon + padLon;
    if (east - west >= 360) {
      this.push(-180, lo, 180, hi);
    } else if (west < -180) {
      this.push(west + 360, lo, 180, hi);
      this.push(-180, lo, east, hi);
    } else if (east > 180) {
      this.push(west, lo, 180, hi);
      this.push(-180, lo, east - 360, hi);
    } else {
      this.push(west, lo, east, hi);
    }
  }
}
