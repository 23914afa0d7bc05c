// POINT and PATH searches against a brute-force oracle over every venue (GeographicLib exact
// WGS84 distances, turf for corridor screening), on the bundled fixtures and on real OSM data.
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { SearchResponse } from '../../src/schema/search.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createSearchService, type SearchService } from '../../src/search/index.js';
import { geodesic, prng, routeDistance } from '../support/oracle.js';
import { hasShared } from '../support/real-data.js';
import { bruteForce, randomQuery, routePointAt, type Query } from './oracle-queries.js';
import {
  FIXTURES_PATH,
  LONDON_PUBS,
  VEGGIE_GB,
  firstOrderViolation,
  kindWords,
  loadFixtureVenues,
  loadLondonPubs,
  loadVeggieGb,
  oracleMatch,
  oracleOpenState,
} from './support.js';

const NOW = Date.UTC(2026, 10, 21, 19, 30); // Saturday 2026-11-21 19:30 UTC
const EDGE_BAND_METERS = 1;

/** Every page of a query, concatenated (limit 100). */
function allPages(service: SearchService, query: Query): { list: SearchResponse['establishments']; first: SearchResponse } {
  const first = service.search(query, { limit: 100, offset: 0, now: NOW });
  const list = [...first.establishments];
  for (let offset = 100; offset < first.totalResults; offset += 100) {
    list.push(...service.search(query, { limit: 100, offset, now: NOW }).establishments);
  }
  return { list, first };
}

interface Tally {
  queries: number;
  results: number;
  edge: number;
  edgeDisagreements: number;
}

function checkQuery(service: SearchService, venues: readonly VenueRecord[], kinds: Set<string>, indexOf: Map<string, number>, query: Query, tally: Tally): void {
  const maxD = query.mode.maxDistance;
  const band = EDGE_BAND_METERS;
  const expected = bruteForce(query, venues, kinds, NOW, band);
  const { list, first } = allPages(service, query);
  const context = JSON.stringify(query);

  expect(first.totalResults, context).toBe(list.length);
  expect(first.radius).toBe(maxD);
  const centreError = geodesic(first.centerPoint.Lat, first.centerPoint.Lon, expected.centre.lat, expected.centre.lon);
  expect(centreError, `centre ${context}`).toBeLessThan(1);
  expect(firstOrderViolation(list), `order ${context}`).toBe(-1);

  const got = new Set<number>();
  const isPath = query.mode.mode === 'PATH' && query.locations.length > 1;
  const atTime = query.preferences?.openingConditions?.atTime;
  const instant = atTime === undefined ? NOW : Date.parse(atTime);
  const route = query.locations.map((l) => [l.lat, l.lon] as const);
  let exactChecks = 6; // exact route distances per query (slow), the rest against turf
  for (const e of list) {
    const i = indexOf.get(e.id)!;
    got.add(i);
    if (expected.edge.has(i)) continue;
    const d = expected.inside.get(i);
    expect(d, `unexpected ${e.id} at ${e.distanceMeters} m in ${context}`).toBeDefined();
    const v = venues[i]!;
    let exact = d!;
    let isExact = expected.exact.has(i);
    if (!isExact && exactChecks-- > 0) {
      exact = routeDistance(route, v.location.coordinates[0], v.location.coordinates[1]).distance;
      isExact = true;
    }
    // Exact GeographicLib distances: 0.5 m. turf's (spherical, for PATH venues away from the
    // edge): 2 m + 0.5 % on city legs; not comparable on long legs, where only exact ones count.
    const tolerance = isExact ? 0.5 + exact * 1e-5 : expected.longestLeg <= 20_000 ? 2 + exact * 0.005 : Number.POSITIVE_INFINITY;
    expect(Math.abs(e.distanceMeters - exact), `distance of ${e.id}: ours ${e.distanceMeters} exact ${exact} screened ${d} in ${context}`).toBeLessThanOrEqual(tolerance);
    const open = oracleOpenState(v, instant);
    const m = oracleMatch(v, query.preferences ?? {}, kinds, open);
    expect(e.matchScore.total, `total of ${e.id} in ${context}`).toBeCloseTo(m.total, 5);
    expect(e.matchScore.catersFiltersMatch).toBeCloseTo(m.parts.caters, 9);
    expect(e.matchScore.establishmentFiltersMatch).toBeCloseTo(m.parts.establishment, 9);
    expect(e.matchScore.genreMatch).toBeCloseTo(m.parts.genre, 9);
    expect(e.isOpen, `isOpen of ${e.id}`).toBe(open === 'open');
    expect(Object.keys(e.travel).sort()).toEqual(query.locations.map((l, k) => l.label ?? String(k)).sort());
    if (isPath) {
      // The route point at alongRouteMeters is (one of) the nearest: its distance to the
      // venue is the venue's distance from the route.
      const p = routePointAt(query.locations, e.alongRouteMeters!);
      const dAlong = geodesic(p.lat, p.lon, v.location.coordinates[0], v.location.coordinates[1]);
      if (isExact) expect(Math.abs(dAlong - exact), `alongRouteMeters of ${e.id}`).toBeLessThanOrEqual(0.5 + exact * 1e-5);
    }
  }
  let missing = 0;
  for (const i of expected.inside.keys()) if (!got.has(i)) missing++;
  expect(missing, `missing venues in ${context}`).toBe(0);
  for (const [i, d] of expected.edge) {
    tally.edge++;
    if (got.has(i) !== d <= maxD) tally.edgeDisagreements++;
  }
  tally.queries++;
  tally.results += list.length;
}

/** Preferences asking only non-compromise caters flags and/or a chain preference (a PATH then walks in nearest mode). */
function hardColumnPreferences(rnd: () => number, catersWords: readonly string[]): NonNullable<Query['preferences']> {
  const roll = rnd();
  const caters = roll < 0.7 ? Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => catersWords[Math.floor(rnd() * catersWords.length)]!) : [];
  const chain = roll >= 0.4 ? (rnd() < 0.5 ? 'PREFER_INDEPENDENT' : 'PREFER_CHAIN') : undefined;
  return {
    ...(caters.length > 0 ? { catersFilters: caters } : {}),
    ...(chain !== undefined ? { chainPreference: chain } : {}),
    nonCompromise: [...(caters.length > 0 ? ['catersFilters' as const] : []), ...(chain !== undefined ? ['chainPreference' as const] : [])],
  };
}

function oracleSuite(name: string, load: () => VenueRecord[], queries: { point: number; path: number }, seed: number): void {
  let venues: VenueRecord[];
  let service: SearchService;
  let kinds: Set<string>;
  let indexOf: Map<string, number>;
  beforeAll(() => {
    venues = load();
    const engine = createEngine(venues);
    service = createSearchService(engine.store, engine.spatial);
    kinds = kindWords(venues);
    indexOf = new Map(venues.map((v, i) => [v.id, i]));
  });

  for (const mode of ['POINT', 'PATH'] as const) {
    const count = mode === 'POINT' ? queries.point : queries.path;
    it(`${name}: ${count} random ${mode} queries return exactly the brute-force set (edge within ${EDGE_BAND_METERS} m counted), in the contract's order`, () => {
      const rnd = prng(seed + (mode === 'PATH' ? 1 : 0));
      const vocabulary = service.vocabulary();
      const tally: Tally = { queries: 0, results: 0, edge: 0, edgeDisagreements: 0 };
      for (let q = 0; q < count; q++) {
        checkQuery(service, venues, kinds, indexOf, randomQuery(rnd, venues, mode, vocabulary, NOW), tally);
      }
      console.log(`[search oracle] ${name} ${mode}: ${tally.queries} queries, ${tally.results} results, ${tally.edge} venues within ${EDGE_BAND_METERS} m of the edge (${tally.edgeDisagreements} answered differently from the oracle)`);
      expect(tally.queries).toBe(count);
      expect(tally.results).toBeGreaterThan(count);
    }, 120_000);
  }

  it(`${name}: ${queries.path} random PATH queries asking only non-compromise caters or chain return exactly the brute-force set, in the contract's order`, () => {
    const rnd = prng(seed + 2);
    const vocabulary = service.vocabulary();
    const tally: Tally = { queries: 0, results: 0, edge: 0, edgeDisagreements: 0 };
    for (let q = 0; q < queries.path; q++) {
      const query = randomQuery(rnd, venues, 'PATH', vocabulary, NOW);
      query.preferences = hardColumnPreferences(rnd, vocabulary.catersFilters);
      checkQuery(service, venues, kinds, indexOf, query, tally);
    }
    console.log(`[search oracle] ${name} PATH, hard caters or chain only: ${tally.queries} queries, ${tally.results} results`);
    expect(tally.queries).toBe(queries.path);
    expect(tally.results).toBeGreaterThan(queries.path);
  }, 120_000);
}

describe.skipIf(!existsSync(FIXTURES_PATH))('search oracle: bundled fixtures (3,000 generated venues)', () => {
  oracleSuite('fixtures', loadFixtureVenues, { point: 200, path: 200 }, 11);
});

describe.skipIf(!hasShared(LONDON_PUBS))('search oracle: OSM London pubs (real data)', () => {
  oracleSuite('London pubs', loadLondonPubs, { point: 60, path: 60 }, 23);
});

describe.skipIf(!hasShared(VEGGIE_GB))('search oracle: Veggiekarte GB (real data, caters)', () => {
  oracleSuite('Veggie GB', loadVeggieGb, { point: 60, path: 60 }, 37);
});
