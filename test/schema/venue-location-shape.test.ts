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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { buildApp } from '../../src/http/app.js';
import { FIXTURES_PATH } from '../search/support.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-location-shape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHAPE = '{"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md)';
const EXPECTED = `field location: expected ${SHAPE}; got`;
/** A record of docs/data-model.md without its `location`. */
const NO_LOCATION = { id: 't:1', name: 'Test', primaryGenre: 'pub' };
const FINE = { ...NO_LOCATION, id: 't:0', location: { type: 'Point', coordinates: [51.5, -0.1] } };
const GEOMETRY = { type: 'Point', coordinates: [-0.1, 51.5] };
const GEOMETRY_SAID = `field geometry: unexpected property; geometry is not a field of a venue record: its point is location: ${SHAPE}; a GeoJSON geometry's coordinates are [lon, lat]: swap them; got {"type":"Point","coordinates":[-0.1,51.5]}`;

const CASES: readonly (readonly [record: Record<string, unknown>, said: string])[] = [
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
  it('readVenues of an NDJSON file', async () => {
    for (const [record, said] of CASES) {
      const path = join(dir, 'shape.ndjson');
      writeFileSync(path, `${JSON.stringify(record)}\n`);
      await expect(readVenues(path), said).rejects.toThrow(`shape.ndjson: line 1, venue "t:1", ${said}`);
    }
  });

  it('createEngine and engine.upsert', () => {
    for (const [record, said] of CASES) {
      expect(() => createEngine([record as never]), said).toThrow(`venue "t:1", ${said}`);
      expect(() => createEngine([FINE as never]).upsert([record as never]), said).toThrow(`venue "t:1", ${said}`);
    }
  });

  it('PUT /admin/venues answers 400 invalid_venue naming the field', async () => {
    const load = async (path: string) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine;
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: join(dir, 'live'), compactAfter: 0, load });
    const accounts = new SqliteAccountsStore(':memory:');
    const token = 'operator-token-0123456789abcdef';
    const app = await buildApp({ engine: live.engine, accounts, admin: { live, token, bodyLimitBytes: 1 << 20 } });
    try {
      for (const [record, said] of CASES) {
        const res = await app.inject({
          method: 'PUT',
          url: '/admin/venues',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
          payload: JSON.stringify(record),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid_venue', param: said.slice('field '.length, said.indexOf(':')), message: `line 1, venue "t:1", ${said}` });
      }
    } finally {
      await app.close();
      await accounts.close();
      await live.close();
    }
  });

  it('a Point whose parts are wrong keeps the part named (a latitude out of range, a type misspelt)', () => {
    const at = (location: unknown) => () => createEngine([{ ...NO_LOCATION, location } as never]);
    expect(at({ type: 'Point', coordinates: [151.2, -33.9] })).toThrow('venue "t:1", field location.coordinates[0]: ');
    expect(at({ type: 'point', coordinates: [51.5, -0.1] })).toThrow('venue "t:1", field location.type: ');
    // a record that is not an object has no location to look at
    expect(() => createEngine([null as never])).toThrow('line 1, record: expected object; got null');
  });
});
