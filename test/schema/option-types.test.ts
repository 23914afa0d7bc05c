import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngineFromFile } from '../../src/data/read-engine.js';
import { readVenues, type ReadVenuesOptions } from '../../src/data/read-venues.js';
import { createEngine, type AtInstant, type EngineOptions, type SearchCallOptions, type WarmOptions } from '../../src/engine.js';
import { readSnapshot, type SnapshotReadOptions } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot, type WriteSnapshotOptions } from '../../src/snapshot/write-snapshot.js';
import { FIXTURES_PATH, loadFixtureVenues } from '../search/support.js';

/**
 * The call-option types take `undefined` for every optional key, as the calls do at run time
 * (audit 63c F9): a service forwarding optional request values need not build each options
 * object conditionally. The project compiles with `exactOptionalPropertyTypes`, as a strict
 * consumer may, and `npm test` type-checks this file: the objects below compile only if the
 * types allow `undefined` there. The runtime half shows `undefined` is taken as left out: each
 * answer equals the one without the option (hand-written defaults: limit 20, offset 0).
 */
const dir = mkdtempSync(join(tmpdir(), 'option-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An optional request value, as a service has it (a query parameter left out). */
const absent = (): number | undefined => undefined;
const now = Date.UTC(2026, 0, 7, 19, 30);

const searchOptions: SearchCallOptions = { now: absent(), limit: absent(), offset: absent() };
const atInstant: AtInstant = { now: absent() };
const warmOptions: WarmOptions = { forChanges: undefined };
const engineOptions: EngineOptions = { validate: undefined, places: undefined, recordCacheSize: absent() };
const readOptions: ReadVenuesOptions = { format: undefined, onInvalid: undefined, onProgress: undefined, name: undefined, threads: absent() };
const snapshotOptions: SnapshotReadOptions = { places: undefined, recordCacheSize: absent() };
const writeOptions: WriteSnapshotOptions = { onProgress: undefined, writtenBy: undefined };

describe('call options: undefined is left out, in the types and at run time', () => {
  const venues = loadFixtureVenues();
  const engine = createEngine(venues);
  const body = { locations: [{ lat: 51.5136, lon: -0.1319 }], mode: { mode: 'POINT', maxDistance: 3000 } };

  it('search, find, details and warm', () => {
    const withNow = engine.search(body, { ...searchOptions, now });
    expect(withNow.establishments).toHaveLength(20); // the default page size
    expect(withNow).toEqual(engine.search(body, { now }));
    expect(withNow).toEqual(engine.search(body, { now, limit: 20, offset: 0 }));
    const id = venues[0]!.id;
    expect(engine.basic(id, atInstant).id).toBe(id);
    expect(engine.find({ q: 'coffee' }, { ...atInstant, now })).toEqual(engine.find({ q: 'coffee' }, { now }));
    expect(engine.warm(warmOptions)).toBe(engine);
  });

  it('createEngine, readVenues, createEngineFromFile, writeSnapshot and readSnapshot', async () => {
    const built = createEngine(venues, engineOptions);
    expect(built.search(body, { now })).toEqual(engine.search(body, { now }));
    expect(built.hasDefaultPlaces).toBe(true); // places: undefined is the default resolver, not null
    const read = await readVenues(FIXTURES_PATH, readOptions);
    expect(read.venues).toEqual(readFileSync(FIXTURES_PATH, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown));
    const fromFile = await createEngineFromFile(FIXTURES_PATH, { ...readOptions, ...snapshotOptions });
    expect(fromFile.engine.search(body, { now })).toEqual(engine.search(body, { now }));
    const path = join(dir, 'fixtures.vsnap');
    writeSnapshot(engine, path, writeOptions);
    expect(readSnapshot(path, snapshotOptions).search(body, { now })).toEqual(engine.search(body, { now }));
  });
});
