import type { PreparedRoute } from '../geo/polyline.js';
import { wrapLonDelta } from '../geo/ellipsoid.js';

/**
 * The point halfway along a route (the PATH response's `centerPoint`), read from the
 * route's prepared pieces, whose layout PreparedRoute documents: per piece `lat0, lon0,
 * dLat, dLon, kx, ky, len, along, bLat, bLon`, the route point at fraction t of the piece
 * being `start + t * (dLat, dLon) + 4 t (1 - t) * (bLat, bLon)` (a fit of the WGS84 geodesic
 * exact to centimetres). A route of zero length answers its first vertex.
 */
export function routeHalfwayPoint(route: PreparedRoute): { lat: number; lon: number } {
  const pc = route.pieces;
  const stride = route.pieceCount > 0 ? pc.length / route.pieceCount : 0;
  const half = route.length / 2;
  if (!(half > 0) || stride < 10) return { lat: route.lats[0]!, lon: route.lons[0]! };
  for (let p = 0; p < route.pieceCount; p++) {
    const o = p * stride;
    const len = pc[o + 6]!;
    const along = pc[o + 7]!;
    if (half <= along + len || p === route.pieceCount - 1) {
      const t = len > 0 ? Math.min(1, Math.max(0, (half - along) / len)) : 0;
      const bulge = 4 * t * (1 - t);
      const lat = pc[o]! + t * pc[o + 2]! + bulge * pc[o + 8]!;
      const lon = wrapLonDelta(pc[o + 1]! + t * pc[o + 3]! + bulge * pc[o + 9]!);
      return { lat, lon };
    }
  }
  return { lat: route.lats[0]!, lon: route.lons[0]! };
}
