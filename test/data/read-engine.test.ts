// createEngineFromFile builds the engine while it reads, never keeping the records as objects.
// It must give what `createEngine(readVenues(...).venues)` gives: the same store (columns,
// dictionaries, compact records), the same answers, and the same first error, rejects and
// line numbers as readVenues, at 1, 2 and 3 threads. The bundled fixtures (3,000 lines, about
// 7 MB: several 1 MB blocks) are used, with bad lines placed in different blocks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { badRows, errorOf, fixtureFolder, fixtureLines } from './support/fixture-files.js';
import { createEngineFromFile } from '../../src/data/read-engine.js';
import { readVenues, type ReadVenuesResult } from '../../src/data/read-venues.js';
import { forEachLine, lineCount } from '../../src/data/ndjson-lines.js';
import { createEngine, Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { encodedVenues, VenueEncoder } from '../../src/store/venue-encoder.js';
import { VenueStoreBuilder } from '../../src/store/venue-store-builder.js';
import { prng } from '../support/oracle.js';

const lines = fixtureLines;
const { dir, write } = fixtureFolder('read-engine-');
const NOW = Date.UTC(2026, 10, 21, 19, 30);

function expectSameEngine(engine: Engine, oracle: Engine): void {
  const a = engine.store;
  const b = oracle.store;
  expect(a.size).toBe(b.size);
  for (const column of ['lat', 'lon', 'chain', 'caters', 'primaryGenre', 'termStart', 'termCodes', 'vibeStart', 'vibeCodes'] as const) {
    expect(Array.from(a[column]), column).toEqual(Array.from(b[column]));
  }
  expect(a.terms.words).toEqual(b.terms.words);
  expect(a.vibes.words).toEqual(b.vibes.words);
  expect(a.genreSpellings).toEqual(b.genreSpellings);
  for (let i = 0; i < b.size; i++) {
    expect(JSON.stringify(a.record(i))).toBe(JSON.stringify(b.record(i)));
    expect(a.indexOf(b.id(i))).toBe(i);
  }
  const rnd = prng(7);
  for (let q = 0; q < 20; q++) {
    const v = b.record(Math.floor(rnd() * b.size));
    const [lat, lon] = v.location.coordinates;
    const body = { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 500 + rnd() * 3000 }, preferences: q % 2 === 0 ? {} : { vibes: ['cosy'], catersFilters: ['vegan'] } };
    expect(engine.search(body, { now: NOW })).toEqual(oracle.search(body, { now: NOW }));
  }
  expect(engine.find({ q: b.name(11) }, { now: NOW })).toEqual(oracle.find({ q: b.name(11) }, { now: NOW }));
}

/** The rejects as a user reads them. */
function rejectSummary(rejects: ReadVenuesResult['rejects']) {
  return rejects.map((r) => ({ line: r.line, recordId: r.recordId, code: r.error.code, message: r.error.message, param: r.error.param, value: r.error.value }));
}

/** In skip mode at 1, 2 and 3 threads, createEngineFromFile rejects what readVenues (`read`) rejected and builds over the records it kept. */
async function expectSkipModeAsRead(path: string, read: ReadVenuesResult): Promise<void> {
  const oracle = createEngine(read.venues, { validate: false });
  for (const threads of [1, 2, 3]) {
    const { engine, rejects } = await createEngineFromFile(path, { threads, onInvalid: 'skip' });
    expect(rejectSummary(rejects)).toEqual(rejectSummary(read.rejects));
    expectSameEngine(engine, oracle);
  }
}

describe('createEngineFromFile', () => {
  it('builds the engine createEngine builds over the records readVenues reads, at 1, 2 and 3 threads', async () => {
    const path = write('ok.ndjson', lines);
    const oracle = createEngine((await readVenues(path)).venues, { validate: false });
    for (const threads of [1, 2, 3]) {
      const { engine, rejects, format } = await createEngineFromFile(path, { threads });
      expect(format).toBe('ndjson');
      expect(rejects).toEqual([]);
      expectSameEngine(engine, oracle);
    }
  }, 120_000);

  it('throws the error readVenues throws (line, field, value), at 1, 2 and 3 threads', async () => {
    const path = write('bad.ndjson', badRows());
    const expected = await errorOf(readVenues(path));
    expect(expected).toMatchObject({ code: 'invalid_venue', line: 501, param: 'isChain', value: 'yes' });
    for (const threads of [1, 2, 3]) expect(await errorOf(createEngineFromFile(path, { threads }))).toEqual(expected);
  }, 60_000);

  it('in skip mode rejects what readVenues rejects and builds over the records it keeps', async () => {
    const path = write('bad.ndjson', badRows());
    const read = await readVenues(path, { onInvalid: 'skip' });
    expect(read.rejects.map((r) => [r.line, r.error.code])).toEqual([
      [501, 'invalid_venue'],
      [1501, 'invalid_data'],
      [2501, 'duplicate_id'],
    ]);
    await expectSkipModeAsRead(path, read);
  }, 120_000);

  it('numbers lines as readVenues does across blank lines and a last line without a line feed, at 1, 2 and 3 threads', async () => {
    // blank lines in the first blocks shift every later number; the last line (no line feed)
    // is bad, and so is one held back while an earlier block waits for its verdict
    const rows = badRows();
    rows.splice(200, 0, '', '   ');
    rows.splice(1200, 0, '');
    const last = JSON.parse(rows[rows.length - 1]!) as Record<string, unknown>;
    last.isChain = 'no';
    rows[rows.length - 1] = JSON.stringify(last);
    const path = join(dir, 'no-final-line-feed.ndjson');
    writeFileSync(path, rows.join('\n'));
    const read = await readVenues(path, { onInvalid: 'skip' });
    expect(read.rejects.map((r) => [r.line, r.error.code])).toEqual([
      [503, 'invalid_venue'],
      [1504, 'invalid_data'],
      [2504, 'duplicate_id'],
      [rows.length, 'invalid_venue'],
    ]);
    await expectSkipModeAsRead(path, read);
  }, 120_000);

  it('reads a JSON array and a stream as readVenues does; empty input gives an empty engine', async () => {
    const records = lines.slice(0, 200).map((l) => JSON.parse(l) as unknown);
    const path = join(dir, 'some.json');
    writeFileSync(path, JSON.stringify(records, null, 1));
    const { engine, format } = await createEngineFromFile(path);
    expect(format).toBe('json');
    expectSameEngine(engine, createEngine((await readVenues(path)).venues));
    async function* chunks() {
      yield lines.slice(0, 50).join('\n');
    }
    expect((await createEngineFromFile(chunks(), { name: 'stream' })).engine.size).toBe(50);
    expect((await createEngineFromFile(write('empty.ndjson', []))).engine.size).toBe(0);
  }, 60_000);
});

describe('recordCacheSize of an engine built from records (createEngine, createEngineFromFile)', () => {
  const venues = lines.slice(0, 200).map((l) => JSON.parse(l) as VenueRecord);
  /** Whether venue 0's record, read again after venue 1's, is the object kept from the first read (a cache of one entry keeps only the last). */
  const keepsTwo = (engine: Engine) => {
    const first = engine.store.record(0);
    engine.store.record(1);
    return engine.store.record(0) === first;
  };

  it('is applied: a cache of one entry keeps one decoded record, the default keeps more', async () => {
    expect(keepsTwo(createEngine(venues))).toBe(true);
    expect(keepsTwo(createEngine(venues, { recordCacheSize: 1 }))).toBe(false);
    expect(keepsTwo(createEngine(venues, { recordCacheSize: 2 }))).toBe(true);
    const path = write('two-hundred.ndjson', lines.slice(0, 200));
    expect(keepsTwo((await createEngineFromFile(path, { recordCacheSize: 1 })).engine)).toBe(false);
    expect(keepsTwo((await createEngineFromFile(path, { recordCacheSize: 2, threads: 2 })).engine)).toBe(true);
  });

  it('is refused as readSnapshot refuses it: a power of two from 1 to 65536', async () => {
    const path = write('one.ndjson', lines.slice(0, 1));
    for (const bad of [3, -7, 0, 131_072, 'big', Number.NaN]) {
      const refused = { code: 'invalid_request', param: 'recordCacheSize', value: bad, message: `recordCacheSize must be a power of two from 1 to 65536; got ${typeof bad === 'string' ? `"${bad}"` : String(bad)}` };
      expect(() => createEngine(venues, { recordCacheSize: bad as number })).toThrow(expect.objectContaining({ name: 'VenueSearchError', ...refused }));
      expect(await errorOf(createEngineFromFile(path, { recordCacheSize: bad as number }))).toMatchObject(refused);
    }
  });
});

describe('VenueStoreBuilder.addEncoded', () => {
  it('builds from records encoded apart, block by block, the store addNew builds from the records themselves', () => {
    const records = lines.slice(0, 1200).map((l) => JSON.parse(l) as VenueRecord);
    // more words than the compact builder reports for a record (64): the store reads them from the record
    const many = { ...records[7]!, id: 'many-words', vibes: Array.from({ length: 70 }, (_, k) => `vibe ${k}`), catersFlags: ['vegan'] };
    records.splice(300, 0, many);
    records.splice(900, 0, { ...records[5]!, isChain: true }); // a repeated id: refused both ways
    const direct = new VenueStoreBuilder(16);
    const firstOfDirect = records.map((r) => direct.addNew(r));
    const apart = new VenueStoreBuilder(16);
    const firstOfApart: number[] = [];
    // blocks of uneven sizes, each encoded in dictionaries of its own
    for (let from = 0, size = 1; from < records.length; from += size, size = size * 3 + 1) {
      const block = records.slice(from, from + size);
      const encoder = new VenueEncoder(block.length, 4096);
      for (const r of block) encoder.add(r);
      const venues = encodedVenues(encoder.finish());
      for (let k = 0; k < block.length; k++) firstOfApart.push(apart.addEncoded(venues, k));
      apart.release(venues);
    }
    expect(firstOfApart).toEqual(firstOfDirect);
    expect(firstOfDirect.filter((f) => f >= 0)).toEqual([5]);
    const engine = new Engine(apart);
    const oracle = new Engine(direct);
    expectSameEngine(engine, oracle);
    const i = oracle.store.indexOf('many-words');
    expect(engine.search({ locations: [{ lat: oracle.store.lat[i]!, lon: oracle.store.lon[i]! }], mode: { mode: 'POINT', maxDistance: 200 }, preferences: { vibes: ['vibe 69'], catersFilters: ['vegan'] } }, { now: NOW }).establishments[0]!.id).toBe('many-words');
  });
});

describe('forEachLine', () => {
  it('gives the lines and numbers a split on line feeds gives, over runs decoded at once (multi-byte text across 1 MB)', () => {
    const rnd = prng(3);
    const words = ['Crêperie', 'Zürich 🍺', 'plain', '', '   ', 'Café "x"', '東京'];
    const rows: string[] = [];
    for (let size = 0; size < 3.5 * 2 ** 20; ) {
      const row = Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => words[Math.floor(rnd() * words.length)]!).join(' ');
      rows.push(row);
      size += Buffer.byteLength(row) + 1;
    }
    const bytes = Buffer.from(`${rows.join('\n')}\nlast line without a feed`);
    const seen: [string, number][] = [];
    const count = forEachLine(bytes, 10, (text, line) => seen.push([text, line]));
    const all = [...rows, 'last line without a feed'];
    expect(count).toBe(all.length);
    expect(lineCount(bytes)).toBe(all.length);
    expect(lineCount(Buffer.from(`${rows.join('\n')}\n`))).toBe(rows.length);
    expect(lineCount(Buffer.alloc(0))).toBe(0);
    expect(seen).toEqual(all.map((text, k) => [text, k + 10] as [string, number]).filter(([text]) => text.trim() !== ''));
  });

  it('gives what a decoder of the whole input gives when most lines are ASCII and a few are not (Latin-1 runs, lines decoded alone, bad bytes)', () => {
    const rnd = prng(17);
    const ascii = (length: number) => Array.from({ length }, () => String.fromCharCode(32 + Math.floor(rnd() * 95))).join('');
    // Bytes of 0x80 or more: text of 2, 3 and 4 bytes, and bytes that are not UTF-8 (a lone
    // continuation, 0xFF, a sequence cut short at the line's end).
    const wide = [Buffer.from('é'), Buffer.from('東'), Buffer.from('🍺'), Buffer.from([0x80]), Buffer.from([0xff]), Buffer.from([0xe6, 0x9d])];
    const parts: Buffer[] = [];
    let size = 0;
    while (size < 2.6 * 2 ** 20) {
      const roll = rnd();
      // long ASCII lines cross the native probe's 4 KB blocks and the 1 MB runs
      const head = ascii(roll < 0.02 ? 5000 + Math.floor(rnd() * 9000) : Math.floor(rnd() * 300));
      const line =
        roll < 0.1 ? Buffer.concat([Buffer.from(head), wide[Math.floor(rnd() * wide.length)]!, Buffer.from(ascii(Math.floor(rnd() * 20)))])
        : roll < 0.12 ? Buffer.from(rnd() < 0.5 ? '' : '  \t')
        : Buffer.from(rnd() < 0.05 ? `${head}\r` : head);
      parts.push(line, Buffer.from('\n'));
      size += line.length + 1;
    }
    for (const last of [Buffer.from('last é'), Buffer.from('last ascii'), Buffer.alloc(0)]) {
      const bytes = Buffer.concat([...parts, last]);
      const whole = new TextDecoder().decode(bytes).split('\n');
      if (last.length === 0) whole.pop();
      const seen: [string, number][] = [];
      const count = forEachLine(bytes, 1, (text, line) => seen.push([text, line]));
      expect(count).toBe(whole.length);
      expect(seen).toEqual(whole.map((text, k) => [text, k + 1] as [string, number]).filter(([text]) => text.trim() !== ''));
    }
    expect(forEachLine(Buffer.alloc(0), 1, () => expect.unreachable())).toBe(0);
  });
});
