import { OpenState, canonicalTimeZone, openStateAt, zoneForLocation } from '../hours/index.js';
import type { WeeklyHours } from '../schema/common.js';
import type { VenueRecord } from '../schema/venue.js';

/**
 * `isOpen` of a venue at `nowMs` (UTC ms), in the venue's own time zone (its `timeZone`, or
 * the zone of its coordinates). Unknown hours (none given) report false: the contract's
 * "unknown" is never "open". For the handful of records of one response page only.
 */
export function isOpenAt(r: VenueRecord, nowMs: number): boolean {
  return isOpenWith(r.regularOpeningHours, r.timeZone, r.location.coordinates[0], r.location.coordinates[1], r.id, nowMs);
}

/**
 * {@link isOpenAt} from the venue's values rather than its record: its weekly hours, its
 * `timeZone` (undefined: none given), its latitude and longitude (degrees) and its id.
 */
export function isOpenWith(hours: WeeklyHours | undefined, timeZone: string | undefined, lat: number, lon: number, id: string, nowMs: number): boolean {
  if (!hours || hours.length === 0) return false;
  const zone = (timeZone !== undefined ? canonicalTimeZone(timeZone) : null) ?? zoneForLocation(lat, lon, id);
  return openStateAt(hours, zone, nowMs) === OpenState.OPEN;
}
