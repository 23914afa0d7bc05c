import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { CHAIN_NO, CHAIN_UNKNOWN, CHAIN_YES, NO_GENRE } from '../../src/store/venue-store.js';
import { catersBit, catersMask, catersNames, normalizeWord } from '../../src/store/vocabulary.js';
import { generateVenues } from '../../scripts/fixtures/generate-venues.js';
import { scanGenreCounts, sortedCounts } from '../support/genre-counts.js';

const at = (lat: number, lon: number) => ({ type: 'Point' as const, coordinates: [lat, lon] as [number, number] });

describe('vocabulary', () => {
  it('coffee_shop, coffeeShop and "Coffee Shop" are one word; accents and case are ignored', () => {
    expect(new Set(['coffee_shop', 'coffeeShop', 'Coffee Shop', ' COFFEE-SHOP '].map(normalizeWord))).toEqual(new Set(['coffee_shop']));
    expect(normalizeWord('Crêperie')).toBe('creperie');
    expect(normalizeWord('freeWifi')).toBe('free_wifi');
  });

  it('vegan implies vegetarian, dairyFree and eggFree (contract); unknown words are reported', () => {
    expect(catersNames(catersMask(['vegan'])).sort()).toEqual(['dairyFree', 'eggFree', 'vegan', 'vegetarian']);
    const unknown: string[] = [];
    expect(catersMask(['Gluten Free', 'paleo'], unknown) & catersBit('glutenFree')).not.toBe(0);
    expect(unknown).toEqual(['paleo']);
  });
});

describe('VenueStore columns', () => {
  const records: VenueRecord[] = [
    { id: 'a', name: 'The Red Lion', location: at(51.51, -0.134), primaryGenre: 'pub', additionalGenres: ['British'], establishmentFlags: ['freeWifi'], isChain: false, catersFlags: ['vegan'], vibes: ['Cosy'] },
    { id: 'b', name: 'Costa Coffee', location: at(53.48, -2.24), primaryGenre: 'Coffee Shop', isChain: true },
    { id: 'c', name: 'No genre', location: at(-36.85, 174.76) },
  ];
  const { store } = createEngine(records);

  // Dense indices follow the kd-tree's order (engine.ts buildStore), not the input's: venues
  // are found by id.
  const a = store.indexOf('a');
  const b = store.indexOf('b');
  const c = store.indexOf('c');

  it('holds coordinates in lat/lon columns (a swapped pair would put Soho in Somalia)', () => {
    expect(store.lat[a]).toBe(51.51);
    expect(store.lon[a]).toBe(-0.134);
    expect(store.lat[c]).toBe(-36.85);
  });

  it('codes chains, caters with implications, genres and terms', () => {
    expect([store.chain[a], store.chain[b], store.chain[c]]).toEqual([CHAIN_NO, CHAIN_YES, CHAIN_UNKNOWN]);
    expect(store.caters[a]! & catersBit('eggFree')).not.toBe(0);
    expect(store.caters[b]).toBe(0);
    expect(store.primaryGenre[c]).toBe(NO_GENRE);
    expect(store.terms.words[store.primaryGenre[b]!]).toBe('coffee_shop');
    expect(store.hasTerm(a, store.terms.lookup('free_wifi'))).toBe(true);
    expect(store.hasTerm(a, store.terms.lookup('british'))).toBe(true);
    expect(store.hasTerm(b, store.terms.lookup('pub'))).toBe(false);
    expect(store.hasVibe(a, store.vibes.lookup('cosy'))).toBe(true);
    expect([a, b, c].sort()).toEqual([0, 1, 2]);
    expect(store.id(b)).toBe('b');
    expect(store.indexOf('zzz')).toBe(-1);
  });

  it('duplicate ids and invalid records are errors naming them', () => {
    expect(() => createEngine([records[0]!, { ...records[1]!, id: 'a' }])).toThrow(/^line 2: duplicate venue id "a" \(first at line 1\)$/);
    expect(() => createEngine([{ ...records[0]!, location: at(95, 0) }])).toThrow(/field location\.coordinates\[0\]/);
  });

  it('empty input works', () => {
    const e = createEngine([]);
    expect(e.size).toBe(0);
  });

  it('counts the venues using each genre word, each venue once per word (hand-computed)', () => {
    const withGenres = createEngine([
      ...records,
      // the primary genre listed again, in another spelling, as an additional genre
      { id: 'd', name: 'The Crown', location: at(51.5, -0.1), primaryGenre: 'Pub', additionalGenres: ['pub', 'Wine Bar', 'wineBar'] },
      // a genre word that is also another venue's establishment flag: only genres count
      { id: 'e', name: 'Cellar', location: at(51.6, -0.1), additionalGenres: ['Free Wifi'] },
    ]).store;
    expect(sortedCounts(withGenres.genreCounts)).toEqual(
      new Map([
        ['british', 1],
        ['coffee_shop', 1],
        ['free_wifi', 1],
        ['pub', 2],
        ['wine_bar', 1],
      ]),
    );
  });

  it('genre counts equal a scan of the records (3,000 fixtures)', () => {
    const fixtures = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as VenueRecord);
    const expected = scanGenreCounts(fixtures);
    expect(expected.size).toBeGreaterThan(5);
    expect(sortedCounts(createEngine(fixtures).store.genreCounts)).toEqual(expected);
  });

  it('the search path stays under 150 bytes per venue (fixtures)', () => {
    const e = createEngine(generateVenues(5000, 3));
    expect(e.searchPathBytes / e.size).toBeLessThan(150);
  });
});

describe('fixtures', () => {
  it('fixtures/venues.ndjson is exactly `npm run fixtures` (3,000 venues, seed 1) and validates', () => {
    const committed = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8');
    const regenerated = generateVenues(3000, 1).map((v) => `${JSON.stringify(v)}\n`).join('');
    expect(committed === regenerated).toBe(true);
    const venues = committed.trim().split('\n').map((l) => JSON.parse(l) as VenueRecord);
    expect(() => createEngine(venues)).not.toThrow();
  });

  it('have the variety the tests need: chains, no hours, slots past midnight, closed days, menus, abroad', () => {
    const v = generateVenues(3000, 1);
    const share = (f: (x: VenueRecord) => boolean) => v.filter(f).length / v.length;
    expect(share((x) => x.isChain === true)).toBeGreaterThan(0.1);
    expect(share((x) => !x.regularOpeningHours)).toBeGreaterThan(0.05);
    expect(share((x) => !!x.regularOpeningHours?.some((g) => g.timeSlots.some((s) => s.closeNextDay)))).toBeGreaterThan(0.2);
    expect(share((x) => !!x.regularOpeningHours?.some((g) => g.timeSlots.some((s) => s.isClosed)))).toBeGreaterThan(0.1);
    expect(share((x) => (x.menus?.length ?? 0) > 0)).toBeGreaterThan(0.3);
    expect(share((x) => (x.images?.length ?? 0) > 5)).toBeGreaterThan(0.2);
    expect(v.some((x) => x.location.coordinates[1] < -70)).toBe(true); // New York
    expect(v.some((x) => x.location.coordinates[0] < -30)).toBe(true); // Auckland
  });
});
