/**
 * The venue-record refusals of test/schema/venue-*.test.ts, checked at every way a record
 * comes in: readVenues of an NDJSON file, createEngine, engine.upsert, and PUT /admin/venues
 * (400 invalid_venue, its `param` the field named). Each case is a record and the words the
 * refusal must say after `venue "t:1", ` (written out by hand in the test).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SqliteAccountsStore } from '../../../src/accounts/sqlite-accounts-store.js';
import { LiveVenues } from '../../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../../src/cli/load-engine.js';
import { readVenues } from '../../../src/data/read-venues.js';
import { createEngine } from '../../../src/engine.js';
import { buildApp } from '../../../src/http/app.js';
import { FIXTURES_PATH } from '../../search/support.js';

/** A record of docs/data-model.md without its `location` (id "t:1", the one refused). */
export const NO_LOCATION = { id: 't:1', name: 'Test', primaryGenre: 'pub' };
/** A valid record (id "t:0"): the engine an upsert is refused by. */
export const FINE = { ...NO_LOCATION, id: 't:0', location: { type: 'Point', coordinates: [51.5, -0.1] } };

export type RefusalCase = readonly [record: Record<string, unknown>, said: string];

/** Declares the tests (inside the caller's describe): each case refused with its words at every entry point. */
export function itRefusesEverywhere(cases: readonly RefusalCase[]): void {
  const dir = mkdtempSync(join(tmpdir(), 'venue-refusals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('readVenues of an NDJSON file', async () => {
    for (const [record, said] of cases) {
      const path = join(dir, 'record.ndjson');
      writeFileSync(path, `${JSON.stringify(record)}\n`);
      await expect(readVenues(path), said).rejects.toThrow(`record.ndjson: line 1, venue "t:1", ${said}`);
    }
  });

  it('createEngine and engine.upsert', () => {
    for (const [record, said] of cases) {
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
      for (const [record, said] of cases) {
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
}
