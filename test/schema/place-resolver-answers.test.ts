/**
 * A custom PlaceResolver's answers are checked before find uses them (audit 64a F13): suggest()
 * as resolve() is, since its names reach the unknown_place error's `suggestions` (documented
 * string[] in the HTTP envelope). Each bad answer is `invalid_data` naming `options.places`;
 * the expected messages are written by hand.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { PlaceResolver } from '../../src/places/place-resolver.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const venues: VenueRecord[] = [{ id: 'a', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5, -0.1] }, primaryGenre: 'pub' }];
const engineWith = (places: PlaceResolver) => createEngine(venues, { places });
const loose = <T>(value: unknown): T => value as T;

function errorOf(run: () => unknown): { name?: string; code?: string; param?: string; message: string; suggestions?: unknown } {
  try {
    run();
  } catch (err) {
    return err as { name?: string; code?: string; param?: string; message: string; suggestions?: unknown };
  }
  throw new Error('no error');
}

describe('suggest() answers are checked (audit 64a F13)', () => {
  const findWithSuggestions = (answer: unknown) => errorOf(() => engineWith({ resolve: () => null, suggest: () => loose(answer) }).find({ q: 'red', location: 'Nowhere' }, { now: 0 }));

  it.each([
    ['numbers, null, objects', [1, null, { a: 1 }], '[1,null,{"a":1}]', 'every name a non-empty string'],
    ['an empty name', ['Shoreditch', ''], '["Shoreditch",""]', 'every name a non-empty string'],
    ['a string, not an array', 'Shoreditch', '"Shoreditch"', 'an array of names'],
    ['more names than asked for', ['A', 'B', 'C', 'D'], '["A","B","C","D"]', 'at most 3 names (it was asked for 3)'],
    ['a Promise', Promise.resolve(['Shoreditch']), 'a Promise', 'to be given synchronously (suggest() returned a Promise; find does not wait)'],
  ])('%s is invalid_data naming options.places', (_label, answer, shown, need) => {
    expect(findWithSuggestions(answer)).toMatchObject({
      name: 'VenueSearchError',
      code: 'invalid_data',
      param: 'options.places',
      message: `the place resolver (options.places) suggested ${shown} for "Nowhere": its suggestions need ${need}`,
    });
  });

  it('good names are offered as they were given', () => {
    expect(findWithSuggestions(['Shoreditch', 'Horwich'])).toMatchObject({ code: 'unknown_place', suggestions: ['Shoreditch', 'Horwich'] });
    expect(findWithSuggestions([])).toMatchObject({ code: 'unknown_place', suggestions: [] });
  });
});

describe('resolve() answers: NaN shown as NaN, a Promise told to answer synchronously, an empty name refused (audit 64a F13)', () => {
  const findWith = (answer: unknown) => errorOf(() => engineWith({ resolve: () => loose(answer) }).find({ q: 'red', location: 'Anywhere' }, { now: 0 }));
  const prefix = 'the place resolver (options.places) answered';

  it('NaN', () => {
    expect(findWith({ name: 'X', lat: Number.NaN, lon: 0, kind: 'city' }).message).toBe(
      `${prefix} {"name":"X","lat":NaN,"lon":0,"kind":"city"} for "Anywhere": its answer needs lat a finite number from -90 to 90`,
    );
  });

  it('a Promise', () => {
    expect(findWith(Promise.resolve({ name: 'X', lat: 51.5, lon: -0.1, kind: 'city' }))).toMatchObject({
      code: 'invalid_data',
      param: 'options.places',
      message: `${prefix} a Promise for "Anywhere": its answer needs to be given synchronously (resolve() returned a Promise; find does not wait)`,
    });
  });

  it('an empty or blank name', () => {
    for (const name of ['', '  ']) {
      expect(findWith({ name, lat: 51.5, lon: -0.1, kind: 'city' })).toMatchObject({
        code: 'invalid_data',
        message: `${prefix} {"name":${JSON.stringify(name)},"lat":51.5,"lon":-0.1,"kind":"city"} for "Anywhere": its answer needs a non-empty string name`,
      });
    }
  });
});
