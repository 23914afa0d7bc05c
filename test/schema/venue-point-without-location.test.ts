/**
 * Audit 66a F4: a venue record with a top-level lat/lon (or coordinates) INSTEAD OF `location`
 * was refused as "field location: expected required property; got undefined"; the hint that
 * the point is `location` came only when `location` was there too. Now the key sent for the
 * point is named and the hint given, whether `location` is missing or not, through readVenues,
 * createEngine, engine.upsert and PUT /admin/venues alike.
 * Oracle: the record shape of docs/data-model.md and the messages written out by hand.
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

const dir = mkdtempSync(join(tmpdir(), 'venue-point-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POINT = 'is not a field of a venue record: its point is location: {"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md)';
/** A record of docs/data-model.md without its `location`. */
const NO_LOCATION = { id: 't:1', name: 'Test', primaryGenre: 'pub' };
const FINE = { ...NO_LOCATION, id: 't:0', location: { type: 'Point', coordinates: [51.5, -0.1] } };

const CASES: readonly (readonly [record: Record<string, unknown>, said: string])[] = [
  [{ ...NO_LOCATION, lat: 51.5, lon: -0.1 }, `field lat: unexpected property; lat ${POINT}; got 51.5`],
  [{ ...NO_LOCATION, lon: -0.1, lat: 51.5 }, `field lon: unexpected property; lon ${POINT}; got -0.1`],
  [{ ...NO_LOCATION, latitude: 51.5, longitude: -0.1 }, `field latitude: unexpected property; latitude ${POINT}; got 51.5`],
  [{ ...NO_LOCATION, coordinates: [51.5, -0.1] }, `field coordinates: unexpected property; coordinates ${POINT}; got [51.5,-0.1]`],
  // with location given, the same hint (audit 65a F18)
  [{ ...FINE, id: 't:1', lat: 51.5 }, `field lat: unexpected property; lat ${POINT}; got 51.5`],
];

describe('a record with lat/lon or coordinates instead of location is told its point is location (audit 66a F4)', () => {
  it('readVenues of an NDJSON file', async () => {
    for (const [record, said] of CASES) {
      const path = join(dir, 'point.ndjson');
      writeFileSync(path, `${JSON.stringify(record)}\n`);
      await expect(readVenues(path), said).rejects.toThrow(`point.ndjson: line 1, venue "t:1", ${said}`);
    }
  });

  it('createEngine and engine.upsert', () => {
    for (const [record, said] of CASES) {
      expect(() => createEngine([record as never]), said).toThrow(`venue "t:1", ${said}`);
      expect(() => createEngine([FINE as never]).upsert([record as never]), said).toThrow(`venue "t:1", ${said}`);
    }
  });

  it('PUT /admin/venues answers 400 invalid_venue naming the key sent', async () => {
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

  it('a record missing location with no stand-in key keeps "expected required property"', () => {
    expect(() => createEngine([{ ...NO_LOCATION, colour: 'red' } as never])).toThrow('venue "t:1", field location: expected required property; got undefined');
  });
});
