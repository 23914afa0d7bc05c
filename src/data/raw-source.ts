import { isVenueSearchError, VenueSearchError } from '../errors.js';
import { validateParsedVenue, type RecordLocation } from './validate-venue.js';
import type { VenueRecord } from '../schema/venue.js';

/** Said after a record's error when it is a raw OpenStreetMap element, not a venue record. */
export const IMPORT_OSM_HINT = ' (a raw OpenStreetMap export is imported first: `venue-search import osm`)';

const OSM_ELEMENT_ID = /^(?:node|way|relation)\/\d+$/;

/**
 * Whether a record that is not a valid venue is a raw OpenStreetMap element, which `import
 * osm` turns into venues: a points NDJSON line (`osm_id`, `tags`), a Veggiekarte feature
 * (`_type` node/way/relation), an Overpass feature (`@id`, an id `node/1`, OSM tags such as
 * `amenity` at the top level).
 */
export function looksLikeRawOsm(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if ('osm_id' in v || '@id' in v || 'amenity' in v) return true;
  if (typeof v.tags === 'object' && v.tags !== null) return true;
  if (typeof v._type === 'string' && ['node', 'way', 'relation'].includes(v._type)) return true;
  return typeof v.id === 'string' && OSM_ELEMENT_ID.test(v.id);
}

/**
 * validateParsedVenue (or `validate`: validateVenue for a value not made by JSON.parse, as an
 * upsert batch's), with the hint to import it first when the record refused is a raw
 * OpenStreetMap element (the schema's own error, "field id: expected required property",
 * would not say so). Every door for venue records uses it: readVenues (serve, snapshot,
 * merge) and upsert batches (the engine, PUT /admin/venues, `venues upsert`).
 */
export function validateVenueOrRawSource(value: unknown, where: RecordLocation, validate: (value: unknown, where: RecordLocation) => VenueRecord = validateParsedVenue): VenueRecord {
  try {
    return validate(value, where);
  } catch (err) {
    if (!isVenueSearchError(err) || !looksLikeRawOsm(value)) throw err;
    const { param, value: bad, file, line, recordId } = err;
    throw new VenueSearchError(err.code, `${err.message}${IMPORT_OSM_HINT}`, {
      value: bad,
      ...(param !== undefined ? { param } : {}),
      ...(file !== undefined ? { file } : {}),
      ...(line !== undefined ? { line } : {}),
      ...(recordId !== undefined ? { recordId } : {}),
    });
  }
}
