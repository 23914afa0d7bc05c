/**
 * Web Mercator (EPSG:3857) in "world pixels": at zoom z the world is a square of
 * 256 * 2^z pixels, x growing east from the antimeridian, y growing south from 85.0511° N,
 * the same grid slippy-map tiles use. Ground scale comes from src/geo (the one Earth model).
 */
import { metersPerDegLon } from '../../geo/ellipsoid.js';

/** Latitude beyond which Web Mercator is cut off (the map is square), degrees. */
export const MAX_MERCATOR_LAT = 85.05112878;
export const TILE_SIZE = 256;

export function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom;
}

export interface Pixel {
  x: number;
  y: number;
}

export function project(lat: number, lon: number, zoom: number): Pixel {
  const size = worldSize(zoom);
  const phi = (Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat)) * Math.PI) / 180;
  return {
    x: ((lon + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size,
  };
}

export function unproject(x: number, y: number, zoom: number): { lat: number; lon: number } {
  const size = worldSize(zoom);
  const lon = (x / size) * 360 - 180;
  const n = Math.PI * (1 - (2 * y) / size);
  const lat = (Math.atan(Math.sinh(n)) * 180) / Math.PI;
  return { lat, lon };
}

/**
 * Ground metres per world pixel at latitude `lat`: a degree of longitude spans
 * worldSize/360 pixels and `metersPerDegLon(lat)` metres on the WGS84 ellipsoid.
 * Mercator is conformal, so the same scale holds north-south at that latitude.
 */
export function metersPerPixel(lat: number, zoom: number): number {
  return (metersPerDegLon(lat) * 360) / worldSize(zoom);
}
