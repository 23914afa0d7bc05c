// Fair meeting points (issue 15) against a brute-force oracle over every venue: each
// person's distance by GeographicLib, the speed models and the counting rules of
// docs/search.md restated here, on the bundled fixtures and on the OSM London pubs.
import { existsSync } from 'node:fs';
import tzLookup from '@photostructure/tz-lookup';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { SearchResponse } from '../../src/schema/search.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createSearchService, type SearchService } from '../../src/search/index.js';
import { bruteForceWeek } from '../hours/oracles.js';
import { geodesic, prng } from '../support/oracle.js';
import { hasShared } from '../support/real-data.js';
import { offset, randomPreferences } from './oracle-queries.js';
import { FIXTURES_PATH, LONDON_PUBS, kindWords, loadFixtureVenues, loadLondonPubs, localMinuteOfWeek, oracleMatch, type OraclePrefs } from './support.js';

const NOW = Date.UTC(2026, 10, 21, 19, 30); // Saturday 2026-11-21 19:30 UTC
const EDGE_METERS = 1;
/** Weighted minutes: ours measure distances in a local frame (within 0.1 m), the oracle by GeographicLib. */
const COST_TOLERANCE = 0.01;

type Mode = 'WALK' | 'BICYCLE' | 'DRIVE' | 'TRANSIT';
interface Person {
  lat: number;
  lon: number;
  weight?: number;
  label?: string;
  travelMode?: Mode;
}
interface FairQuery {
  locations: Person[];
  mode: { mode: 'POINT'; maxDistance: number; fairness: 'MIN_MAX' | 'MIN_TOTAL'; quorum?: number };
  preferences?: OraclePrefs & { openingConditions?: { state: 'OPEN' | 'CLOSED'; atTime?: string; onArrival?: boolean; stayMinutes?: number } };
}

// ---- the speed models of docs/search.md, restated
const M_PER_MIN = (kmh: number) => (kmh * 1000) / 60;
function oracleMinutes(mode: Mode | undefined, d: number): number {
  switch (mode) {
    case 'WALK':
      return (d * 1.3) / M_PER_MIN(4.8);
    case 'BICYCLE':
      return (d * 1.3) / M_PER_MIN(15);
    case 'DRIVE':
      return 8 + (d * 1.4) / M_PER_MIN(30);
    case 'TRANSIT':
      return 10 + (d * 1.3) / M_PER_MIN(20);
    default:
      return Math.min((d * 1.3) / M_PER_MIN(4.8), 10 + (d * 1.3) / M_PER_MIN(20), 30 + (d * 1.3) / M_PER_MIN(80));
  }
}

interface VenueVerdict {
  dist: number[];
  cost: number;
  counted: boolean[];
  need: number;
  qualifies: boolean;
  /** A counted person within 1 m of the disc's edge, or an arrival within 50 ms of a minute's turn: either answer accepted. */
  edge: boolean;
  total: number;
  passes: boolean;
  open: boolean;
}

const weekCache = new Map<string, boolean[] | null>();
function week(v: VenueRecord): boolean[] | null {
  const key = JSON.stringify(v.regularOpeningHours ?? null);
  let w = weekCache.get(key);
  if (w === undefined) {
    w = bruteForceWeek(v.regularOpeningHours);
    weekCache.set(key, w);
  }
  return w;
}

/** 'open' | 'closed' | 'unknown' at an instant, open through `stay` more minutes. */
function openThrough(v: VenueRecord, instantMs: number, stay: number): 'open' | 'closed' | 'unknown' {
  const w = week(v);
  if (w === null) return 'unknown';
  const zone = v.timeZone ?? tzLookup(v.location.coordinates[0], v.location.coordinates[1]);
  // every real minute of the stay, read on the wall clock (a clock change during it moves the wall clock)
  const m = localMinuteOfWeek(zone, instantMs);
  const steady = localMinuteOfWeek(zone, instantMs + stay * 60_000) === (m + stay) % 10080;
  for (let k = 0; k < Math.max(1, stay); k++) {
    const local = steady ? (m + k) % 10080 : localMinuteOfWeek(zone, instantMs + k * 60_000);
    if (!w[local]) return 'closed';
  }
  return 'open';
}

/** The oracle's verdict for one venue, or null when no `quorum` people are within reach of it (coarse screen). */
function verdict(v: VenueRecord, query: FairQuery, kinds: Set<string>, screen: boolean): VenueVerdict | null {
  const [lat, lon] = v.location.coordinates;
  const people = query.locations;
  const n = people.length;
  const k = query.mode.quorum ?? n;
  const R = query.mode.maxDistance;
  if (screen) {
    let near = 0;
    for (const p of people) {
      const dx = (lon - p.lon) * Math.cos(((lat + p.lat) / 2) * (Math.PI / 180)) * 111_320;
      const dy = (lat - p.lat) * 111_000;
      if (Math.hypot(dx, dy) <= R * 1.02 + 20) near++;
    }
    if (near < k) return null;
  }
  const dist = people.map((p) => geodesic(p.lat, p.lon, lat, lon));
  const minutes = dist.map((d, i) => oracleMinutes(people[i]!.travelMode, d));
  const costs = minutes.map((m, i) => (people[i]!.weight ?? 1) * m);
  const order = costs.map((_, i) => i).sort((a, b) => costs[a]! - costs[b]! || a - b);
  const counted = new Array<boolean>(n).fill(false);
  for (const i of order.slice(0, k)) counted[i] = true;
  const countedIdx = order.slice(0, k);
  const cost = query.mode.fairness === 'MIN_MAX' ? Math.max(...countedIdx.map((i) => costs[i]!)) : countedIdx.reduce((s, i) => s + costs[i]!, 0);
  const need = Math.max(...countedIdx.map((i) => dist[i]!));
  let edge = countedIdx.some((i) => Math.abs(dist[i]! - R) <= EDGE_METERS);
  const oc = query.preferences?.openingConditions;
  const departure = oc?.atTime !== undefined ? Date.parse(oc.atTime) : NOW;
  let instant = departure;
  if (oc?.onArrival) {
    const raw = departure + Math.max(...countedIdx.map((i) => minutes[i]!)) * 60_000;
    instant = Math.floor(raw);
    const intoMinute = raw % 60_000;
    if (intoMinute < 50 || intoMinute > 60_000 - 50) edge = true;
  }
  const state = oc ? openThrough(v, instant, oc.stayMinutes ?? 0) : 'unknown';
  const m = oracleMatch(v, query.preferences ?? {}, kinds, state);
  const open = openThrough(v, instant, 0) === 'open';
  return { dist, cost, counted, need, qualifies: need <= R, edge, total: Math.round(m.total * 1e6) / 1e6, passes: m.passes, open };
}

function randomFairQuery(rnd: () => number, venues: readonly VenueRecord[], vocabulary: Parameters<typeof randomPreferences>[1], spreadMeters: number): FairQuery {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const anchor = pick(venues).location.coordinates;
  const n = 2 + Math.floor(rnd() * 7);
  const spread = 300 * Math.pow(spreadMeters / 300, rnd());
  const locations: Person[] = [];
  for (let k = 0; k < n; k++) {
    const p = offset(anchor[0], anchor[1], (rnd() - 0.5) * spread, (rnd() - 0.5) * spread);
    const loc: Person = { lat: p.lat, lon: p.lon };
    if (rnd() < 0.5) loc.weight = pick([0, 0.5, 1, 2, 3]);
    if (rnd() < 0.6) loc.travelMode = pick(['WALK', 'BICYCLE', 'DRIVE', 'TRANSIT'] as const);
    if (rnd() < 0.3) loc.label = `friend-${k}`;
    locations.push(loc);
  }
  if (!locations.some((l) => l.weight === undefined || l.weight > 0)) locations[0]!.weight = 1;
  const maxDistance = spread * 0.25 * Math.pow(6, rnd()); // a quarter to 1.5 times the spread: some answers are empty
  const query: FairQuery = { locations, mode: { mode: 'POINT', maxDistance, fairness: rnd() < 0.5 ? 'MIN_MAX' : 'MIN_TOTAL' } };
  if (rnd() < 0.4) query.mode.quorum = 1 + Math.floor(rnd() * n);
  if (rnd() < 0.5) {
    query.preferences = randomPreferences(rnd, vocabulary, NOW);
    const oc = query.preferences.openingConditions;
    if (oc && rnd() < 0.6) {
      oc.onArrival = true;
      if (rnd() < 0.5) oc.stayMinutes = Math.floor(rnd() * 150);
    }
  }
  return query;
}

interface Tally {
  queries: number;
  results: number;
  empty: number;
  quorum: number;
  edge: number;
  edgeDisagreements: number;
}

function pages(service: SearchService, query: FairQuery, limit: number, count: number): SearchResponse[] {
  return Array.from({ length: count }, (_, p) => service.search(query, { limit, offset: p * limit, now: NOW }));
}

function checkQuery(service: SearchService, venues: readonly VenueRecord[], kinds: Set<string>, query: FairQuery, limit: number, tally: Tally): void {
  const context = JSON.stringify(query);
  const R = query.mode.maxDistance;
  // ---- oracle
  const inside = new Map<string, VenueVerdict>();
  const edge = new Map<string, VenueVerdict>();
  for (const v of venues) {
    const o = verdict(v, query, kinds, true);
    if (o === null || !o.passes) continue;
    if (o.edge) edge.set(v.id, o);
    else if (o.qualifies) inside.set(v.id, o);
  }
  // ---- ours: every page (the set), and the first three pages of `limit` (the order)
  const all: SearchResponse['establishments'] = [];
  const first = service.search(query, { limit: 100, offset: 0, now: NOW });
  all.push(...first.establishments);
  for (let off = 100; off < first.totalResults; off += 100) all.push(...service.search(query, { limit: 100, offset: off, now: NOW }).establishments);
  expect(all.length, `totalResults ${context}`).toBe(first.totalResults);
  const got = new Set(all.map((e) => e.id));
  expect(got.size, `duplicates ${context}`).toBe(all.length);
  for (const e of all) {
    if (edge.has(e.id)) continue;
    const o = inside.get(e.id);
    expect(o, `unexpected ${e.id} in ${context}`).toBeDefined();
    expect(e.matchScore.total, `total of ${e.id} ${context}`).toBeCloseTo(o!.total, 5);
    expect(Math.abs(e.group!.cost! - o!.cost), `cost of ${e.id} ${context}`).toBeLessThanOrEqual(COST_TOLERANCE + 0.0005);
    const countedLabels = query.locations.map((l, i) => (o!.counted[i] ? (l.label ?? String(i)) : null)).filter((x) => x !== null);
    expect(e.group!.counted, `counted of ${e.id} ${context}`).toEqual(countedLabels);
    const countedD = o!.dist.filter((_, i) => o!.counted[i]);
    const ws = query.locations.map((l) => l.weight ?? 1).filter((_, i) => o!.counted[i]);
    const wsum = ws.reduce((a, b) => a + b, 0);
    const expectedD =
      query.mode.fairness === 'MIN_MAX' ? Math.max(...countedD) : wsum > 0 ? countedD.reduce((s, d, j) => s + ws[j]! * d, 0) / wsum : countedD.reduce((a, b) => a + b, 0) / countedD.length;
    expect(Math.abs(e.distanceMeters - expectedD), `distanceMeters of ${e.id} ${context}`).toBeLessThanOrEqual(0.5);
    const durations = query.locations.map((l, i) => e.travel[l.label ?? String(i)]!.durationMinutes);
    query.locations.forEach((l, i) => {
      expect(Math.abs(durations[i]! - oracleMinutes(l.travelMode, o!.dist[i]!)), `minutes of ${e.id} for ${i}`).toBeLessThanOrEqual(0.051);
    });
    const cm = durations.filter((_, i) => o!.counted[i]);
    expect(e.group!.maxMinutes).toBe(Math.max(...cm));
    expect(e.group!.spreadMinutes).toBeCloseTo(Math.max(...cm) - Math.min(...cm), 6);
    expect(e.group!.totalMinutes).toBeCloseTo(cm.reduce((a, b) => a + b, 0), 6);
    expect(e.isOpen, `isOpen of ${e.id} ${context}`).toBe(o!.open);
  }
  let missing = 0;
  for (const id of inside.keys()) if (!got.has(id)) missing++;
  expect(missing, `missing venues in ${context}`).toBe(0);
  for (const [id, o] of edge) {
    tally.edge++;
    if (got.has(id) !== o.qualifies) tally.edgeDisagreements++;
  }
  // ---- the first three pages of `limit`: the same keys as the oracle's order, rank by rank
  const three = pages(service, query, limit, 3);
  for (const page of three) expect(page.totalResults, `totalResults of a page of ${limit} ${context}`).toBe(all.length);
  const firstPages = three.flatMap((r) => r.establishments.map((e) => e.id));
  expect(firstPages, `pages ${context}`).toEqual(all.slice(0, firstPages.length).map((e) => e.id));
  const oracleOrder = [...inside.entries()].sort(([ia, a], [ib, b]) => b.total - a.total || a.cost - b.cost || (ia < ib ? -1 : 1));
  const oursNoEdge = firstPages.filter((id) => !edge.has(id));
  for (let r = 0; r < oursNoEdge.length; r++) {
    const mine = inside.get(oursNoEdge[r]!)!;
    const theirs = oracleOrder[r]![1];
    expect(mine.total, `total at rank ${r} ${context}`).toBeCloseTo(theirs.total, 6);
    expect(Math.abs(mine.cost - theirs.cost), `cost at rank ${r}: ours ${oursNoEdge[r]} oracle ${oracleOrder[r]![0]} ${context}`).toBeLessThanOrEqual(COST_TOLERANCE);
  }
  // ---- smallestFeasibleMaxDistance
  if (first.totalResults === 0) {
    tally.empty++;
    let best = Number.POSITIVE_INFINITY;
    // venues in order of a coarse need; exact only for those near the best
    const coarse: Array<[number, VenueRecord]> = venues.map((v) => {
      const [lat, lon] = v.location.coordinates;
      const ds = query.locations.map((p) => Math.hypot((lon - p.lon) * Math.cos((lat * Math.PI) / 180) * 111_320, (lat - p.lat) * 111_000));
      const k = query.mode.quorum ?? ds.length;
      return [[...ds].sort((a, b) => a - b)[k - 1]!, v];
    });
    coarse.sort((a, b) => a[0] - b[0]);
    for (const [lower, v] of coarse) {
      if (lower * 0.97 - 20 > best) break;
      const o = verdict(v, query, kinds, false)!;
      if (o.passes && o.need < best) best = o.need;
    }
    if (best <= 50_000) {
      expect(first.smallestFeasibleMaxDistance, `smallestFeasibleMaxDistance ${context}`).toBeDefined();
      expect(Math.abs(first.smallestFeasibleMaxDistance! - Math.ceil(best)), `smallestFeasibleMaxDistance ${first.smallestFeasibleMaxDistance} vs ${best} ${context}`).toBeLessThanOrEqual(1);
      expect(first.smallestFeasibleMaxDistance! + 1).toBeGreaterThan(R);
    } else {
      expect(first.smallestFeasibleMaxDistance).toBeUndefined();
    }
  } else {
    expect(first.smallestFeasibleMaxDistance).toBeUndefined();
  }
  if (query.mode.quorum !== undefined && query.mode.quorum < query.locations.length) tally.quorum++;
  tally.queries++;
  tally.results += all.length;
}

/** `count` venues uniformly in a 6 km square of central London: dense enough that the walk counts whole subtrees. */
function denseVenues(count: number, seed: number): VenueRecord[] {
  const rnd = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const p = offset(51.51, -0.12, (rnd() - 0.5) * 6000, (rnd() - 0.5) * 6000);
    return { id: `d${String(i).padStart(5, '0')}`, name: `Dense ${i}`, location: { type: 'Point' as const, coordinates: [p.lat, p.lon] as [number, number] } };
  });
}

function suite(name: string, load: () => VenueRecord[], count: number, spread: number, seed: number): void {
  let venues: VenueRecord[];
  let service: SearchService;
  let kinds: Set<string>;
  beforeAll(() => {
    venues = load();
    const engine = createEngine(venues);
    service = createSearchService(engine.store, engine.spatial);
    kinds = kindWords(venues);
  });
  it(`${name}: ${count} random MIN_MAX / MIN_TOTAL / quorum queries of 2-8 people (mixed weights and modes) give the brute-force set, totalResults, the order of three pages and smallestFeasibleMaxDistance (edge within ${EDGE_METERS} m counted)`, () => {
    const rnd = prng(seed);
    const vocabulary = service.vocabulary();
    const tally: Tally = { queries: 0, results: 0, empty: 0, quorum: 0, edge: 0, edgeDisagreements: 0 };
    for (let q = 0; q < count; q++) {
      const limit = 3 + Math.floor(rnd() * 18);
      checkQuery(service, venues, kinds, randomFairQuery(rnd, venues, vocabulary, spread), limit, tally);
    }
    console.log(
      `[fair oracle] ${name}: ${tally.queries} queries (${tally.quorum} with a quorum below the group, ${tally.empty} empty), ${tally.results} results, ${tally.edge} venues at an edge (${tally.edgeDisagreements} answered differently from the oracle)`,
    );
    expect(tally.queries).toBe(count);
    expect(tally.results).toBeGreaterThan(count);
    expect(tally.empty).toBeGreaterThan(count / 40);
    expect(tally.quorum).toBeGreaterThan(count / 10);
  }, 240_000);
}

describe.skipIf(!existsSync(FIXTURES_PATH))('fair oracle: bundled fixtures (3,000 generated venues)', () => {
  suite('fixtures', loadFixtureVenues, 200, 3000, 1501);
});

describe('fair oracle: 40,000 dense venues (whole subtrees counted, not measured)', () => {
  suite('dense', () => denseVenues(40_000, 1503), 24, 5000, 1504);
});

describe.skipIf(!hasShared(LONDON_PUBS))('fair oracle: OSM London pubs (real data)', () => {
  suite('London pubs', loadLondonPubs, 120, 6000, 1502);
});
