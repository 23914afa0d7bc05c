// What the published vocabulary and error messages say about values a caller can meet (audit
// 61d): a data word with no letter or digit is not listed as a filter (a search cannot ask for
// ""), and a Date, a Set or a Map given where a value is checked is named as such, not as its
// JSON ("2026-...", {}).
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { describeValue } from '../../src/errors.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const at = { type: 'Point', coordinates: [51.5, -0.12] } as const;

describe('published words', () => {
  it('a flag or vibe of no letter or digit is not in the vocabulary, before and after live changes; every listed word can be asked for', () => {
    const engine = createEngine([{ id: 'a', name: 'A', location: at, establishmentFlags: ['  ', 'servesBrunch'], vibes: ['!!', 'cosy'] } as VenueRecord]);
    const check = (): void => {
      const v = engine.vocabulary();
      expect(v.establishmentFilters).not.toContain('');
      expect(v.vibes).not.toContain('');
      expect(v.establishmentFilters).toContain('serves_brunch');
      for (const word of v.establishmentFilters) {
        expect(() => engine.search({ locations: [{ lat: 51.5, lon: -0.12 }], mode: { mode: 'POINT', maxDistance: 100 }, preferences: { establishmentFilters: [word] } }, { now: 0 }), word).not.toThrow();
      }
    };
    check();
    engine.upsert([{ id: 'b', name: 'B', location: at, establishmentFlags: ['--'] } as VenueRecord]);
    check();
  });

  it('a filter word of no letter or digit is refused, naming it, even where a record holds such a word (audit 72c F5: "?" matched them)', () => {
    const records = [
      { id: 'a', name: 'A', location: at, establishmentFlags: ['  '], vibes: ['!!'] },
      { id: 'b', name: 'B', location: at },
    ] as VenueRecord[];
    const refusal = (engine: ReturnType<typeof createEngine>, preferences: object): string => {
      try {
        engine.search({ locations: [{ lat: 51.5, lon: -0.12 }], mode: { mode: 'POINT', maxDistance: 100 }, preferences: { ...preferences, nonCompromise: Object.keys(preferences) } }, { now: 0 });
      } catch (e) {
        return `${(e as { code?: string }).code} ${(e as { param?: string }).param}`;
      }
      return 'accepted';
    };
    const withWords = createEngine(records);
    // the oracle: an engine whose records hold no such word, which always refused them
    const without = createEngine([records[1]!]);
    for (const engine of [withWords, without]) {
      expect(refusal(engine, { establishmentFilters: ['?'] })).toBe('invalid_request preferences.establishmentFilters[0]');
      expect(refusal(engine, { vibes: ['  '] })).toBe('invalid_request preferences.vibes[0]');
    }
    // live: a word brought by an upsert
    withWords.upsert([{ id: 'c', name: 'C', location: at, vibes: ['--'] } as VenueRecord]);
    expect(refusal(withWords, { vibes: ['?'] })).toBe('invalid_request preferences.vibes[0]');
  });

  it('words in other scripts keep their letters: listed, asked for in any case, and matched (they used to normalise to "")', () => {
    const venues = [
      { id: 'a', name: 'A', location: at, primaryGenre: 'パン屋', establishmentFlags: ['Καφενείο'], vibes: ['居心地'] },
      { id: 'b', name: 'B', location: at, primaryGenre: 'Café', vibes: ['cosy'] },
    ] as VenueRecord[];
    const engine = createEngine(venues);
    const ids = (preferences: object): string[] =>
      engine.search({ locations: [{ lat: 51.5, lon: -0.12 }], mode: { mode: 'POINT', maxDistance: 100 }, preferences }, { now: 0 }).establishments.map((e) => e.id);
    const check = (): void => {
      const v = engine.vocabulary();
      // hand-normalised: Greek accents are U+0301 after NFKD, dropped as Latin ones are
      expect(v.establishmentFilters).toEqual(expect.arrayContaining(['パン屋', 'καφενειο', 'cafe']));
      expect(v.vibes).toContain('居心地');
      expect(ids({ establishmentFilters: ['パン屋'], nonCompromise: ['establishmentFilters'] })).toEqual(['a']);
      expect(ids({ establishmentFilters: ['ΚΑΦΕΝΕΊΟ'], nonCompromise: ['establishmentFilters'] })).toEqual(['a']);
      expect(ids({ vibes: ['居心地'], nonCompromise: ['vibes'] })).toEqual(['a']);
      expect(ids({ establishmentFilters: ['cafe'], nonCompromise: ['establishmentFilters'] })).toEqual(['b']);
    };
    check();
    engine.upsert([{ id: 'c', name: 'C', location: { type: 'Point', coordinates: [51.6, -0.12] }, vibes: ['Ζεστό'] } as VenueRecord]);
    check();
    expect(engine.vocabulary().vibes).toContain('ζεστο');
  });

  it('a Map, a Set, a Date or a class instance where the search wants an object is refused naming the field, never read as {} (audit 62a 7)', () => {
    const engine = createEngine([{ id: 'a', name: 'A', location: at, primaryGenre: 'pub' }, { id: 'b', name: 'B', location: at, primaryGenre: 'cafe' }] as VenueRecord[]);
    const base = { locations: [{ lat: 51.5, lon: -0.12 }], mode: { mode: 'POINT', maxDistance: 100 } };
    const refused = (body: unknown, options: unknown = { now: 0 }): [string, string | undefined] => {
      try {
        engine.search(body as never, options as never);
      } catch (e) {
        return [(e as Error).message, (e as { param?: string }).param];
      }
      return ['accepted', undefined];
    };
    class Prefs {
      establishmentFilters = ['pub'];
    }
    expect(refused({ ...base, preferences: new Map([['establishmentFilters', ['pub']]]) })).toEqual(['preferences must be a plain object (as JSON gives); got a Map of 1', 'preferences']);
    expect(refused({ ...base, preferences: new Prefs() })).toEqual(['preferences must be a plain object (as JSON gives); got a Prefs', 'preferences']);
    expect(refused({ ...base, mode: new Map([['mode', 'POINT']]) })).toEqual(['mode must be a plain object (as JSON gives); got a Map of 1', 'mode']);
    expect(refused(new Map())).toEqual(['body must be a plain object (as JSON gives); got a Map of 0', 'body']);
    expect(refused({ ...base, locations: [new Set()] })).toEqual(['locations[0] must be a plain object (as JSON gives); got a Set of 0', 'locations[0]']);
    expect(refused(base, new Map([['limit', 1]]))).toEqual(['options must be a plain object (or left out); got a Map of 1', 'options']);
    // a Date where a string is wanted keeps the schema's own words
    expect(refused({ ...base, preferences: { openingConditions: { state: 'OPEN', atTime: new Date(0) } } })[1]).toBe('preferences.openingConditions.atTime');
    expect(() => engine.find(new Map([['q', 'a']]) as never)).toThrow('params must be a plain object; got a Map of 1');
    // an object without a prototype is JSON's data too
    const bare = Object.assign(Object.create(null) as object, { establishmentFilters: ['pub'], nonCompromise: ['establishmentFilters'] });
    expect(engine.search({ ...base, preferences: bare } as never, { now: 0 }).establishments.map((e) => e.id)).toEqual(['a']);
    expect(() => createEngine(new Set() as never)).toThrow('createEngine expects an array of venue records; got a Set of 0 (spread it into one: [...records])');
  });

  it('a Date, a Set and a Map are described as what they are', () => {
    expect(describeValue(new Date(Date.UTC(2026, 10, 29, 20)))).toBe('a Date (2026-11-29T20:00:00.000Z)');
    expect(describeValue(new Date(Number.NaN))).toBe('a Date (invalid)');
    expect(describeValue(new Set(['a', 'b']))).toBe('a Set of 2');
    expect(describeValue(new Map())).toBe('a Map of 0');
    const engine = createEngine([{ id: 'a', name: 'A', location: at } as VenueRecord]);
    expect(() => engine.find({ q: 'a' }, { now: new Date(0) as never })).toThrow('options.now must be ms since the epoch in the years 100 to 9999; got a Date (1970-01-01T00:00:00.000Z)');
    expect(() => engine.remove(new Set(['a']) as never)).toThrow(/got a Set of 1/);
  });
});
