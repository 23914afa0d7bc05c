/**
 * Ground scale of the map (Web Mercator, the grid Leaflet and slippy-map tiles use: at zoom z
 * the world is 256 * 2^z pixels wide). Leaflet does the projection; the widget needs the
 * scale only to draw the route corridor in metres. Ground scale comes from src/geo (the one
 * Earth model).
 */
import { metersPerDegLon } from '../../geo/ellipsoid.js';

export const TILE_SIZE = 256;

export function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom;
}

/**
 * Ground metres per screen pixel at latitude `lat`: a degree of longitude spans
 * worldSize/360 pixels and `metersPerDegLon(lat)` metres on the WGS84 ellipsoid.
 * Mercator is conformal, so the same scale holds north-south at that latitude.
 */
export function metersPerPixel(lat: number, zoom: number): number {
  return (metersPerDegLon(lat) * 360) / worldSize(zoom);
}
