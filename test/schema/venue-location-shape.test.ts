/**
 * Audit 66g F7: a venue record whose `location` is `{lat, lon}` (or another shape than a GeoJSON
 * Point), or whose point is a GeoJSON `geometry` instead of `location`, was refused as
 * "field location.type: expected required property; got undefined" or "field location:
 * expected required property": no word of the shape asked for. Now each is told that
 * location is {"type": "Point", "coordinates": [lat, lon]}, latitude first (and a geometry that
 * GeoJSON's order is [lon, lat]), through readVenues, createEngine, engine.upsert and
 * PUT /admin/venues alike. Oracle: the record shape of docs/data-model.md and the messages
 * written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { FINE, itRefusesEverywhere, NO_LOCATION, type RefusalCase } from './support/venue-refusals.js';

const SHAPE = '{"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md)';
const EXPECTED = `field location: expected ${SHAPE}; got`;
const GEOMETRY = { type: 'Point', coordinates: [-0.1, 51.5] };
const GEOMETRY_SAID = `field geometry: unexpected property; geometry is not a field of a venue record: its point is location: ${SHAPE}; a GeoJSON geometry's coordinates are [lon, lat]: swap them; got {"type":"Point","coordinates":[-0.1,51.5]}`;

const CASES: readonly RefusalCase[] = [
  [{ ...NO_LOCATION, location: { lat: 51.5, lon: -0.1 } }, `${EXPECTED} {"lat":51.5,"lon":-0.1}`],
  [{ ...NO_LOCATION, location: { latitude: 51.5, longitude: -0.1 } }, `${EXPECTED} {"latitude":51.5,"longitude":-0.1}`],
  [{ ...NO_LOCATION, location: { type: 'Point', lat: 51.5, lon: -0.1 } }, `${EXPECTED} {"type":"Point","lat":51.5,"lon":-0.1}`],
  [{ ...NO_LOCATION, location: { coordinates: [51.5, -0.1] } }, `${EXPECTED} {"coordinates":[51.5,-0.1]}`],
  [{ ...NO_LOCATION, location: [51.5, -0.1] }, `${EXPECTED} [51.5,-0.1]`],
  [{ ...NO_LOCATION, location: '51.5,-0.1' }, `${EXPECTED} "51.5,-0.1"`],
  [{ ...NO_LOCATION, geometry: GEOMETRY }, GEOMETRY_SAID],
  [{ ...FINE, id: 't:1', geometry: GEOMETRY }, GEOMETRY_SAID],
];

describe('a location of another shape, or a GeoJSON geometry, is told the shape of location (audit 66g F7)', () => {
  itRefusesEverywhere(CASES);

  it('a Point whose parts are wrong keeps the part named (a latitude out of range, a type misspelt)', () => {
    const at = (location: unknown) => () => createEngine([{ ...NO_LOCATION, location } as never]);
    expect(at({ type: 'Point', coordinates: [151.2, -33.9] })).toThrow('venue "t:1", field location.coordinates[0]: ');
    expect(at({ type: 'point', coordinates: [51.5, -0.1] })).toThrow('venue "t:1", field location.type: ');
    // a record that is not an object has no location to look at
    expect(() => createEngine([null as never])).toThrow('line 1, record: expected object; got null');
  });
});
