import type BooleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type CenterOfMass from '@turf/center-of-mass';
import type PointOnFeature from '@turf/point-on-feature';
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import { requirePackage } from './lazy-package.js';

/** turf's functions, read at the first shape that needs them (lazy-package.ts). */
let turf: { booleanPointInPolygon: typeof BooleanPointInPolygon; centerOfMass: typeof CenterOfMass; pointOnFeature: typeof PointOnFeature } | null = null;

function turfFunctions(): NonNullable<typeof turf> {
  turf ??= {
    booleanPointInPolygon: requirePackage<{ default: typeof BooleanPointInPolygon }>('@turf/boolean-point-in-polygon').default,
    centerOfMass: requirePackage<{ default: typeof CenterOfMass }>('@turf/center-of-mass').default,
    pointOnFeature: requirePackage<{ default: typeof PointOnFeature }>('@turf/point-on-feature').default,
  };
  return turf;
}

/**
 * One representative point for an OSM geometry, as `{lat, lon}` in degrees. GeoJSON's
 * `[lon, lat]` order exists only inside this file.
 *
 * - Point: itself.
 * - Polygon / MultiPolygon, and a closed LineString (Overpass exports of building ways are
 *   often unconverted rings): the area-weighted planar centroid in lon/lat (turf's
 *   centerOfMass; for building-sized shapes it is within a metre of the geodesic centroid);
 *   if that falls outside the shape (an L- or U-shaped building), a point on the surface
 *   (turf's pointOnFeature) instead, so the venue never sits in the courtyard next door.
 * - Open LineString: a point on the line (pointOnFeature).
 * Returns `undefined` for anything else or for non-finite / out-of-range coordinates.
 */
export interface LatLon {
  lat: number;
  lon: number;
}

function isPosition(p: unknown): p is Position {
  return Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]);
}

function validLatLon(lon: unknown, lat: unknown): LatLon | undefined {
  if (typeof lat !== 'number' || typeof lon !== 'number') return undefined;
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  return { lat, lon };
}

function allPositions(coords: unknown, depth: number): boolean {
  if (!Array.isArray(coords) || coords.length === 0) return false;
  if (depth === 0) return coords.every(isPosition);
  return coords.every((c) => allPositions(c, depth - 1));
}

function isClosedRing(ring: Position[]): boolean {
  const a = ring[0];
  const b = ring[ring.length - 1];
  return ring.length >= 4 && a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1];
}

function surfacePoint(shape: Polygon | MultiPolygon): LatLon | undefined {
  const { booleanPointInPolygon, centerOfMass, pointOnFeature } = turfFunctions();
  const c = centerOfMass(shape).geometry.coordinates;
  if (isPosition(c) && booleanPointInPolygon(c, shape)) return validLatLon(c[0], c[1]);
  const p = pointOnFeature(shape).geometry.coordinates;
  return validLatLon(p[0], p[1]);
}

export function representativePoint(geometry: Geometry | null | undefined): LatLon | undefined {
  if (!geometry || typeof geometry !== 'object') return undefined;
  switch (geometry.type) {
    case 'Point':
      return isPosition(geometry.coordinates) ? validLatLon(geometry.coordinates[0], geometry.coordinates[1]) : undefined;
    case 'Polygon':
      return allPositions(geometry.coordinates, 1) ? surfacePoint(geometry) : undefined;
    case 'MultiPolygon':
      return allPositions(geometry.coordinates, 2) ? surfacePoint(geometry) : undefined;
    case 'LineString': {
      if (!allPositions(geometry.coordinates, 0)) return undefined;
      if (isClosedRing(geometry.coordinates)) return surfacePoint({ type: 'Polygon', coordinates: [geometry.coordinates] });
      const p = turfFunctions().pointOnFeature(geometry).geometry.coordinates;
      return validLatLon(p[0], p[1]);
    }
    default:
      return undefined;
  }
}
