/**
 * A custom PlaceResolver's answers are checked before find uses them (audit 64a F13): suggest()
 * as resolve() is, since its names reach the unknown_place error's `suggestions` (documented
 * string[] in the HTTP envelope). Each bad answer is `invalid_data` naming `options.places`;
 * the expected messages are written by hand.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { PlaceResolver } from '../../src/places/place-resolver.js';
import { ResolvedPlaceSchema } from '../../src/schema/find.js';
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
    // audit 65a F11: a newline reached the one-line message
    ['a newline in a name', ['Shore\nditch'], '["Shore\\nditch"]', 'names without control characters (a newline, a tab)'],
    ['a tab in a name', ['Shoreditch\t'], '["Shoreditch\\t"]', 'names without control characters (a newline, a tab)'],
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

  // audit 65a F11: 'did you mean "Shoreditch" or "Shoreditch"?'
  it('a name given twice is offered once, the first in its place', () => {
    expect(findWithSuggestions(['Shoreditch', 'Horwich', 'Shoreditch'])).toMatchObject({
      code: 'unknown_place',
      suggestions: ['Shoreditch', 'Horwich'],
      message: 'location "Nowhere" is not a place we know; did you mean "Shoreditch" or "Horwich"?',
    });
  });
});

// audit 65a F11: a suggest that is not a function passed createEngine, and the first unknown
// place was a bare TypeError ("resolver?.suggest is not a function"), a 500 over HTTP
describe('createEngine checks a PlaceResolver object: resolve and suggest functions', () => {
  const createWith = (places: unknown) => errorOf(() => createEngine(venues, { places: loose<PlaceResolver>(places) }));

  it.each([
    ['a string', 'notfn', '"notfn"'],
    ['a list of names', ['Soho'], '["Soho"]'],
    ['null', null, 'null'],
  ])('suggest given as %s is invalid_request naming options.places.suggest', (_label, suggest, shown) => {
    expect(createWith({ resolve: () => null, suggest })).toMatchObject({
      name: 'VenueSearchError',
      code: 'invalid_request',
      param: 'options.places.suggest',
      message: `options.places.suggest must be a function (or left out); got ${shown}`,
    });
  });

  it('resolve not a function is refused as before; suggest left out, or undefined, is accepted', () => {
    expect(createWith({ resolve: 'x' })).toMatchObject({ code: 'invalid_request', param: 'options.places', message: 'options.places must be a PlaceResolver, a function returning one, or null; got {"resolve":"x"}' });
    for (const places of [{ resolve: () => null }, { resolve: () => null, suggest: undefined }]) {
      expect(errorOf(() => createEngine(venues, { places: loose<PlaceResolver>(places) }).find({ q: 'red', location: 'Nowhere' }, { now: 0 }))).toMatchObject({ code: 'unknown_place', suggestions: [] });
    }
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

  // audit 65a F11: "yes" was dropped silently
  it('approximate not a boolean', () => {
    expect(findWith({ name: 'X', lat: 51.5, lon: -0.1, kind: 'city', approximate: 'yes' })).toMatchObject({
      code: 'invalid_data',
      param: 'options.places',
      message: `${prefix} {"name":"X","lat":51.5,"lon":-0.1,"kind":"city","approximate":"yes"} for "Anywhere": its answer needs approximate true or false when given`,
    });
    for (const approximate of [true, false]) {
      expect(createEngine(venues, { places: { resolve: () => ({ name: 'X', lat: 51.5, lon: -0.1, kind: 'city', approximate }) } }).find({ q: 'red', location: 'X' }, { now: 0 }).resolvedPlace).toEqual({
        name: 'X',
        kind: 'city',
        Lat: 51.5,
        Lon: -0.1,
        ...(approximate ? { approximate: true } : {}),
      });
    }
  });

  it('area and otherPlaces: passed on when well formed; more than 3 other places, or a blank one, refused', () => {
    const place = { name: 'X', lat: 51.5, lon: -0.1, kind: 'city' };
    expect(createEngine(venues, { places: { resolve: () => ({ ...place, area: 'Kent', otherPlaces: ['X, Essex'] }) } }).find({ q: 'red', location: 'X' }, { now: 0 }).resolvedPlace).toEqual({
      name: 'X',
      kind: 'city',
      Lat: 51.5,
      Lon: -0.1,
      area: 'Kent',
      otherPlaces: ['X, Essex'],
    });
    expect(createEngine(venues, { places: { resolve: () => ({ ...place, otherPlaces: [] }) } }).find({ q: 'red', location: 'X' }, { now: 0 }).resolvedPlace).toEqual({ name: 'X', kind: 'city', Lat: 51.5, Lon: -0.1 });
    expect(findWith({ ...place, otherPlaces: ['A', 'B', 'C', 'D'] }).message).toBe(
      `${prefix} {"name":"X","lat":51.5,"lon":-0.1,"kind":"city","otherPlaces":["A","B","C","D"]} for "Anywhere": its answer needs otherPlaces an array of at most 3 non-empty strings when given`,
    );
    expect(findWith({ ...place, area: ' ' }).message).toBe(`${prefix} {"name":"X","lat":51.5,"lon":-0.1,"kind":"city","area":" "} for "Anywhere": its answer needs area a non-empty string when given`);
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

describe('the published schema of resolvedPlace (ajv, a third-party validator): area and otherPlaces are never empty (audit 67f F4)', () => {
  const check = new Ajv2020({ strict: false }).compile(ResolvedPlaceSchema);
  const place = { name: 'Newport', kind: 'city', Lat: 51.58774, Lon: -2.99835 };

  it('accepts the documented answer, and refuses an empty area, an empty list or an empty name in it', () => {
    expect(check({ ...place, area: 'Wales', otherPlaces: ['Newport, Isle of Wight'] })).toBe(true);
    expect(check({ ...place, area: '' })).toBe(false);
    expect(check({ ...place, otherPlaces: [] })).toBe(false);
    expect(check({ ...place, otherPlaces: [''] })).toBe(false);
    expect(check({ ...place, otherPlaces: ['a', 'b', 'c', 'd'] })).toBe(false);
  });
});
