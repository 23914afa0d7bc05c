import type { VenueRecord } from '../schema/venue.js';
import { SAME_NAME_METERS, sameVenueName } from './name-key.js';
import { pairNearest } from './nearest-pairs.js';

/**
 * Which FHRS record is which OSM record when OSM's `fhrs:id` does not say (no tag, or an
 * id absent from the FHRS inputs, such as a newer one than the FHRS extract's): equal
 * names (`sameVenueName`: the find index's words, a leading "the" dropped) and points at
 * most `SAME_NAME_METERS` apart, as in the Overture↔OSM join. Each record takes at most
 * one partner, nearest first (nearest-pairs.ts).
 *
 * `fhrs` and `osm` are the indices (into `records`) of the records that may still take a
 * partner: the caller leaves out those an `fhrs:id` already links, so that link keeps
 * priority. Returns a map from the index of each linked FHRS record to its OSM record's.
 */
export function linkFhrsToOsmByName(records: readonly VenueRecord[], fhrs: readonly number[], osm: readonly number[]): Map<number, number> {
  return pairNearest(records, fhrs, osm, SAME_NAME_METERS, (f, o) => sameVenueName((records[f] as VenueRecord).name, (records[o] as VenueRecord).name));
}
