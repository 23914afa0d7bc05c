// Request validation: every bad input is a VenueSearchError naming the field path and the
// value; limits are `limit_exceeded`; vocabulary words match case- and style-insensitively.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createSearchService } from '../../src/search/index.js';

const venues: VenueRecord[] = [
  { id: 'a', name: 'Bean There', location: { type: 'Point', coordinates: [51.5136, -0.1365] }, primaryGenre: 'Coffee Shop', catersFlags: ['vegan'], vibes: ['Cosy'] },
  { id: 'b', name: 'The Crown', location: { type: 'Point', coordinates: [51.514, -0.137] }, primaryGenre: 'pub', establishmentFlags: ['freeWifi'], isChain: true },
];
const engine = createEngine(venues);
const service = createSearchService(engine.store, engine.spatial);
const NOW = Date.UTC(2026, 10, 21, 12);
const ok = { locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 500 } };

function errorOf(body: unknown, options: { limit?: number; offset?: number; now?: number } = {}): VenueSearchError {
  try {
    service.search(body, { now: NOW, ...options });
  } catch (e) {
    if (e instanceof VenueSearchError) return e;
    throw e;
  }
  throw new Error(`expected an error for ${JSON.stringify(body)}`);
}

const cases: Array<[string, unknown, string, string]> = [
  ['no locations', { ...ok, locations: [] }, 'invalid_request', 'locations'],
  ['locations missing', { mode: ok.mode }, 'invalid_request', 'locations'],
  ['latitude 91', { ...ok, locations: [{ lat: 51, lon: 0 }, { lat: 51, lon: 0 }, { lat: 91, lon: 0 }] }, 'invalid_request', 'locations[2].lat'],
  ['longitude -180.5', { ...ok, locations: [{ lat: 51, lon: -180.5 }] }, 'invalid_request', 'locations[0].lon'],
  ['latitude NaN', { ...ok, locations: [{ lat: Number.NaN, lon: 0 }] }, 'invalid_request', 'locations[0].lat'],
  ['latitude a string', { ...ok, locations: [{ lat: '51.5', lon: 0 }] }, 'invalid_request', 'locations[0].lat'],
  ['weight negative', { ...ok, locations: [{ lat: 51, lon: 0, weight: -1 }] }, 'invalid_request', 'locations[0].weight'],
  ['weight Infinity', { ...ok, locations: [{ lat: 51, lon: 0, weight: Number.POSITIVE_INFINITY }] }, 'invalid_request', 'locations[0].weight'],
  ['all weights zero', { ...ok, locations: [{ lat: 51, lon: 0, weight: 0 }, { lat: 51.1, lon: 0, weight: 0 }] }, 'invalid_request', 'locations'],
  ['duplicate labels', { ...ok, locations: [{ lat: 51, lon: 0, label: 'amy' }, { lat: 51, lon: 0, label: 'amy' }] }, 'invalid_request', 'locations[1].label'],
  // the field named is the label given, not the unlabelled location whose index it equals
  ['a label equal to a later location index', { ...ok, locations: [{ lat: 51, lon: 0, label: '1' }, { lat: 51, lon: 0 }] }, 'invalid_request', 'locations[0].label'],
  ['a label equal to an earlier location index', { ...ok, locations: [{ lat: 51, lon: 0 }, { lat: 51, lon: 0, label: '0' }] }, 'invalid_request', 'locations[1].label'],
  ['unknown location field', { ...ok, locations: [{ lat: 51, lon: 0, height: 3 }] }, 'invalid_request', 'locations[0].height'],
  ['101 locations', { ...ok, locations: Array.from({ length: 101 }, () => ({ lat: 51, lon: 0 })) }, 'limit_exceeded', 'locations'],
  ['mode WALK', { ...ok, mode: { mode: 'WALK', maxDistance: 10 } }, 'invalid_request', 'mode.mode'],
  ['maxDistance 0', { ...ok, mode: { mode: 'POINT', maxDistance: 0 } }, 'invalid_request', 'mode.maxDistance'],
  ['maxDistance above the POINT limit', { ...ok, mode: { mode: 'POINT', maxDistance: 50_001 } }, 'limit_exceeded', 'mode.maxDistance'],
  ['PATH maxDistance above the PATH limit', { ...ok, locations: [{ lat: 51, lon: 0 }, { lat: 51.1, lon: 0 }], mode: { mode: 'PATH', maxDistance: 10_001 } }, 'limit_exceeded', 'mode.maxDistance'],
  ['unknown preference key', { ...ok, preferences: { vibe: ['cosy'] } }, 'invalid_request', 'preferences.vibe'],
  ['unknown nonCompromise name', { ...ok, preferences: { nonCompromise: ['price'] } }, 'invalid_request', 'preferences.nonCompromise[0]'],
  ['unknown establishment filter', { ...ok, preferences: { establishmentFilters: ['pub', 'nightclub'] } }, 'invalid_request', 'preferences.establishmentFilters[1]'],
  ['unknown caters filter', { ...ok, preferences: { catersFilters: ['carnivore'] } }, 'invalid_request', 'preferences.catersFilters[0]'],
  ['unknown vibe', { ...ok, preferences: { vibes: ['gloomy'] } }, 'invalid_request', 'preferences.vibes[0]'],
  ['unknown chain preference', { ...ok, preferences: { chainPreference: 'PREFER_BIG' } }, 'invalid_request', 'preferences.chainPreference'],
  ['opening state missing', { ...ok, preferences: { openingConditions: {} } }, 'invalid_request', 'preferences.openingConditions.state'],
  ['atTime not a timestamp', { ...ok, preferences: { openingConditions: { state: 'OPEN', atTime: 'tonight' } } }, 'invalid_request', 'preferences.openingConditions.atTime'],
  ['atTime in the year 1 (before the years accepted)', { ...ok, preferences: { openingConditions: { state: 'OPEN', atTime: '0001-01-01T12:00:00Z' } } }, 'invalid_request', 'preferences.openingConditions.atTime'],
  ['atTime on 30 February', { ...ok, preferences: { openingConditions: { state: 'OPEN', atTime: '2026-02-30T20:00:00Z' } } }, 'invalid_request', 'preferences.openingConditions.atTime'],
  ['atTime without a UTC designator', { ...ok, preferences: { openingConditions: { state: 'OPEN', atTime: '2026-11-21T20:00:00' } } }, 'invalid_request', 'preferences.openingConditions.atTime'],
  ['body not an object', 'POINT', 'invalid_request', 'body'],
];

describe('search request validation', () => {
  it.each(cases)('%s: %s error naming the field', (_name, body, code, param) => {
    const e = errorOf(body);
    expect(e.code).toBe(code);
    expect(e.param).toBe(param);
    expect(e.message).toContain(param === 'body' ? '' : param);
  });

  it('a label clash says what the label clashes with', () => {
    expect(errorOf({ ...ok, locations: [{ lat: 51, lon: 0, label: '1' }, { lat: 51, lon: 0 }] }).message).toBe(
      `locations[0].label must be unique among the locations' labels and indices (same as the index of locations[1]); got "1"`,
    );
    expect(errorOf({ ...ok, locations: [{ lat: 51, lon: 0, label: 'amy' }, { lat: 51, lon: 0, label: 'amy' }] }).message).toContain('(same as locations[0].label); got "amy"');
  });

  it('the message names the bad value (latitude 91, vibe "gloomy")', () => {
    expect(errorOf({ ...ok, locations: [{ lat: 91, lon: 0 }] }).message).toMatch(/locations\[0\]\.lat.*91/);
    expect(errorOf({ ...ok, preferences: { vibes: ['gloomy'] } }).message).toContain('"gloomy"');
  });

  it('an unknown vocabulary value offers the accepted ones within a typo of it, as published (vegann -> vegan, glutenfre -> glutenFree)', () => {
    const message = (preferences: object) => errorOf({ ...ok, preferences }).message;
    expect(message({ catersFilters: ['vegann'] })).toContain('"vegann"; did you mean "vegan"?');
    // 2 edits from the normal form gluten_free (9 letters: 2 allowed); offered as the vocabulary spells it
    expect(message({ catersFilters: ['glutenfre'] })).toContain('did you mean "glutenFree"?');
    expect(message({ establishmentFilters: ['pub', 'Pubb'] })).toContain('preferences.establishmentFilters[1] is not a known establishmentFilters value: "Pubb"; did you mean "pub"?');
    expect(message({ vibes: ['cozy'] })).toContain('did you mean "cosy"?');
    expect(message({ catersFilters: ['carnivore'] })).not.toContain('did you mean');
  });

  it('paging: limit 1..100, offset 0..10000, integers; defaults 20 and 0', () => {
    expect(errorOf(ok, { limit: 0 }).param).toBe('limit');
    expect(errorOf(ok, { limit: 101 }).code).toBe('limit_exceeded');
    expect(errorOf(ok, { limit: 2.5 }).param).toBe('limit');
    expect(errorOf(ok, { offset: -1 }).param).toBe('offset');
    expect(errorOf(ok, { offset: 10_001 }).code).toBe('limit_exceeded');
    const res = service.search(ok, { now: NOW });
    expect([res.limit, res.offset]).toEqual([20, 0]);
  });

  it('now must be a finite instant', () => {
    expect(() => service.search(ok, { now: Number.NaN })).toThrow(VenueSearchError);
  });

  it('vocabulary words match case- and style-insensitively: coffee_shop = coffeeShop = "Coffee Shop"', () => {
    for (const word of ['coffee_shop', 'coffeeShop', 'Coffee Shop', 'COFFEE-SHOP']) {
      const res = service.search({ ...ok, preferences: { establishmentFilters: [word], nonCompromise: ['establishmentFilters'] } }, { now: NOW });
      expect(res.establishments.map((e) => e.id)).toEqual(['a']);
    }
    const vibes = service.search({ ...ok, preferences: { vibes: ['COSY'], nonCompromise: ['vibes'] } }, { now: NOW });
    expect(vibes.establishments.map((e) => e.id)).toEqual(['a']);
  });

  it('case alone never tells two words apart: coffeeshop, COFFEESHOP, dairyfree, DAIRYFREE, freeWiFi, FREEWIFI match as their vocabulary words', () => {
    const ids = (preferences: object) => service.search({ ...ok, preferences }, { now: NOW }).establishments.map((e) => e.id);
    for (const word of ['coffeeshop', 'COFFEESHOP', 'CoffeeShop']) {
      expect(ids({ establishmentFilters: [word], nonCompromise: ['establishmentFilters'] }), word).toEqual(['a']);
    }
    for (const word of ['dairyfree', 'DAIRYFREE', 'DairyFree', 'dairy free']) {
      expect(ids({ catersFilters: [word], nonCompromise: ['catersFilters'] }), word).toEqual(['a']); // a is vegan: dairy-free by implication
    }
    for (const word of ['freewifi', 'FREEWIFI', 'freeWiFi', 'Free WiFi']) {
      expect(ids({ establishmentFilters: [word], nonCompromise: ['establishmentFilters'] }), word).toEqual(['b']);
    }
    expect(ids({ vibes: ['cOsY'], nonCompromise: ['vibes'] })).toEqual(['a']);
  });

  it('a word whose letters two vocabulary words share (beer_hall, beerhall) is refused unless it names one of them', () => {
    const both = createEngine([
      { id: 'h1', name: 'One', location: { type: 'Point', coordinates: [51.5136, -0.1365] }, primaryGenre: 'beer_hall' },
      { id: 'h2', name: 'Two', location: { type: 'Point', coordinates: [51.514, -0.137] }, primaryGenre: 'beerhall' },
    ]);
    const ask = (word: string) => both.search({ ...ok, preferences: { establishmentFilters: [word], nonCompromise: ['establishmentFilters'] } }, { now: NOW });
    expect(ask('Beer Hall').establishments.map((e) => e.id)).toEqual(['h1']);
    expect(ask('BEERHALL').establishments.map((e) => e.id)).toEqual(['h2']);
    // "bEerhall" is b_eerhall: neither, and its letters are both's
    expect(() => ask('bEerhall')).toThrow(/not a known establishmentFilters value/);
  });

  it('catersFilters apply implications: a vegan venue caters dairyFree, eggFree and vegetarian', () => {
    const res = service.search({ ...ok, preferences: { catersFilters: ['dairy_free', 'eggFree', 'Vegetarian'], nonCompromise: ['catersFilters'] } }, { now: NOW });
    expect(res.establishments.map((e) => e.id)).toEqual(['a']);
  });

  it('a vocabulary word no venue has (restaurant) is accepted and matches nothing', () => {
    const res = service.search({ ...ok, preferences: { establishmentFilters: ['restaurant'], nonCompromise: ['establishmentFilters'] } }, { now: NOW });
    expect(res.totalResults).toBe(0);
  });

  it('the published vocabulary lists the data\'s genres, flags and vibes, the caters flags and the enums', () => {
    const v = service.vocabulary();
    expect(v.establishmentFilters).toEqual(expect.arrayContaining(['coffee_shop', 'pub', 'free_wifi', 'restaurant', 'family_friendly']));
    expect(v.catersFilters).toEqual(expect.arrayContaining(['vegan', 'glutenFree', 'dairyFree']));
    expect(v.vibes).toEqual(expect.arrayContaining(['cosy', 'romantic', 'conversation']));
    expect(v.chainPreference).toEqual(['PREFER_INDEPENDENT', 'PREFER_CHAIN', 'NO_PREFERENCE']);
    expect(v.nonCompromise).toEqual(['establishmentFilters', 'catersFilters', 'openingConditions', 'vibes', 'chainPreference']);
  });

  it('a PATH with one location is a POINT search (radius, centre = the location, no alongRouteMeters)', () => {
    const res = service.search({ locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'PATH', maxDistance: 500 } }, { now: NOW });
    expect(res.centerPoint).toEqual({ Lat: 51.5136, Lon: -0.1365 });
    expect(res.establishments.length).toBe(2);
    expect(res.establishments.every((e) => e.alongRouteMeters === undefined)).toBe(true);
  });

  it('an empty index answers no results', () => {
    const empty = createEngine([]);
    const s = createSearchService(empty.store, empty.spatial);
    expect(s.search(ok, { now: NOW })).toMatchObject({ totalResults: 0, establishments: [] });
  });
});
