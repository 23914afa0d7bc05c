/**
 * Audit 66a F4: a venue record with a top-level lat/lon (or coordinates) INSTEAD OF `location`
 * was refused as "field location: expected required property; got undefined"; the hint that
 * the point is `location` came only when `location` was there too. Now the key sent for the
 * point is named and the hint given, whether `location` is missing or not, through readVenues,
 * createEngine, engine.upsert and PUT /admin/venues alike.
 * Oracle: the record shape of docs/data-model.md and the messages written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { FINE, itRefusesEverywhere, NO_LOCATION, type RefusalCase } from './support/venue-refusals.js';

const POINT = 'is not a field of a venue record: its point is location: {"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md)';

const CASES: readonly RefusalCase[] = [
  [{ ...NO_LOCATION, lat: 51.5, lon: -0.1 }, `field lat: unexpected property; lat ${POINT}; got 51.5`],
  [{ ...NO_LOCATION, lon: -0.1, lat: 51.5 }, `field lon: unexpected property; lon ${POINT}; got -0.1`],
  [{ ...NO_LOCATION, latitude: 51.5, longitude: -0.1 }, `field latitude: unexpected property; latitude ${POINT}; got 51.5`],
  [{ ...NO_LOCATION, coordinates: [51.5, -0.1] }, `field coordinates: unexpected property; coordinates ${POINT}; got [51.5,-0.1]`],
  // whatever the case (FHRS's Latitude/Longitude, CSV headers), and the point's common other names (audit 67a F4)
  [{ ...NO_LOCATION, Latitude: 51.5, Longitude: -0.1 }, `field Latitude: unexpected property; Latitude ${POINT}; got 51.5`],
  [{ ...NO_LOCATION, Lat: 51.5, Lon: -0.1 }, `field Lat: unexpected property; Lat ${POINT}; got 51.5`],
  [{ ...NO_LOCATION, LONGITUDE: -0.1, LATITUDE: 51.5 }, `field LONGITUDE: unexpected property; LONGITUDE ${POINT}; got -0.1`],
  [{ ...NO_LOCATION, coords: [51.5, -0.1] }, `field coords: unexpected property; coords ${POINT}; got [51.5,-0.1]`],
  [{ ...NO_LOCATION, point: [51.5, -0.1] }, `field point: unexpected property; point ${POINT}; got [51.5,-0.1]`],
  [{ ...NO_LOCATION, position: { lat: 51.5, lon: -0.1 } }, `field position: unexpected property; position ${POINT}; got {"lat":51.5,"lon":-0.1}`],
  [{ ...NO_LOCATION, geo: { lat: 51.5, lng: -0.1 } }, `field geo: unexpected property; geo ${POINT}; got {"lat":51.5,"lng":-0.1}`],
  [{ ...NO_LOCATION, Geometry: { type: 'Point', coordinates: [-0.1, 51.5] } }, `field Geometry: unexpected property; Geometry ${POINT}; a GeoJSON geometry's coordinates are [lon, lat]: swap them; got {"type":"Point","coordinates":[-0.1,51.5]}`],
  // with location given, the same hint (audit 65a F18)
  [{ ...FINE, id: 't:1', lat: 51.5 }, `field lat: unexpected property; lat ${POINT}; got 51.5`],
];

describe('a record with lat/lon or coordinates instead of location is told its point is location (audit 66a F4)', () => {
  itRefusesEverywhere(CASES);

  it('a record missing location with no stand-in key keeps "expected required property"', () => {
    expect(() => createEngine([{ ...NO_LOCATION, colour: 'red' } as never])).toThrow('venue "t:1", field location: expected required property; got undefined');
  });
});
