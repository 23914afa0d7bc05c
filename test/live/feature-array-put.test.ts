/**
 * Audit 67g F6: a JSON array of GeoJSON Features sent as a line of `PUT /admin/venues` (so
 * `venues upsert --file features.json`) or to `engine.upsert` was told only "record: expected
 * object", where Features one a line and the array in a venues file are told that a GeoJSON
 * Feature is not a venue record. The data: the first three Features of the real Overpass export
 * of London's pubs (the audit's body); the oracle: the message written out by hand.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { buildApp } from '../../src/http/app.js';
import { FIXTURES_PATH, loadFixtureVenues } from '../search/support.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const OVERPASS = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const TOKEN = 'operator-token-0123456789abcdef';

const ARRAY_HINT =
  'line 1, record: a JSON array of GeoJSON Features, not one venue record (an object); ' +
  'a GeoJSON Feature is not a venue record: a venues file of GeoJSON is a FeatureCollection, {"type": "FeatureCollection", "features": [...]}, ' +
  "each Point Feature's properties a record (`jq -s '{type: \"FeatureCollection\", features: .}'` makes one of Features one a line); " +
  'a venue record has its fields at the top and its point as location: {"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md); got [{"type":"Feature",';

describe.skipIf(!hasShared(OVERPASS))('a JSON array of GeoJSON Features as one record is told what it is (audit 67g F6)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'feature-array-put-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const features = (JSON.parse(readFileSync(sharedFile(OVERPASS), 'utf8')) as { features: unknown[] }).features.slice(0, 3);

  it('PUT /admin/venues: 400 invalid_venue with the Feature hint, nothing changed', async () => {
    const load = async (path: string) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine;
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: join(tmp, 'live'), compactAfter: 0, load });
    const accounts = new SqliteAccountsStore(':memory:');
    const app = await buildApp({ engine: live.engine, accounts, admin: { live, token: TOKEN, bodyLimitBytes: 1 << 20 } });
    try {
      await app.ready();
      const res = await app.inject({
        method: 'PUT',
        url: '/admin/venues',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
        payload: `${JSON.stringify(features)}\n`,
      });
      expect(res.statusCode).toBe(400);
      const body = res.json<{ code: string; message: string }>();
      expect(body.code).toBe('invalid_venue');
      expect(body.message.startsWith(ARRAY_HINT), body.message).toBe(true);
      expect(live.engine.size).toBe(loadFixtureVenues().length);
    } finally {
      await app.close();
      await accounts.close();
      await live.close();
    }
  });

  it('engine.upsert of the array as one record: the same', () => {
    expect(() => createEngine(loadFixtureVenues()).upsert([features as never])).toThrow(/^line 1, record: a JSON array of GeoJSON Features, not one venue record/);
  });
});
