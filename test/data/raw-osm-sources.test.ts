// Raw OpenStreetMap sources that `import osm` reads, given where venues are expected (serve
// --data, snapshot --data): each is told to be imported first (audit 62a 10; 5c18b93 told
// only an export with ways). Oracle: the exact messages, and a venue file that is merely
// wrong (no OSM trait) keeps the schema's message alone.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { createEngine } from '../../src/engine.js';
import { buildApp } from '../../src/http/app.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { FIXTURES_PATH } from '../search/support.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-search-raw-osm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'operator-token-0123456789abcdef';
const HINT = ' (a raw OpenStreetMap export is imported first: `venue-search import osm`)';
const VEGGIE = new URL('../../../shared/data/osm-veggie-gb/veggiekarte_gb_2022-12-02.geojson', import.meta.url).pathname;
const POINTS = new URL('../../../shared/data/osm-london-pubs/london_pubs_points.ndjson', import.meta.url).pathname;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const point = (properties: object, id?: string) => ({ type: 'Feature', ...(id !== undefined ? { id } : {}), properties, geometry: { type: 'Point', coordinates: [-0.19, 51.6] } });
const collection = (...features: object[]) => JSON.stringify({ type: 'FeatureCollection', features });

describe('raw OpenStreetMap points given as venues are told to be imported first (audit 62a 10)', () => {
  it.each([
    ['a Veggiekarte feature (_type, _id)', 'veggie.geojson', collection(point({ _id: 451152, _type: 'node', name: 'King of Prussia', category: 'vegan_friendly' })), 'line 1, field id: expected required property; got undefined'],
    ['an Overpass export of nodes only (id node/1, OSM tags)', 'nodes.geojson', collection(point({ amenity: 'pub', name: 'X' }, 'node/1')), 'line 1, venue "node/1", field amenity: unexpected property; got "pub"'],
    ['a points NDJSON line (osm_id, tags)', 'points.ndjson', `${JSON.stringify({ osm_id: 'node/451152', lat: 51.6, lon: -0.19, tags: { amenity: 'pub', name: 'King of Prussia' } })}\n`, 'line 1, field id: expected required property; got undefined'],
  ])('%s', async (_what, name, text, problem) => {
    const path = file(name, text);
    await expect(readVenues(path)).rejects.toMatchObject({ code: 'invalid_venue', line: 1, message: `${path}: ${problem}${HINT}` });
  });

  it('a venue record that is merely wrong (no OSM trait) keeps the schema message alone', async () => {
    const path = file('wrong.ndjson', `${JSON.stringify({ name: 'X', location: { type: 'Point', coordinates: [51.6, -0.19] } })}\n`);
    await expect(readVenues(path)).rejects.toMatchObject({ message: `${path}: line 1, field id: expected required property; got undefined` });
  });

  it.skipIf(!existsSync(VEGGIE) || !existsSync(POINTS))('the real Veggiekarte GeoJSON and OSM points NDJSON', async () => {
    for (const path of [VEGGIE, POINTS]) await expect(readVenues(path)).rejects.toThrow(`${path}: line 1, field id: expected required property; got undefined${HINT}`);
  });
});

describe('a raw OpenStreetMap record upserted gets the same hint as serve and snapshot (audit 63d finding 3)', () => {
  const raw = { osm_id: 'node/451152', lat: 51.6, lon: -0.19, tags: { amenity: 'pub', name: 'King of Prussia' } };
  const good: VenueRecord = { id: 'good:1', name: 'Good', location: { type: 'Point', coordinates: [51.5, -0.1] } };

  it('engine.upsert names the batch line and the hint; a merely wrong record keeps the schema message alone', () => {
    const engine = createEngine([good]);
    expect(() => engine.upsert([good, raw as unknown as VenueRecord])).toThrow(`line 2, field id: expected required property; got undefined${HINT}`);
    const wrong = { name: 'X', location: good.location };
    expect(() => engine.upsert([wrong as unknown as VenueRecord])).toThrow(/^line 1, field id: expected required property; got undefined$/);
  });

  it('PUT /admin/venues answers 400 with the hint', async () => {
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: join(dir, 'live'), compactAfter: 0, load: async (path) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine });
    const accounts = new SqliteAccountsStore(':memory:');
    const app = await buildApp({ engine: live.engine, accounts, admin: { live, token: TOKEN, bodyLimitBytes: 1 << 20 } });
    try {
      const res = await app.inject({ method: 'PUT', url: '/admin/venues', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${TOKEN}` }, payload: `${JSON.stringify(raw)}\n` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: `line 1, field id: expected required property; got undefined${HINT}` });
    } finally {
      await app.close();
      await accounts.close();
      await live.close();
    }
  });
});

