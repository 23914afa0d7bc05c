/**
 * Synthetic venues on rings around 10 km, where the distance rule passes from the local
 * frame to the geodesic formula (src/geo/distance.ts ruledFromFrame; audit 61b N4), placed
 * by GeographicLib's Direct solution: the oracle for their true distances.
 */
import geographiclib from 'geographiclib-geodesic';
import type { VenueRecord } from '../../src/schema/venue.js';

const wgs84 = geographiclib.Geodesic.WGS84;

/** The centres' latitudes (longitude 10), as asked by the audit. */
export const RING_LATITUDES = [0, 30, 51.5, 60, 70] as const;
export const RING_AZIMUTHS = [0, 45, 90, 135, 180, 225, 270, 315] as const;

/**
 * Documented accuracy of distanceMeters against GeographicLib (docs/search.md, Geometry),
 * metres, at 10 to 11 km from a centre at `lat`: the local frame's error there (the geodesic
 * formula beyond is within 0.1 mm).
 */
export function accuracyAt10km(lat: number): number {
  return Math.abs(lat) <= 30 ? 0.001 : Math.abs(lat) <= 52 ? 0.0025 : Math.abs(lat) <= 60 ? 0.005 : 0.011;
}

export interface RingVenue {
  id: string;
  azimuth: number;
  /** GeographicLib distance from the centre, metres. */
  geodesic: number;
  record: VenueRecord;
}

/** A venue `name` at each of `meters` along each azimuth from (lat, lon). */
export function ringVenues(lat: number, lon: number, meters: readonly number[], name = 'Ring Tavern'): RingVenue[] {
  const out: RingVenue[] = [];
  for (const azimuth of RING_AZIMUTHS) {
    for (const s of meters) {
      const p = wgs84.Direct(lat, lon, azimuth, s);
      const id = `ring:${lat}:${azimuth}:${s}`;
      const exact = wgs84.Inverse(lat, lon, p.lat2!, p.lon2!).s12!;
      out.push({ id, azimuth, geodesic: exact, record: { id, name, location: { type: 'Point', coordinates: [p.lat2!, p.lon2!] } } });
    }
  }
  return out;
}
