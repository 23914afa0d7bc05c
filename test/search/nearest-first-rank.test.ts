// The nearest-first POINT ranking (src/search/nearest-first-rank.ts, issue 16): on data as
// dense as town centres, the pruned page equals (1) a brute-force ranking of every venue
// (GeographicLib distances, the documented formula restated in support.ts) and (2) the full
// scan and sort of the same search (the path taken when the pruned walk does not apply).
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import type { SearchResponse } from '../../src/schema/search.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { checkSearchRequest, createSearchService, type MultiLocationSearch } from '../../src/search/search-service.js';
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { geodesic, prng } from '../support/oracle.js';
import { firstOrderViolation, kindWords, oracleMatch, oracleOpenState, type OraclePrefs } from './support.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0);
const AT = '2026-11-21T20:00:00Z';
/** The bench's preferences (bench/lib/queries.ts PREFS): soft, and with vegan non-compromise. */
const SOFT: OraclePrefs = {
  establishmentFilters: ['restaurant', 'pub', 'freeWifi'],
  catersFilters: ['vegan'],
  openingConditions: { state: 'OPEN', atTime: AT },
  chainPreference: 'PREFER_INDEPENDENT',
};
const CASES: ReadonlyArray<[string, OraclePrefs]> = [
  ['nothing asked (every total 1: the k nearest)', {}],
  ['chain only (most venues reach total 1: the walk stops early)', { chainPreference: 'PREFER_INDEPENDENT' }],
  ['the bench soft preferences', SOFT],
  ['the bench preferences, vegan non-compromise', { ...SOFT, nonCompromise: ['catersFilters'] }],
  ['independent non-compromise, vegetarian soft', { catersFilters: ['vegetarian'], chainPreference: 'PREFER_INDEPENDENT', nonCompromise: ['chainPreference'] }],
  ['vegan and halal non-compromise (two caters bits)', { catersFilters: ['vegan', 'halal'], nonCompromise: ['catersFilters'] }],
];
const PAGES: ReadonlyArray<[number, number]> = [
  [1, 0],
  [20, 0],
  [20, 20],
  [100, 0],
  [7, 93],
];

let venues: VenueRecord[];
let engine: Engine;
let pruned: MultiLocationSearch;
let full: MultiLocationSearch;

beforeAll(() => {
  venues = generateBenchVenues(60_000, 5, 'town-centres');
  engine = createEngine(venues, { validate: false });
  pruned = createSearchService(engine.store, engine.spatial);
  full = createSearchService(engine.store, engine.spatial);
  // Hiding nothing, but through the live-data path: the full scan and sort.
  full.hide(new Uint8Array(engine.store.size));
});

function body(lat: number, lon: number, r: number, prefs: OraclePrefs): object {
  return { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: r }, preferences: prefs };
}

function summary(r: SearchResponse): string[] {
  return r.establishments.map((e) => `${e.id} ${e.matchScore.total} ${e.distanceMeters}`);
}

describe('nearest-first POINT ranking on town-centre data', () => {
  it('equals the full scan and sort: ids, totals, distances, totalResults, every page', () => {
    const rnd = prng(21);
    let stoppedEarly = 0;
    for (let q = 0; q < 60; q++) {
      const lat = 51.5074 + (rnd() - 0.5) * 0.04;
      const lon = -0.1278 + (rnd() - 0.5) * 0.06;
      const r = 100 + rnd() * 2500;
      const [name, prefs] = CASES[q % CASES.length]!;
      for (const [limit, offset] of PAGES) {
        const b = body(lat, lon, r, prefs);
        const a = pruned.search(b, { limit, offset, now: NOW });
        const e = full.search(b, { limit, offset, now: NOW });
        expect(a.totalResults, name).toBe(e.totalResults);
        expect(summary(a), `${name}, limit ${limit} offset ${offset}`).toEqual(summary(e));
        expect(a).toEqual(e);
      }
    }
    // the early stop was exercised: ranked fewer venues than matched, on some queries
    for (let q = 0; q < 20; q++) {
      const lat = 51.5074 + (rnd() - 0.5) * 0.02;
      const lon = -0.1278 + (rnd() - 0.5) * 0.03;
      const b = body(lat, lon, 1500, { chainPreference: 'PREFER_INDEPENDENT' });
      const ranked = pruned.rank(checkSearchRequest(b, { limit: 20, now: NOW }), 20);
      expect(ranked.count).toBe(full.rank(checkSearchRequest(b, { limit: 20, now: NOW }), 20).count);
      if (ranked.count > 200 && ranked.ranking.length < ranked.count / 2) stoppedEarly++;
    }
    expect(stoppedEarly).toBeGreaterThan(10);
  });

  it('agrees with a brute-force ranking of every venue (GeographicLib, the documented formula)', () => {
    const kinds = kindWords(venues);
    const rnd = prng(22);
    const instant = Date.parse(AT);
    const open = venues.map((v) => oracleOpenState(v, instant));
    let compared = 0;
    for (let q = 0; q < 24; q++) {
      const lat = 51.5074 + (rnd() - 0.5) * 0.03;
      const lon = -0.1278 + (rnd() - 0.5) * 0.05;
      const r = 200 + rnd() * 1500;
      const [name, prefs] = CASES[q % CASES.length]!;
      const ranked: Array<{ id: string; d: number; total: number }> = [];
      let edge = 0;
      venues.forEach((v, i) => {
        const [vlat, vlon] = v.location.coordinates;
        if (Math.abs(vlat - lat) > 0.05 || Math.abs(vlon - lon) > 0.08) return;
        const d = geodesic(lat, lon, vlat, vlon);
        if (Math.abs(d - r) < 0.01) edge++;
        if (d > r) return;
        const m = oracleMatch(v, prefs, kinds, open[i]!);
        if (m.passes) ranked.push({ id: v.id, d, total: m.total });
      });
      ranked.sort((a, b) => b.total - a.total || a.d - b.d || (a.id < b.id ? -1 : 1));
      const got = pruned.search(body(lat, lon, r, prefs), { limit: 50, offset: 10, now: NOW });
      if (edge > 0) continue;
      expect(got.totalResults, name).toBe(ranked.length);
      expect(firstOrderViolation(got.establishments)).toBe(-1);
      const want = ranked.slice(10, 60);
      expect(got.establishments.length).toBe(want.length);
      got.establishments.forEach((e, k) => {
        // rank by rank: the same total and the same distance (to a millimetre: near-equal
        // distances may swap two venues between the rule and GeographicLib)
        expect(Math.abs(e.matchScore.total - want[k]!.total), `${name} rank ${k + 10}`).toBeLessThan(1e-6);
        expect(Math.abs(e.distanceMeters - want[k]!.d), `${name} rank ${k + 10}`).toBeLessThan(1e-3);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(500);
  });
});
