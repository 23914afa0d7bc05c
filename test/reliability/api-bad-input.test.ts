import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
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

  it('createEngine({}): invalid_data; upsert("x") and remove("abc"): both invalid_request; each naming the parameter and the value', () => {
    expect(() => createEngine({} as never)).toThrow(expect.objectContaining({ code: 'invalid_data', param: 'venues', message: expect.stringMatching(/^createEngine expects an array of venue records; got /) }));
    expect(() => engine.upsert('x' as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'records', message: 'upsert expects an array of venue records; got "x"' }));
    expect(() => engine.prepareUpsert({ id: 'a' } as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'records' }));
    expect(() => engine.remove('abc' as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'ids', message: 'remove expects an array of venue ids; got "abc"' }));
  });

  it('a missing snapshot names its file in `file`, as readVenues does for a missing venue file', async () => {
    const missing = join(dir, 'no-such.vsnap');
    expect(() => readSnapshot(missing)).toThrow(expect.objectContaining({ code: 'invalid_data', file: missing, param: 'path', value: missing }));
    await expect(readVenues(join(dir, 'no-such.ndjson'))).rejects.toMatchObject({ code: 'invalid_data', file: join(dir, 'no-such.ndjson') });
    expect(() => readSnapshot(dir)).toThrow(expect.objectContaining({ code: 'invalid_data', file: dir }));
  });

  it('readVenues names options.threads as it names its other options', async () => {
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, `${JSON.stringify(loadFixtureVenues()[0])}\n`);
    await expect(readVenues(file, { threads: 0 })).rejects.toMatchObject({ code: 'invalid_request', param: 'options.threads', message: 'options.threads must be an integer from 1 to 64; got 0' });
  });

  it("a prepared upsert's second apply() says it was applied already, and changes nothing", () => {
    const e = createEngine(loadFixtureVenues().slice(0, 5));
    const prepared = e.prepareUpsert([{ ...loadFixtureVenues()[9]!, id: 'new-one' }]);
    expect(prepared.apply()).toEqual({ inserted: 1, replaced: 0 });
    expect(() => prepared.apply()).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('already applied') as unknown }));
    e.compact();
    expect(() => prepared.apply()).toThrow(expect.objectContaining({ message: expect.stringContaining('already applied') as unknown }));
    expect([e.size, e.pendingChanges]).toEqual([6, 0]);
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

  it('readSnapshot with a path that is not a string: invalid_request naming path, not invalid_data with Node\'s words (audit 72c F6)', () => {
    expect(() => readSnapshot(5 as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'path', message: 'path must be the snapshot file to read; got 5' }));
    expect(() => readSnapshot({ path: 'x' } as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'path' }));
    expect(() => readSnapshot('' as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'path' }));
    // a misspelt option is offered readSnapshot's own options, not `validate`, which it refuses
    expect(() => readSnapshot(join(dir, 'x.vsnap'), { bogus: 1 } as never)).toThrow('options.bogus is not an option of this call (its options: places, recordCacheSize); got 1');
    expect(() => readSnapshot(join(dir, 'x.vsnap'), { validate: true } as never)).toThrow(/^options.validate is not an option of readSnapshot/);
  });

  it('writeSnapshot to a folder: invalid_data naming the path, no raw EISDIR, no part file left', () => {
    expect(() => writeSnapshot(engine, dir)).toThrow(expect.objectContaining({ code: 'invalid_data', file: dir, param: 'path', message: `cannot write snapshot ${dir}: it is a folder; give a file` }));
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`${basename(dir)}.`) && f.endsWith('.part'))).toEqual([]);
  });
});
