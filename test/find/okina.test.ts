/**
 * The okina (U+02BB, ʻ), which Hawaiian and Polynesian names write and people type as `'` or
 * leave out, is an apostrophe to find and to place names (audit 75c F1: "hawaii" did not find
 * "Hawaiʻi Coffee", and the place "Nukuʻalofa" was unknown while "Nuku'alofa" resolved).
 * Oracles: the expected names and keys are written by hand.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { LearntPlaces } from '../../src/places/learnt-places.js';
import { placeKey } from '../../src/places/place-name.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const HONOLULU = { lat: 21.3, lon: -157.8 };
const NAMES = ['Hawaiʻi Coffee', 'Hawaii Burger', 'Oʻahu Poke', 'Oahu Bar', 'Kaʻanapali Grill', 'Waikiki Shrimp'];
const venues: VenueRecord[] = NAMES.map((name, i) => ({
  id: `hi${i}`,
  name,
  location: { type: 'Point', coordinates: [HONOLULU.lat + 0.001 * i, HONOLULU.lon] },
  primaryGenre: 'restaurant',
}));
const engine = createEngine(venues);
const names = (q: string) => engine.find({ q, limit: 20 }, { now: 0 }).establishments.map((e) => e.name).sort();

describe('find: the okina is an apostrophe (audit 75c F1)', () => {
  it.each([
    ['hawaii', ['Hawaii Burger', 'Hawaiʻi Coffee']],
    ["hawai'i", ['Hawaii Burger', 'Hawaiʻi Coffee']],
    ['hawaiʻi', ['Hawaii Burger', 'Hawaiʻi Coffee']],
    ['oahu', ['Oahu Bar', 'Oʻahu Poke']],
    ['oʻahu poke', ['Oʻahu Poke']],
    ['kaanapali', ['Kaʻanapali Grill']],
  ])('"%s" finds %j', (q, expected) => {
    expect(names(q)).toEqual(expected);
  });
});

describe('place names: the okina is dropped as the other apostrophes are', () => {
  it('"Nukuʻalofa" (okina), "Nuku‘alofa" (GeoNames\' spelling, U+2018), "Nuku\'alofa" and "Nukuʼalofa" (U+02BC) are one key, "nukualofa"', () => {
    for (const spelling of ['Nukuʻalofa', 'Nuku‘alofa', "Nuku'alofa", 'Nukuʼalofa']) expect(placeKey(spelling)).toBe('nukualofa');
  });

  it('find near "Nukuʻalofa" resolves it to Tonga\'s capital (21.1 S, 175.2 W)', () => {
    const found = engine.find({ q: 'coffee', location: 'Nukuʻalofa', limit: 1 }, { now: 0 });
    expect(found.resolvedPlace?.name).toBe('Nuku‘alofa');
    expect(found.searchLocation!.Lat).toBeCloseTo(-21.14, 1);
    expect(found.searchLocation!.Lon).toBeCloseTo(-175.2, 1);
  });

  it('a snapshot\'s learnt place saved under its old key ("kaʻanapali") is keyed again at load', () => {
    const place = { name: 'Kaʻanapali', lat: 20.93, lon: -156.69, kind: 'area' };
    const restored = LearntPlaces.fromJSON({ areas: [['kaʻanapali', place]], postcodes: [] });
    expect(restored.area('kaanapali')).toEqual(place);
  });
});
