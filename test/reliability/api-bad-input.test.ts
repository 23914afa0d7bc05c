import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadFixtureVenues } from '../search/support.js';

/**
 * Bad input at the engine's API, as an embedding developer writes it by mistake: each is a
 * VenueSearchError with its code, the parameter at fault and the value in the message (the
 * README's promise), never a TypeError from inside or a raw system error.
 */
const dir = mkdtempSync(join(tmpdir(), 'api-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the engine API names what is wrong', () => {
  const engine = createEngine(loadFixtureVenues().slice(0, 50));

  it('readVenues(null) and readVenues(42): invalid_request, param source, the value named', async () => {
    await expect(readVenues(null as never)).rejects.toMatchObject({ code: 'invalid_request', param: 'source', message: expect.stringMatching(/must be a file path or an async iterable .*; got null$/) });
    await expect(readVenues(42 as never)).rejects.toMatchObject({ code: 'invalid_request', param: 'source', message: expect.stringMatching(/got 42$/) });
  });

  it('createEngine({}) and upsert("x"): invalid_data naming the parameter and the value', () => {
    expect(() => createEngine({} as never)).toThrow(expect.objectContaining({ code: 'invalid_data', param: 'venues', message: expect.stringMatching(/^createEngine expects an array of venue records; got /) }));
    expect(() => engine.upsert('x' as never)).toThrow(expect.objectContaining({ code: 'invalid_data', param: 'records', message: 'upsert expects an array of venue records; got "x"' }));
    expect(() => engine.remove('abc' as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'ids', message: 'remove expects an array of venue ids; got "abc"' }));
  });

  it('a duplicate id in createEngine names both records by line, as readVenues and upsert do', () => {
    const [a, b] = loadFixtureVenues();
    expect(() => createEngine([a!, b!, { ...b!, id: a!.id }])).toThrow(expect.objectContaining({ code: 'duplicate_id', line: 3, message: `line 3: duplicate venue id ${JSON.stringify(a!.id)} (first at line 1)` }));
  });

  it('basic(5): invalid_request for the id, not venue_not_found', () => {
    expect(() => engine.basic(5 as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'id', message: 'id must be a venue id (a string); got 5' }));
  });

  it('writeSnapshot with a misspelt option or no path: refused, naming it', () => {
    expect(() => writeSnapshot(engine, join(dir, 'x.vsnap'), { onProgres: () => {} } as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'options.onProgres' }));
    expect(() => writeSnapshot(engine, undefined as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'path', message: 'path must be the snapshot file to write; got undefined' }));
  });

  it('writeSnapshot to a folder: invalid_data naming the path, no raw EISDIR, no part file left', () => {
    expect(() => writeSnapshot(engine, dir)).toThrow(expect.objectContaining({ code: 'invalid_data', param: 'path', message: `cannot write snapshot ${dir}: it is a folder; give a file` }));
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`${basename(dir)}.`) && f.endsWith('.part'))).toEqual([]);
  });
});
