import { VenueSearchError, describeValue } from '../errors.js';
import { IMPORT_OSM_HINT } from './raw-source.js';
import { describeLocation } from './record-location.js';

/**
 * GeoJSON boundary: a Feature with a Point geometry `[lon, lat]` becomes a venue record
 * (its properties) with the interface's `location: {type: "Point", coordinates: [lat, lon]}`.
 * The feature's `id` is used when the properties carry none. Other geometries are the
 * importers' business (they choose a representative point); here they are an error.
 */
export function geoJsonFeatureToRecord(value: unknown, where: { file: string; line: number }): unknown {
  const fail = (field: string, bad: unknown, why: string, hint = ''): never => {
    throw new VenueSearchError('invalid_venue', `${describeLocation(where)}, field ${field}: ${why}; got ${describeValue(bad)}${hint}`, {
      file: where.file,
      line: where.line,
      param: field,
      value: bad,
    });
  };
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'Feature') {
    fail('type', (value as { type?: unknown } | null)?.type, 'must be a GeoJSON Feature');
  }
  const feature = value as { id?: unknown; geometry?: { type?: unknown; coordinates?: unknown }; properties?: unknown };
  const geometry = feature.geometry;
  // a way or an area: an OpenStreetMap export (Overpass) given as venues, which `import osm` turns into points
  if (!geometry || geometry.type !== 'Point') fail('geometry.type', geometry?.type, 'must be a Point', IMPORT_OSM_HINT);
  const coords = geometry!.coordinates;
  if (!Array.isArray(coords) || coords.length < 2) fail('geometry.coordinates', coords, 'must be [lon, lat]');
  const [lon, lat] = coords as unknown[];
  const props = feature.properties;
  if (props !== null && props !== undefined && (typeof props !== 'object' || Array.isArray(props))) {
    fail('properties', props, 'must be an object');
  }
  const record: Record<string, unknown> = { ...(props as Record<string, unknown> | null | undefined) };
  if (record.id === undefined && (typeof feature.id === 'string' || typeof feature.id === 'number')) record.id = String(feature.id);
  record.location = { type: 'Point', coordinates: [lat, lon] };
  return record;
}
