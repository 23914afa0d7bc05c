/**
 * The options objects of the public calls, as a JavaScript caller meets them (no compiler to
 * catch a typo): each mistake is a VenueSearchError naming the option and its value (the
 * expected messages are written by hand), never a TypeError from inside, and never an option
 * silently ignored. Walk-through of stop 32.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngineFromFile } from '../../src/data/read-engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const venues: VenueRecord[] = [
  { id: 'a', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5, -0.1] }, primaryGenre: 'pub' },
  { id: 'b', name: 'The Crown', location: { type: 'Point', coordinates: [51.501, -0.1] }, primaryGenre: 'pub' },
];
const engine = createEngine(venues);
const body = { locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 1000 } };
const loose = <T>(value: unknown): T => value as T;

function refusal(run: () => unknown, param: string, message: string): void {
  expect(run).toThrow(expect.objectContaining({ name: 'VenueSearchError', code: 'invalid_request', param, message }));
}

describe('engine calls refuse a bad options object, naming the option', () => {
  it('search: null, a misspelt key, a `now` outside the clocks', () => {
    refusal(() => engine.search(body, loose(null)), 'options', 'options must be a plain object (or left out); got null');
    refusal(() => engine.search(body, loose({ limt: 5 })), 'options.limt', 'options.limt is not an option of this call; did you mean "limit"? (its options: now, limit, offset); got 5');
    refusal(() => engine.search(body, { now: 1e20 }), 'options.now', 'options.now must be ms since the epoch in the years 100 to 9999; got 100000000000000000000');
    // the body's own atTime is named as such, apart
    expect(() => engine.search({ ...body, atTime: 'soon' }, {})).toThrow(expect.objectContaining({ param: 'atTime' }));
  });

  it('find: `now` not a number; an unknown parameter (radius) is named, not ignored', () => {
    refusal(() => engine.find({ q: 'red' }, { now: Number.NaN }), 'options.now', 'options.now must be ms since the epoch in the years 100 to 9999; got NaN');
    refusal(
      () => engine.find(loose({ q: 'red', radius: 5 })),
      'radius',
      'radius must be left out: it is not a find parameter; did you mean "maxDistanceMeters"? (they are q, name, lat, lon, location, maxDistanceMeters, limit, offset); got 5',
    );
  });

  it('basic and advanced: `now` NaN is refused as search refuses it', () => {
    refusal(() => engine.basic('a', { now: Number.NaN }), 'options.now', 'options.now must be ms since the epoch in the years 100 to 9999; got NaN');
    refusal(() => engine.advanced('a', loose({ when: 1 })), 'options.when', 'options.when is not an option of this call (its options: now); got 1');
  });

  it('valid options still answer: limit, now, and undefined values of known keys', () => {
    const now = Date.UTC(2026, 0, 5, 12);
    expect(engine.search(body, { now, limit: 1 }).establishments.map((e) => e.id)).toEqual(['a']);
    expect(engine.find({ q: 'red lion', lat: undefined }, { now }).establishments.map((e) => e.id)).toEqual(['a']);
    expect(engine.basic('b', { now }).id).toBe('b');
  });
});

describe('building and reading refuse bad options, naming them', () => {
  it('createEngine: places not a resolver, validate not a boolean, an unknown key', () => {
    refusal(() => createEngine(venues, loose({ places: 42 })), 'options.places', 'options.places must be a PlaceResolver, a function returning one, or null; got 42');
    refusal(() => createEngine(venues, loose({ validate: 'no' })), 'options.validate', 'options.validate must be true or false; got "no"');
    refusal(() => createEngine(venues, loose({ threads: 2 })), 'options.threads', 'options.threads is not an option of this call (its options: validate, places, recordCacheSize); got 2');
  });

  it('readVenues and createEngineFromFile: onInvalid and format values, unknown keys', async () => {
    const file = 'fixtures/venues.ndjson';
    await expect(readVenues(file, loose({ onInvalid: 'bogus' }))).rejects.toThrow(
      expect.objectContaining({ param: 'options.onInvalid', message: 'options.onInvalid must be "throw" or "skip"; got "bogus"' }),
    );
    await expect(readVenues(file, loose({ format: 'csv' }))).rejects.toThrow(expect.objectContaining({ param: 'options.format' }));
    await expect(readVenues(file, loose({ validate: false }))).rejects.toThrow(expect.objectContaining({ param: 'options.validate' }));
    await expect(createEngineFromFile(file, loose({ onInvalid: 'ignore' }))).rejects.toThrow(expect.objectContaining({ param: 'options.onInvalid' }));
    await expect(createEngineFromFile(file, loose({ place: null }))).rejects.toThrow(expect.objectContaining({ param: 'options.place' }));
  });

  it('readSnapshot: a bad places option is named before the file is read', () => {
    refusal(() => readSnapshot('no-such.vsnap', loose({ places: 'world' })), 'options.places', 'options.places must be a PlaceResolver, a function returning one, or null; got "world"');
  });
});
