/** Said after a record's error when it is a raw OpenStreetMap element, not a venue record. */
export const IMPORT_OSM_HINT = ' (a raw OpenStreetMap export is imported first: `venue-search import osm`)';

const OSM_ELEMENT_ID = /^(?:node|way|relation)\/\d+$/;

/**
 * Whether a record that is not a valid venue is a raw OpenStreetMap element, which `import
 * osm` turns into venues: a points NDJSON line (`osm_id`, `tags`), a Veggiekarte feature
 * (`_type` node/way/relation), an Overpass feature (`@id`, an id `node/1`, OSM tags such as
 * `amenity` at the top level). validateVenue adds IMPORT_OSM_HINT to the error of every record this
 * is true for, so every door for venue records tells it alike.
 */
export function looksLikeRawOsm(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if ('osm_id' in v || '@id' in v || 'amenity' in v) return true;
  if (typeof v.tags === 'object' && v.tags !== null) return true;
  if (typeof v._type === 'string' && ['node', 'way', 'relation'].includes(v._type)) return true;
  return typeof v.id === 'string' && OSM_ELEMENT_ID.test(v.id);
}
