/**
 * Hand-made venue records in the forms the importers write, for the merge tests: an OSM
 * node's and an Overture place's. Each takes `extra` fields on top.
 */
import type { VenueRecord } from '../../../src/schema/venue.js';

/** An OSM node's record (`osm:node/N`, externalIds.osm); `extra.externalIds` adds to the node's own. */
export function osmNode(id: number, name: string, [lat, lon]: readonly [number, number], extra: Partial<VenueRecord> = {}): VenueRecord {
  return {
    id: `osm:node/${id}`,
    name,
    location: { type: 'Point', coordinates: [lat, lon] },
    ...extra,
    externalIds: { osm: `node/${id}`, ...extra.externalIds },
  };
}

/** An Overture place's record (`overture:ID`, an address naming the id). */
export function overtureVenue(id: string, name: string, [lat, lon]: readonly [number, number], extra: Partial<VenueRecord> = {}): VenueRecord {
  return {
    id: `overture:${id}`,
    name,
    location: { type: 'Point', coordinates: [lat, lon] },
    formattedAddress: `${id} address`,
    ...extra,
  };
}
