/** Said after a record's error when it is a raw OpenStreetMap element, not a venue record. */
export const IMPORT_OSM_HINT = ' (a raw OpenStreetMap export is imported first: `venue-search import osm`)';

const OSM_ELEMENT_ID = /^(?:node|way|relation)\/\d+$/;

/** Whether `value` is an object whose `type` is `type` in any case (`"feature"`, `"FEATURE"`: GeoJSON spells it one way, hand-made files others). */
export function hasGeoJsonType(value: unknown, type: string): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const t = (value as { type?: unknown }).type;
  return typeof t === 'string' && t.toLowerCase() === type.toLowerCase();
}

/**
 * Whether a record that is not a valid venue is a raw OpenStreetMap element, which `import
 * osm` turns into venues: a points NDJSON line (`osm_id`, `tags`), a Veggiekarte feature
 * (`_type` node/way/relation), an Overpass feature (`@id`, an id `node/1`, OSM tags such as
 * `amenity` at the top level); or such an element wrapped as GeoJSON and sent as one record:
 * a Feature (its `properties`, or its `id` `node/1`), a FeatureCollection or a JSON array
 * (their first element). validateVenue adds IMPORT_OSM_HINT to the error of every record this
 * is true for, so every door for venue records tells it alike.
 */
export function looksLikeRawOsm(value: unknown): boolean {
  if (Array.isArray(value)) return looksLikeRawOsm(value[0]);
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (hasGeoJsonType(value, 'FeatureCollection')) return Array.isArray(v.features) && looksLikeRawOsm(v.features[0]);
  if (hasGeoJsonType(value, 'Feature')) return looksLikeRawOsm(v.properties) || (typeof v.id === 'string' && OSM_ELEMENT_ID.test(v.id));
  if ('osm_id' in v || '@id' in v || 'amenity' in v) return true;
  if (typeof v.tags === 'object' && v.tags !== null) return true;
  if (typeof v._type === 'string' && ['node', 'way', 'relation'].includes(v._type)) return true;
  return typeof v.id === 'string' && OSM_ELEMENT_ID.test(v.id);
}
