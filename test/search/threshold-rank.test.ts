// The POINT ranking by total bounds (src/search/threshold-rank.ts, issue 16) and the venues'
// bit planes it reads (src/search/venue-bitmaps.ts): the planes against the columns venue by
// venue; the pruned page against (1) the full scan and sort of the same search (the path
// taken when the pruned walk does not apply) and (2) a brute-force ranking of every venue
// (GeographicLib distances, the documented formula restated in support.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import type { SearchResponse } from '../../src/schema/search.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { BulkScorer } from '../../src/search/bulk-scorer.js';
import { checkSearchRequest, createSearchService, type MultiLocationSearch } from '../../src/search/search-service.js';
import { catersMask } from '../../src/store/vocabulary.js';
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { geodesic, prng } from '../support/oracle.js';
import { firstOrderViolation, kindWords, oracleMatch, oracleOpenState, type OraclePrefs } from './support.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0);
const AT = '2026-11-21T20:00:00Z';
const SOFT: OraclePrefs = {
  establishmentFilters: ['restaurant', 'pub', 'freeWifi'],
  catersFilters: ['vegan'],
  openingConditions: { state: 'OPEN', atTime: AT },
  chainPreference: 'PREFER_INDEPENDENT',
};
const CASES: ReadonlyArray<[string, OraclePrefs]> = [
  ['the bench soft preferences', SOFT],
  ['the bench preferences, vegan non-compromise', { ...SOFT, nonCompromise: ['catersFilters'] }],
  ['flags and vibes only (no kinds)', { establishmentFilters: ['freeWifi', 'servesFood'], vibes: ['cosy', 'lively'] }],
  ['kinds only', { establishmentFilters: ['coffee_shop', 'bar'] }],
  ['two caters soft, chain non-compromise', { catersFilters: ['vegetarian', 'glutenFree'], chainPreference: 'PREFER_CHAIN', nonCompromise: ['chainPreference'] }],
  ['vegan and halal non-compromise, closed wanted', { catersFilters: ['vegan', 'halal'], openingConditions: { state: 'CLOSED', atTime: AT }, nonCompromise: ['catersFilters'] }],
  ['a common best total (chain only)', { chainPreference: 'PREFER_INDEPENDENT' }],
  ['everything at once', { ...SOFT, establishmentFilters: ['pub', 'outdoorSeating', 'dogFriendly'], vibes: ['cosy'], catersFilters: ['vegan', 'vegetarian'] }],
];
const PAGES: ReadonlyArray<[number, number]> = [
  [1, 0],
  [20, 0],
  [20, 40],
  [100, 0],
];

function body(lat: number, lon: number, r: number, prefs: OraclePrefs): object {
  return { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: r }, preferences: prefs };
}

function summary(r: SearchResponse): string[] {
  return r.establishments.map((e) => `${e.id} ${e.matchScore.total} ${e.distanceMeters}`);
}

for (const layout of ['town-centres', 'spread'] as const) {
  describe(`POINT ranking by total bounds, ${layout} data`, () => {
    let venues: VenueRecord[];
    let engine: Engine;
    let pruned: MultiLocationSearch;
    let full: MultiLocationSearch;

    beforeAll(() => {
      venues = generateBenchVenues(layout === 'spread' ? 150_000 : 60_000, 9, layout);
      engine = createEngine(venues, { validate: false });
      pruned = createSearchService(engine.store, engine.spatial);
      full = createSearchService(engine.store, engine.spatial);
      // Hiding nothing, but through the live-data path: the full scan and sort.
      full.hide(new Uint8Array(engine.store.size));
    });

    it('bit planes equal the columns, venue by venue; filtered counts equal a scan', () => {
      const store = engine.store;
      const scorer = new BulkScorer(store);
      const planes = scorer.bitmaps;
      const { termBits, vibeBits } = scorer.bits;
      const bit = (plane: number, i: number) => (planes.plane(plane)[i >>> 5]! >>> (i & 31)) & 1;
      const rnd = prng(31);
      // every bit compared, the differences listed and the list compared once (an assertion
      // per bit cost the suite about 5 s: docs/testing.md)
      const differences: string[] = [];
      let compared = 0;
      const compare = (plane: number, i: number, column: number) => {
        compared++;
        if (bit(plane, i) !== column) differences.push(`venue ${i}, plane ${plane}: bit ${bit(plane, i)}, column says ${column}`);
      };
      for (let s = 0; s < 3000; s++) {
        const i = Math.floor(rnd() * store.size);
        for (let c = 0; c < 16; c++) compare(c, i, (store.caters[i]! >>> c) & 1);
        for (let c = 0; c < 3; c++) compare(16 + c, i, store.chain[i] === c ? 1 : 0);
        for (let c = 0; c < 32; c++) {
          compare(19 + c, i, (termBits[i]! >>> c) & 1);
          compare(51 + c, i, (vibeBits[i]! >>> c) & 1);
          compare(83 + c, i, store.primaryGenre[i] === c ? 1 : 0);
        }
      }
      expect(differences).toEqual([]);
      expect(compared).toBe(3000 * (16 + 3 + 3 * 32));
      const vegan = catersMask(['vegan']);
      const veganHalal = catersMask(['vegan', 'halal']);
      for (const [caters, chain] of [[vegan, -1], [veganHalal, -1], [0, 1], [vegan, 0], [0, -1]] as const) {
        planes.planFilter(caters, chain);
        for (let s = 0; s < 200; s++) {
          const lo = Math.floor(rnd() * (store.size - 1));
          const hi = Math.min(store.size - 1, lo + Math.floor(rnd() * (s % 2 === 0 ? 40 : 3000)));
          let want = 0;
          for (let i = lo; i <= hi; i++) if ((store.caters[i]! & caters) === caters && (chain < 0 || store.chain[i] === chain)) want++;
          expect(planes.countFiltered(lo, hi)).toBe(want);
        }
      }
    });

    it('equals the full scan and sort: ids, totals, distances, totalResults, every page', () => {
      const rnd = prng(32);
      let settled = 0;
      for (let q = 0; q < 64; q++) {
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
        const ranked = pruned.rank(checkSearchRequest(body(lat, lon, r, prefs), { limit: 20, now: NOW }), 20);
        if (ranked.count > 200 && ranked.ranking.length < ranked.count / 2) settled++;
      }
      // the bounds left most venues unscored on some queries
      expect(settled).toBeGreaterThan(3);
    });

    it('agrees with a brute-force ranking of every venue (GeographicLib, the documented formula)', () => {
      const kinds = kindWords(venues);
      const rnd = prng(33);
      const instant = Date.parse(AT);
      const open = venues.map((v) => oracleOpenState(v, instant));
      let compared = 0;
      for (let q = 0; q < 16; q++) {
        const lat = 51.5074 + (rnd() - 0.5) * 0.03;
        const lon = -0.1278 + (rnd() - 0.5) * 0.05;
        const r = 300 + rnd() * 1500;
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
        const got = pruned.search(body(lat, lon, r, prefs), { limit: 30, offset: 5, now: NOW });
        if (edge > 0) continue;
        expect(got.totalResults, name).toBe(ranked.length);
        expect(firstOrderViolation(got.establishments)).toBe(-1);
        const want = ranked.slice(5, 35);
        expect(got.establishments.length).toBe(want.length);
        got.establishments.forEach((e, k) => {
          expect(Math.abs(e.matchScore.total - want[k]!.total), `${name} rank ${k + 5}`).toBeLessThan(1e-6);
          expect(Math.abs(e.distanceMeters - want[k]!.d), `${name} rank ${k + 5}`).toBeLessThan(1e-3);
          compared++;
        });
      }
      expect(compared).toBeGreaterThan(200);
    });
  });
}
