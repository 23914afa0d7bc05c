import type { PreparedRoute } from '../geo/polyline.js';

/**
 * The point halfway along a route (the PATH response's `centerPoint`). A route of zero
 * length answers its first vertex.
 */
export function routeHalfwayPoint(route: PreparedRoute): { lat: number; lon: number } {
  return route.pointAt(route.length / 2);
}
