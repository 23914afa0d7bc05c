/**
 * Audit 68b F2 and F3: the hints a refused venue record gets, the same on every route a record
 * comes in by: readVenues of an NDJSON file, `serve --data` (its loader, loadEngineFile),
 * createEngine, engine.upsert, PUT /admin/venues and `venues upsert --file` (the CLI, a real
 * process, against the service on a port of this test's own).
 * - F2: a whole GeoJSON FeatureCollection on one line was told only "field id: expected
 *   required property"; a Feature whose `type` is "feature" the same.
 * - F3: an Overpass element's record (`@id`) and a Veggiekarte one (`_id`, `_type`) got no
 *   "imported first" hint from createEngine; `_id` in a record that is no raw export, and
 *   `" id"`, were told nothing of `id`.
 * The records come from the real data (the OSM London export's first Point Feature, the
 * Veggiekarte GB export's first Feature, the London points line of the same pub); the
 * oracle: each message written out by hand, from docs/data-model.md's wording.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { buildApp } from '../../src/http/app.js';
import { FIXTURES_PATH } from '../search/support.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { CLI_MAIN } from '../support/cli.js';

const OVERPASS = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const VEGGIE = 'osm-veggie-gb/veggiekarte_gb_2022-12-02.geojson';
const POINTS = 'osm-london-pubs/london_pubs_points.ndjson';
const TOKEN = 'operator-token-0123456789abcdef';

const HINT = ' (a raw OpenStreetMap export is imported first: `venue-search import osm`)';
const POINT_SHAPE = '{"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md)';
const COLLECTION_SAID =
  'field type: a GeoJSON FeatureCollection is not one venue record: a venues file of GeoJSON is one FeatureCollection, the whole file ' +
  "(`serve --data venues.geojson`), each Point Feature's properties a record, not a line among records nor a record upserted; " +
  `a venue record has its fields at the top and its point as location: ${POINT_SHAPE}; got "FeatureCollection"`;
const FEATURE_SAID =
  'field type: a GeoJSON Feature is not a venue record: a venues file of GeoJSON is a FeatureCollection, {"type": "FeatureCollection", "features": [...]}, ' +
  "each Point Feature's properties a record (`jq -s '{type: \"FeatureCollection\", features: .}'` makes one of Features one a line); " +
  `a venue record has its fields at the top and its point as location: ${POINT_SHAPE}; got "feature"`;

type Feature = { type: string; id: string; properties: Record<string, unknown>; geometry: { type: string; coordinates: [number, number] } };

/** Each case: what it is, the record (one line), and the message after `line 1, ` every route must give. */
function cases(): (readonly [what: string, record: unknown, said: string])[] {
  const overpass = JSON.parse(readFileSync(sharedFile(OVERPASS), 'utf8')) as Record<string, unknown> & { features: Feature[] };
  const points = overpass.features.filter((f) => f.geometry.type === 'Point');
  const pub = points[0]!; // node/451152, King of Prussia, [-0.1946078, 51.6008404]
  const veggie = (JSON.parse(readFileSync(sharedFile(VEGGIE), 'utf8')) as { features: Feature[] }).features[0]!;
  const line = JSON.parse(readFileSync(sharedFile(POINTS), 'utf8').split('\n')[0]!) as { osm_id: string; lat: number; lon: number; tags: { name: string } };
  const at = (f: Feature) => ({ type: 'Point', coordinates: [f.geometry.coordinates[1], f.geometry.coordinates[0]] });
  const location = { type: 'Point', coordinates: [line.lat, line.lon] };
  const id = `osm:${line.osm_id}`;
  return [
    // F2: the export itself (its first two Point Features), as `jq -c .` writes it
    ['the Overpass FeatureCollection on one line', { ...overpass, features: points.slice(0, 2) }, `${COLLECTION_SAID}${HINT}`],
    // F2: a FeatureCollection of venue records' Features: no raw export, no import hint
    ['a FeatureCollection of venue records on one line', { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: pub.geometry, properties: { id, name: line.tags.name } }] }, COLLECTION_SAID],
    ['a Feature of the export with "type": "feature"', { ...pub, type: 'feature' }, `venue "node/451152", ${FEATURE_SAID}${HINT}`],
    // F3: the record the reader makes of an Overpass Feature (`@id` and OSM tags, no id)
    ['an Overpass element (@id)', { ...pub.properties, location: at(pub) }, `field id: expected required property; got undefined${HINT}`],
    // F3: Veggiekarte's `_id` beside `_type`: a raw export, imported first, not a misspelt id
    ['a Veggiekarte element (_id, _type)', { ...veggie.properties, location: at(veggie) }, `field id: expected required property; got undefined${HINT}`],
    // F3: `_id` in a record that is no raw export (MongoDB's, CouchDB's record id)
    ['a record with _id (no raw export)', { _id: id, name: line.tags.name, location }, `field _id: unexpected property; did you mean "id"?; got "${id}"`],
    ['a record with " id"', { ' id': id, name: line.tags.name, location }, `field  id: unexpected property; did you mean "id"?; got "${id}"`],
  ];
}

/** The message `run` throws (or rejects with), '' when it does not. Each case is checked softly: every case's answer on a route is reported. */
async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!hasShared(OVERPASS) || !hasShared(VEGGIE) || !hasShared(POINTS))('a refused record gets the same hint on every route (audit 68b F2, F3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'record-hints-every-route-'));
  const all = cases();
  const fileOf = (k: number): string => {
    const path = join(dir, `case-${k}.ndjson`);
    writeFileSync(path, `${JSON.stringify(all[k]![1])}\n`);
    return path;
  };
  let close = async (): Promise<void> => {};
  let app: Awaited<ReturnType<typeof buildApp>>;
  /** The service `venues upsert` talks to (a free port: a fixed one may be taken by whatever else runs). */
  let base = '';
  beforeAll(async () => {
    const load = async (path: string) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine;
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: join(dir, 'live'), compactAfter: 0, load });
    const accounts = new SqliteAccountsStore(':memory:');
    app = await buildApp({ engine: live.engine, accounts, admin: { live, token: TOKEN, bodyLimitBytes: 1 << 20 } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    close = async () => {
      await app.close();
      await accounts.close();
      await live.close();
    };
  });
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('readVenues of an NDJSON file', async () => {
    for (const [k, [what, , said]] of all.entries()) expect.soft(await refusal(() => readVenues(fileOf(k))), what).toBe(`${join(dir, `case-${k}.ndjson`)}: line 1, ${said}`);
  });

  it('serve --data (its loader)', async () => {
    for (const [k, [what, , said]] of all.entries()) {
      const path = fileOf(k);
      expect.soft(await refusal(() => loadEngineFile(path, (m) => { throw new Error(m); })), what).toBe(`${path}: line 1, ${said}`);
    }
  });

  it('createEngine and engine.upsert', async () => {
    const engine = createEngine([]);
    for (const [what, record, said] of all) {
      expect.soft(await refusal(() => createEngine([record as never])), what).toBe(`line 1, ${said}`);
      expect.soft(await refusal(() => engine.upsert([record as never])), what).toBe(`line 1, ${said}`);
    }
  });

  it('PUT /admin/venues: 400 invalid_venue', async () => {
    for (const [what, record, said] of all) {
      const res = await app.inject({ method: 'PUT', url: '/admin/venues', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' }, payload: `${JSON.stringify(record)}\n` });
      expect(res.statusCode, what).toBe(400);
      expect.soft(res.json<{ code: string; message: string }>(), what).toMatchObject({ code: 'invalid_venue', message: `line 1, ${said}` });
    }
  });

  it('venues upsert --file (the CLI)', async () => {
    const token = join(dir, 'token');
    writeFileSync(token, TOKEN, { mode: 0o600 });
    for (const [k, [what, , said]] of all.entries()) {
      const path = fileOf(k);
      const run = await runCli(['venues', 'upsert', '--server', base, '--file', path, '--token-file', token]);
      expect(run.code, what).toBe(1);
      expect.soft(run.stderr, what).toContain(`${path}: line 1: batch of lines 1..1 refused (400): line 1, ${said}; 0 earlier batches were applied`);
    }
  }, 120_000);
});
