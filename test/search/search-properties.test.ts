// Property tests (fast-check): paging partitions the ordered list; results are inside the
// area and every venue inside that passes the hard filters is found; a venue that meets
// more of what was asked never ranks below one that meets less at the same distance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createSearchService } from '../../src/search/index.js';
import { geodesic, routeDistance } from '../support/oracle.js';
import { offset } from './oracle-queries.js';
import { firstOrderViolation, kindWords, oracleMatch, oracleOpenState, type OraclePrefs } from './support.js';

const NOW = Date.UTC(2026, 10, 21, 19, 0); // Sat 19:00 GMT
const CENTRE = { lat: 51.5136, lon: -0.1365 };
const GENRES = ['pub', 'restaurant', 'coffee_shop', 'bar'];
const FLAGS = ['freeWifi', 'servesFood', 'familyFriendly', 'liveMusic'];
const CATERS = ['vegan', 'vegetarian', 'glutenFree', 'halal'];
const VIBES = ['romantic', 'conversation', 'lively'];
const FIELDS = ['establishmentFilters', 'catersFilters', 'openingConditions', 'vibes', 'chainPreference'];
const HOURS = {
  evenings: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const, timeSlots: [{ open: '17:00', close: '23:00', isClosed: false, closeNextDay: false }] }],
  mornings: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const, timeSlots: [{ open: '07:00', close: '12:00', isClosed: false, closeNextDay: false }] }],
};

interface Features {
  genre: string;
  extraGenres: string[];
  flags: string[];
  caters: string[];
  vibes: string[];
  chain: boolean | undefined;
  hours: keyof typeof HOURS | undefined;
}

const featuresArb: fc.Arbitrary<Features> = fc.record({
  genre: fc.constantFrom(...GENRES),
  extraGenres: fc.subarray(GENRES, { maxLength: 2 }),
  flags: fc.subarray(FLAGS),
  caters: fc.subarray(CATERS),
  vibes: fc.subarray(VIBES),
  chain: fc.constantFrom(true, false, undefined),
  hours: fc.constantFrom<keyof typeof HOURS | undefined>('evenings', 'mornings', undefined),
});

function record(id: string, lat: number, lon: number, f: Features): VenueRecord {
  const r: VenueRecord = {
    id,
    name: id,
    location: { type: 'Point', coordinates: [lat, lon] },
    primaryGenre: f.genre,
    additionalGenres: [...f.extraGenres],
    establishmentFlags: [...f.flags],
    catersFlags: [...f.caters],
    vibes: [...f.vibes],
  };
  if (f.chain !== undefined) r.isChain = f.chain;
  if (f.hours !== undefined) r.regularOpeningHours = structuredClone(HOURS[f.hours]) as unknown as NonNullable<VenueRecord['regularOpeningHours']>;
  return r;
}

const venueArb = fc.record({
  id: fc.stringMatching(/^[a-z0-9]{1,6}$/),
  north: fc.double({ min: -3000, max: 3000, noNaN: true }),
  east: fc.double({ min: -3000, max: 3000, noNaN: true }),
  features: featuresArb,
});

const prefsArb: fc.Arbitrary<OraclePrefs> = fc.record(
  {
    establishmentFilters: fc.subarray([...GENRES, ...FLAGS], { maxLength: 3 }),
    catersFilters: fc.subarray(CATERS, { maxLength: 2 }),
    vibes: fc.subarray(VIBES, { maxLength: 2 }),
    chainPreference: fc.constantFrom('PREFER_INDEPENDENT' as const, 'PREFER_CHAIN' as const, 'NO_PREFERENCE' as const),
    openingConditions: fc.record({ state: fc.constantFrom('OPEN' as const, 'CLOSED' as const) }),
    nonCompromise: fc.subarray(FIELDS),
  },
  { requiredKeys: [] },
);

function build(venues: VenueRecord[]) {
  const engine = createEngine(venues);
  return createSearchService(engine.store, engine.spatial);
}

function uniqueById<T extends { id: string }>(xs: T[]): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => !seen.has(x.id) && seen.add(x.id));
}

describe('search properties', () => {
  it('consecutive pages of any size partition the full ordered list: no repeats, no gaps', () => {
    fc.assert(
      fc.property(
        fc.array(venueArb, { minLength: 0, maxLength: 80 }),
        prefsArb,
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 100, max: 5000, noNaN: true }),
        (raw, prefs, limit, radius) => {
          const venues = uniqueById(raw).map((v) => {
            const p = offset(CENTRE.lat, CENTRE.lon, v.north, v.east);
            return record(v.id, p.lat, p.lon, v.features);
          });
          const service = build(venues);
          const body = { locations: [CENTRE], mode: { mode: 'POINT', maxDistance: radius }, preferences: prefs };
          const full = service.search(body, { limit: 100, offset: 0, now: NOW });
          const paged: string[] = [];
          for (let off = 0; off < full.totalResults + limit; off += limit) {
            const page = service.search(body, { limit, offset: off, now: NOW });
            expect(page.totalResults).toBe(full.totalResults);
            expect(page.establishments.length).toBe(Math.max(0, Math.min(limit, full.totalResults - off)));
            paged.push(...page.establishments.map((e) => e.id));
          }
          expect(paged).toEqual(full.establishments.map((e) => e.id));
          expect(new Set(paged).size).toBe(paged.length);
          expect(firstOrderViolation(full.establishments)).toBe(-1);
        },
      ),
      { numRuns: 60, seed: 4 },
    );
  });

  it('every result is inside the radius, and every venue inside that passes the hard filters is found (edge within 1 m excepted)', () => {
    fc.assert(
      fc.property(fc.array(venueArb, { minLength: 1, maxLength: 80 }), prefsArb, fc.double({ min: 50, max: 4000, noNaN: true }), (raw, prefs, radius) => {
        const venues = uniqueById(raw).map((v) => {
          const p = offset(CENTRE.lat, CENTRE.lon, v.north, v.east);
          return record(v.id, p.lat, p.lon, v.features);
        });
        const service = build(venues);
        const res = service.search({ locations: [CENTRE], mode: { mode: 'POINT', maxDistance: radius }, preferences: prefs }, { limit: 100, now: NOW });
        const kinds = kindWords(venues);
        const got = new Set(res.establishments.map((e) => e.id));
        for (const v of venues) {
          const d = geodesic(CENTRE.lat, CENTRE.lon, v.location.coordinates[0], v.location.coordinates[1]);
          if (Math.abs(d - radius) <= 1) continue;
          const passes = oracleMatch(v, prefs, kinds, oracleOpenState(v, NOW)).passes;
          expect(got.has(v.id), `${v.id} at ${d} m, passes ${passes}`).toBe(d <= radius && passes);
        }
        for (const e of res.establishments) expect(e.distanceMeters).toBeLessThanOrEqual(radius);
      }),
      { numRuns: 80, seed: 5 },
    );
  });

  it('every result is inside the PATH corridor, and every venue inside it that passes the hard filters is found', () => {
    const route = [offset(CENTRE.lat, CENTRE.lon, -2000, -2000), CENTRE, offset(CENTRE.lat, CENTRE.lon, 1500, 2500)];
    fc.assert(
      fc.property(fc.array(venueArb, { minLength: 1, maxLength: 80 }), prefsArb, fc.double({ min: 30, max: 1500, noNaN: true }), (raw, prefs, width) => {
        const venues = uniqueById(raw).map((v) => {
          const p = offset(CENTRE.lat, CENTRE.lon, v.north, v.east);
          return record(v.id, p.lat, p.lon, v.features);
        });
        const service = build(venues);
        const res = service.search({ locations: route, mode: { mode: 'PATH', maxDistance: width }, preferences: prefs }, { limit: 100, now: NOW });
        const kinds = kindWords(venues);
        const got = new Set(res.establishments.map((e) => e.id));
        const path = route.map((p) => [p.lat, p.lon] as const);
        for (const v of venues) {
          const d = routeDistanceOf(path, v);
          if (Math.abs(d - width) <= 1) continue;
          const passes = oracleMatch(v, prefs, kinds, oracleOpenState(v, NOW)).passes;
          expect(got.has(v.id), `${v.id} at ${d} m from the route`).toBe(d <= width && passes);
        }
        for (const e of res.establishments) {
          expect(e.distanceMeters).toBeLessThanOrEqual(width);
          expect(e.alongRouteMeters).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 25, seed: 6 },
    );
  });

  it('monotonicity: a venue that meets more of what was asked never ranks below one that meets less at the same place', () => {
    fc.assert(
      fc.property(
        featuresArb,
        prefsArb,
        fc.array(venueArb, { maxLength: 20 }),
        fc.boolean(),
        fc.nat(),
        (lessFeatures, prefs, others, aFirstId, upgradeSeed) => {
          // "more" = "less" plus everything asked that it can add: asked flags, caters, vibes,
          // the preferred chain status, and hours that are open at the instant if OPEN is asked.
          const more: Features = {
            ...lessFeatures,
            flags: [...new Set([...lessFeatures.flags, ...(prefs.establishmentFilters ?? []).filter((w) => FLAGS.includes(w))])],
            caters: [...new Set([...lessFeatures.caters, ...(prefs.catersFilters ?? [])])],
            vibes: [...new Set([...lessFeatures.vibes, ...(prefs.vibes ?? [])])],
          };
          const askedGenres = (prefs.establishmentFilters ?? []).filter((w) => GENRES.includes(w));
          if (askedGenres.length > 0) more.genre = askedGenres[upgradeSeed % askedGenres.length]!;
          if (prefs.chainPreference === 'PREFER_CHAIN') more.chain = true;
          if (prefs.chainPreference === 'PREFER_INDEPENDENT') more.chain = false;
          if (prefs.openingConditions?.state === 'OPEN') more.hours = 'evenings'; // open at 19:00
          if (prefs.openingConditions?.state === 'CLOSED') more.hours = 'mornings';
          const spot = offset(CENTRE.lat, CENTRE.lon, 300, -200);
          const [idMore, idLess] = aFirstId ? ['m-more', 'm-less'] : ['z-more', 'a-less'];
          const venues = uniqueById([
            record(idMore, spot.lat, spot.lon, more),
            record(idLess, spot.lat, spot.lon, lessFeatures),
            ...others.map((v) => {
              const p = offset(CENTRE.lat, CENTRE.lon, v.north, v.east);
              return record(`o-${v.id}`, p.lat, p.lon, v.features);
            }),
          ]);
          const kinds = kindWords(venues);
          const mMore = oracleMatch(venues[0]!, prefs, kinds, oracleOpenState(venues[0]!, NOW));
          const mLess = oracleMatch(venues[1]!, prefs, kinds, oracleOpenState(venues[1]!, NOW));
          const res = build(venues).search({ locations: [CENTRE], mode: { mode: 'POINT', maxDistance: 5000 }, preferences: prefs }, { limit: 100, now: NOW });
          const ids = res.establishments.map((e) => e.id);
          const iMore = ids.indexOf(idMore);
          const iLess = ids.indexOf(idLess);
          if (iLess >= 0) expect(iMore, 'the venue meeting more is never dropped when the other is kept').toBeGreaterThanOrEqual(0);
          const strictlyMore = mMore.total > mLess.total;
          if (iLess >= 0 && strictlyMore) expect(iMore).toBeLessThan(iLess);
          if (iLess >= 0) expect(res.establishments[iMore]!.matchScore.total).toBeGreaterThanOrEqual(res.establishments[iLess]!.matchScore.total);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});

function routeDistanceOf(path: ReadonlyArray<readonly [number, number]>, v: VenueRecord): number {
  return routeDistance(path, v.location.coordinates[0], v.location.coordinates[1]).distance;
}
