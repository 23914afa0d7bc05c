/**
 * Travel estimates from each input location to a venue (docs/search.md, "Travel").
 *
 * Honest and simple: no road network. The straight-line WGS84 distance d (metres) is
 * stretched by a detour factor of 1.3 (a common ratio of street to straight-line distance
 * in cities), and the duration is the fastest of three ways of getting there:
 *   walking           4.8 km/h
 *   local transport   10 min to get going, then 20 km/h (bus, bike, city driving)
 *   long distance     30 min to get going, then 80 km/h (roads between towns, trains)
 * Each is increasing in d, so the estimate is too: further never shows as quicker.
 * Walking wins up to about 0.8 km straight-line, local transport up to about 6.8 km.
 */
export const DETOUR_FACTOR = 1.3;
const WALK_M_PER_MIN = 4800 / 60;
const LOCAL_M_PER_MIN = 20_000 / 60;
const LOCAL_START_MIN = 10;
const LONG_M_PER_MIN = 80_000 / 60;
const LONG_START_MIN = 30;

/** Estimated minutes to cover a straight-line distance of `straightMeters`, to 0.1 min. */
export function travelMinutes(straightMeters: number): number {
  const d = straightMeters * DETOUR_FACTOR;
  const walk = d / WALK_M_PER_MIN;
  const local = LOCAL_START_MIN + d / LOCAL_M_PER_MIN;
  const long = LONG_START_MIN + d / LONG_M_PER_MIN;
  return Math.round(Math.min(walk, local, long) * 10) / 10;
}

/** Straight-line WGS84 distance (metres) from an input location's frame to (lat, lon): src/geo/frame-distance.ts. */
export { frameDistance as travelDistance } from '../geo/frame-distance.js';
