import { OpenState, canonicalTimeZone, openStateAt, zoneForLocation } from '../hours/index.js';
import type { VenueRecord } from '../schema/venue.js';

/**
 * `isOpen` of a venue at `nowMs` (UTC ms), in the venue's own time zone (its `timeZone`, or
 * the zone of its coordinates). Unknown hours (none given) report false: the contract's
 * "unknown" is never "open". For the handful of records of one response page only.
 */
export function isOpenAt(r: VenueRecord, nowMs: number): boolean {
  if (!r.regularOpeningHours || r.regularOpeningHours.length === 0) return false;
  const zone =
    (r.timeZone !== undefined ? canonicalTimeZone(r.timeZone) : null) ??
    zoneForLocation(r.location.coordinates[0], r.location.coordinates[1], r.id);
  return openStateAt(r.regularOpeningHours, zone, nowMs) === OpenState.OPEN;
}
