/**
 * The discs a meet-up search qualified its venues by, as the map draws them, so the map
 * never shows an area the list contradicts (audit 62c finding 1). docs/search.md, "Fair
 * meeting points":
 * - CENTRE: venues within `maxDistance` of the weighted midpoint: one disc of the response's
 *   `radius` round its `centerPoint`;
 * - MIN_MAX / MIN_TOTAL: every counted person within `maxDistance` of the venue: one disc
 *   per person. With everyone counted a venue lies in all of them; with a quorum of k, in at
 *   least k. There is no single centre to draw a disc round (with a quorum of 1 of 3 every
 *   venue may lie kilometres from it).
 */
import type { Fairness } from './fairness.js';
import type { LatLon, MapCircle } from './map.js';
import type { SearchResponse } from './types.js';

export function searchedCircles(response: Pick<SearchResponse, 'centerPoint' | 'radius'>, fairness: Fairness | undefined, people: readonly LatLon[]): MapCircle[] {
  const meters = response.radius;
  if (fairness === undefined || fairness === 'CENTRE') return [{ lat: response.centerPoint.Lat, lon: response.centerPoint.Lon, meters }];
  return people.map((p) => ({ lat: p.lat, lon: p.lon, meters }));
}
