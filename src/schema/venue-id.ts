/**
 * The shape of a venue id, shared by the record schema (schema/venue.ts) and the `venues`
 * command's own check of the ids it sends (which does not load the schema).
 */

/** A venue id: a letter or digit, then letters, digits and `. _ : / -` (`osm:node/123`, `fhrs:456`), at most VENUE_ID_MAX_LENGTH characters. */
export const VENUE_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:/-]*$';
export const VENUE_ID_MAX_LENGTH = 128;
