// Fair meeting points (issue 15): properties of the group cost and of quorum, validation,
// the fair centres against numeric oracles, and named opening-on-arrival cases.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { isVenueSearchError } from '../../src/errors.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import type { WeeklyHours } from '../../src/schema/common.js';
import { createSearchService } from '../../src/search/index.js';
import { geodesic, prng } from '../support/oracle.js';
import { offset } from './oracle-queries.js';
import { loadFixtureVenues } from './support.js';

const NOW = Date.UTC(2026, 10, 21, 19, 30); // Saturday 2026-11-21 19:30 UTC (GMT)
const MODES = [undefined, 'WALK', 'BICYCLE', 'DRIVE', 'TRANSIT'] as const;
const LONDON = { lat: 51.51, lon: -0.12 };

function venue(id: string, at: { lat: number; lon: number }, hours?: WeeklyHours): VenueRecord {
  const v: VenueRecord = { id, name: id, location: { type: 'Point', coordinates: [at.lat, at.lon] }, primaryGenre: 'pub' };
  if (hours) v.regularOpeningHours = hours;
  return v;
}

const ALL_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
function daily(open: string, close: string, closeNextDay = false): WeeklyHours {
  return [{ days: [...ALL_DAYS], timeSlots: [{ open, close, isClosed: false, closeNextDay }] }];
}

/** Moves `from` `meters` towards `to` along the geodesic (GeographicLib via offset's Direct). */
function towards(from: { lat: number; lon: number }, to: { lat: number; lon: number }, fraction: number): { lat: number; lon: number } {
  const north = geodesic(from.lat, from.lon, to.lat, from.lon) * Math.sign(to.lat - from.lat);
  const east = geodesic(from.lat, from.lon, from.lat, to.lon) * Math.sign(to.lon - from.lon);
  return offset(from.lat, from.lon, north * fraction, east * fraction);
}

describe('fair meeting points: properties', () => {
  it('moving one person closer to a venue never raises its group cost (300 random groups, MIN_MAX and MIN_TOTAL, quorum, weights, modes)', () => {
    const target = { lat: 51.5, lon: -0.1 };
    const engine = createEngine([venue('only', target)]);
    const rnd = prng(15_01);
    let lowered = 0;
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(rnd() * 8);
      const people = Array.from({ length: n }, () => {
        const p = offset(target.lat, target.lon, (rnd() - 0.5) * 16_000, (rnd() - 0.5) * 16_000);
        const mode = MODES[Math.floor(rnd() * MODES.length)];
        return { lat: p.lat, lon: p.lon, weight: [0, 0.5, 1, 2, 3][Math.floor(rnd() * 5)]!, ...(mode ? { travelMode: mode } : {}) };
      });
      people[0]!.weight = 1;
      const fairness = rnd() < 0.5 ? 'MIN_MAX' : 'MIN_TOTAL';
      const quorum = 1 + Math.floor(rnd() * n);
      const cost = (locations: typeof people) =>
        engine.search({ locations, mode: { mode: 'POINT', maxDistance: 50_000, fairness, quorum } }, { now: NOW }).establishments[0]!.group!.cost!;
      const before = cost(people);
      const who = Math.floor(rnd() * n);
      const moved = people.map((p, k) => (k === who ? { ...p, ...towards(p, target, 0.2 + 0.8 * rnd()) } : p));
      const after = cost(moved);
      expect(after, JSON.stringify({ people, who, fairness, quorum })).toBeLessThanOrEqual(before);
      if (after < before) lowered++;
    }
    expect(lowered).toBeGreaterThan(100);
  });

  it('one location: MIN_MAX and MIN_TOTAL return the same set as CENTRE (100 random queries on the fixtures)', () => {
    const venues = loadFixtureVenues();
    const search = createSearchService(createEngine(venues).store, createEngine(venues).spatial);
    const rnd = prng(15_02);
    let results = 0;
    for (let q = 0; q < 100; q++) {
      const c = venues[Math.floor(rnd() * venues.length)]!.location.coordinates;
      const p = offset(c[0], c[1], (rnd() - 0.5) * 2000, (rnd() - 0.5) * 2000);
      const maxDistance = 50 * Math.pow(100, rnd());
      const mode = MODES[Math.floor(rnd() * MODES.length)];
      const location = { lat: p.lat, lon: p.lon, ...(mode ? { travelMode: mode } : {}) };
      const ids = (fairness: string) => {
        const out: string[] = [];
        for (let offsetN = 0; ; offsetN += 100) {
          const r = search.search({ locations: [location], mode: { mode: 'POINT', maxDistance, fairness } }, { limit: 100, offset: offsetN, now: NOW });
          out.push(...r.establishments.map((e) => e.id));
          if (offsetN + 100 >= r.totalResults) break;
        }
        return out.sort();
      };
      const centre = ids('CENTRE');
      expect(ids('MIN_MAX')).toEqual(centre);
      expect(ids('MIN_TOTAL')).toEqual(centre);
      results += centre.length;
    }
    expect(results).toBeGreaterThan(200);
  });

  it('quorum k = n gives the full-group answer (100 random queries on the fixtures)', () => {
    const venues = loadFixtureVenues();
    const engine = createEngine(venues);
    const rnd = prng(15_03);
    let results = 0;
    for (let q = 0; q < 100; q++) {
      const c = venues[Math.floor(rnd() * venues.length)]!.location.coordinates;
      const n = 2 + Math.floor(rnd() * 7);
      const locations = Array.from({ length: n }, () => {
        const p = offset(c[0], c[1], (rnd() - 0.5) * 3000, (rnd() - 0.5) * 3000);
        return { lat: p.lat, lon: p.lon, weight: 1 + Math.floor(rnd() * 3) };
      });
      const fairness = rnd() < 0.5 ? 'MIN_MAX' : 'MIN_TOTAL';
      const maxDistance = 500 + rnd() * 3000;
      const full = engine.search({ locations, mode: { mode: 'POINT', maxDistance, fairness } }, { limit: 30, now: NOW });
      const withQuorum = engine.search({ locations, mode: { mode: 'POINT', maxDistance, fairness, quorum: n } }, { limit: 30, now: NOW });
      expect(withQuorum).toEqual(full);
      results += full.totalResults;
    }
    expect(results).toBeGreaterThan(100);
  });

  it('quorum ties between equal costs count the earlier location (two people of weight 0)', () => {
    const here = { lat: 51.5, lon: -0.1 };
    const engine = createEngine([venue('v', here)]);
    const locations = [
      { ...offset(here.lat, here.lon, 300, 0), weight: 1, label: 'a' },
      { ...offset(here.lat, here.lon, 900, 0), weight: 0, label: 'b' },
      { ...offset(here.lat, here.lon, 600, 0), weight: 0, label: 'c' },
    ];
    const r = engine.search({ locations, mode: { mode: 'POINT', maxDistance: 1000, fairness: 'MIN_MAX', quorum: 1 } }, { now: NOW });
    expect(r.establishments[0]!.group!.counted).toEqual(['b']);
    const r2 = engine.search({ locations, mode: { mode: 'POINT', maxDistance: 1000, fairness: 'MIN_MAX', quorum: 2 } }, { now: NOW });
    expect(r2.establishments[0]!.group!.counted).toEqual(['b', 'c']);
    // counted people beyond maxDistance disqualify the venue even when a cheaper quorum would fit
    const r3 = engine.search({ locations, mode: { mode: 'POINT', maxDistance: 800, fairness: 'MIN_MAX', quorum: 1 } }, { now: NOW });
    expect(r3.totalResults).toBe(0);
    expect(r3.smallestFeasibleMaxDistance).toBe(Math.ceil(geodesic(locations[1]!.lat, locations[1]!.lon, here.lat, here.lon)));
  });
});

describe('smallestFeasibleMaxDistance', () => {
  const here = { lat: 51.5, lon: -0.1 };
  const people = [offset(here.lat, here.lon, 1000, 0), offset(here.lat, here.lon, -1000, 0)];
  it('is the need of the best venue passing the hard filters, sought within 50 km; absent beyond or when none passes', () => {
    const engine = createEngine([
      { ...venue('vegan-40km', offset(here.lat, here.lon, 0, 40_000)), catersFlags: ['vegan'] },
      venue('meat-2km', offset(here.lat, here.lon, 0, 2000)),
      { ...venue('vegan-60km', offset(here.lat, here.lon, 0, -60_000)), catersFlags: ['vegan'] },
    ]);
    const ask = (catersFilters: string[], fairness: string) =>
      engine.search({ locations: people, mode: { mode: 'POINT', maxDistance: 100, fairness }, preferences: { catersFilters, nonCompromise: ['catersFilters'] } }, { now: NOW });
    for (const fairness of ['CENTRE', 'MIN_MAX', 'MIN_TOTAL']) {
      const vegan = ask(['vegan'], fairness);
      expect(vegan.totalResults).toBe(0);
      const far = offset(here.lat, here.lon, 0, 40_000);
      const need = fairness === 'CENTRE' ? geodesic(vegan.centerPoint.Lat, vegan.centerPoint.Lon, far.lat, far.lon) : Math.max(...people.map((p) => geodesic(p.lat, p.lon, far.lat, far.lon)));
      expect(Math.abs(vegan.smallestFeasibleMaxDistance! - Math.ceil(need)), fairness).toBeLessThanOrEqual(1);
      expect(ask(['halal'], fairness).smallestFeasibleMaxDistance, fairness).toBeUndefined();
      expect(ask([], fairness).smallestFeasibleMaxDistance).toBeGreaterThan(2000);
    }
    // the 60 km vegan venue alone is beyond any maxDistance a request may ask
    const only60 = createEngine([{ ...venue('vegan-60km', offset(here.lat, here.lon, 0, -60_000)), catersFlags: ['vegan'] }]);
    expect(only60.search({ locations: people, mode: { mode: 'POINT', maxDistance: 100, fairness: 'MIN_MAX' } }, { now: NOW }).smallestFeasibleMaxDistance).toBeUndefined();
  });
});

describe('fair meeting points: centres', () => {
  /** The largest / weighted total geodesic distance from (lat, lon) to the people. */
  const worst = (c: { lat: number; lon: number }, ps: Array<{ lat: number; lon: number }>) => Math.max(...ps.map((p) => geodesic(c.lat, c.lon, p.lat, p.lon)));
  const total = (c: { lat: number; lon: number }, ps: Array<{ lat: number; lon: number; weight: number }>) =>
    ps.reduce((s, p) => s + p.weight * geodesic(c.lat, c.lon, p.lat, p.lon), 0);
  /** Pattern search from `start` (GeographicLib distances): a numeric minimum of f to ~1 cm. */
  function minimise(f: (c: { lat: number; lon: number }) => number, start: { lat: number; lon: number }): number {
    let c = start;
    let best = f(c);
    for (let step = 2000; step > 0.01; step /= 2) {
      let improved = true;
      while (improved) {
        improved = false;
        for (const [n, e] of [[step, 0], [-step, 0], [0, step], [0, -step], [step, step], [-step, -step], [step, -step], [-step, step]] as const) {
          const next = offset(c.lat, c.lon, n, e);
          const v = f(next);
          if (v < best) {
            best = v;
            c = next;
            improved = true;
          }
        }
      }
    }
    return best;
  }

  it('MIN_MAX centerPoint is the smallest enclosing circle centre and MIN_TOTAL the weighted geometric median (40 random groups, GeographicLib pattern search)', () => {
    const engine = createEngine([venue('v', LONDON)]);
    const rnd = prng(15_04);
    for (let t = 0; t < 40; t++) {
      const n = 2 + Math.floor(rnd() * 7);
      const people = Array.from({ length: n }, () => ({ ...offset(LONDON.lat, LONDON.lon, (rnd() - 0.5) * 10_000, (rnd() - 0.5) * 10_000), weight: [0.5, 1, 2, 5][Math.floor(rnd() * 4)]! }));
      const ask = (fairness: string) => engine.search({ locations: people, mode: { mode: 'POINT', maxDistance: 50_000, fairness } }, { now: NOW }).centerPoint;
      const sec = ask('MIN_MAX');
      const ours = worst({ lat: sec.Lat, lon: sec.Lon }, people);
      expect(ours).toBeLessThanOrEqual(minimise((c) => worst(c, people), LONDON) * (1 + 2e-3) + 0.5);
      const med = ask('MIN_TOTAL');
      const oursTotal = total({ lat: med.Lat, lon: med.Lon }, people);
      expect(oursTotal).toBeLessThanOrEqual(minimise((c) => total(c, people), LONDON) * (1 + 2e-3) + 0.5);
    }
  });
});

describe('fair meeting points: validation', () => {
  const engine = createEngine([venue('v', LONDON)]);
  const fail = (body: unknown): { code: string; param?: string; message: string } => {
    try {
      engine.search(body, { now: NOW });
    } catch (e) {
      if (isVenueSearchError(e)) return { code: e.code, ...(e.param ? { param: e.param } : {}), message: e.message };
      throw e;
    }
    throw new Error('no error');
  };
  const two = [LONDON, { lat: 51.52, lon: -0.1 }];
  it('fairness in PATH mode is a 400 naming mode.fairness', () => {
    const e = fail({ locations: two, mode: { mode: 'PATH', maxDistance: 100, fairness: 'MIN_MAX' } });
    expect(e).toMatchObject({ code: 'invalid_request', param: 'mode.fairness' });
    expect(e.message).toContain('MIN_MAX');
  });
  it('quorum above the number of locations, below 1, or with CENTRE is a 400 naming mode.quorum', () => {
    expect(fail({ locations: two, mode: { mode: 'POINT', maxDistance: 100, fairness: 'MIN_MAX', quorum: 3 } })).toMatchObject({ param: 'mode.quorum' });
    expect(fail({ locations: two, mode: { mode: 'POINT', maxDistance: 100, fairness: 'MIN_MAX', quorum: 0 } })).toMatchObject({ param: 'mode.quorum' });
    expect(fail({ locations: two, mode: { mode: 'POINT', maxDistance: 100, fairness: 'MIN_MAX', quorum: 1.5 } })).toMatchObject({ param: 'mode.quorum' });
    expect(fail({ locations: two, mode: { mode: 'POINT', maxDistance: 100, quorum: 1 } })).toMatchObject({ param: 'mode.quorum' });
  });
  it('an unknown fairness or travelMode, and a stayMinutes out of range, name their fields', () => {
    expect(fail({ locations: two, mode: { mode: 'POINT', maxDistance: 100, fairness: 'FAIR' } })).toMatchObject({ param: 'mode.fairness' });
    expect(fail({ locations: [{ ...LONDON, travelMode: 'SWIM' }], mode: { mode: 'POINT', maxDistance: 100 } })).toMatchObject({ param: 'locations[0].travelMode' });
    expect(
      fail({ locations: two, mode: { mode: 'POINT', maxDistance: 100 }, preferences: { openingConditions: { state: 'OPEN', onArrival: true, stayMinutes: 2000 } } }),
    ).toMatchObject({ param: 'preferences.openingConditions.stayMinutes' });
  });
});

describe('open on arrival: named cases', () => {
  // Two walkers (WALK: d * 1.3 / 80 m per min) at 800 m (13 min) and 2,400 m (39 min) from
  // the venues, which sit within metres of each other in London (GMT in November: UTC).
  const site = { lat: 51.5, lon: -0.1 };
  const near = (k: number) => offset(site.lat, site.lon, 0, k * 3); // venues 3 m apart
  const people = [
    { ...offset(site.lat, site.lon, 800, 0), travelMode: 'WALK' as const, label: 'near' },
    { ...offset(site.lat, site.lon, -2400, 0), travelMode: 'WALK' as const, label: 'far' },
  ];
  const ask = (engine: ReturnType<typeof createEngine>, atTime: string, opening: object, fairness = 'MIN_MAX', hard = true) =>
    engine.search(
      {
        locations: people,
        mode: { mode: 'POINT', maxDistance: 3000, fairness },
        preferences: { openingConditions: { state: 'OPEN', atTime, ...opening }, nonCompromise: hard ? ['openingConditions'] : [] },
      },
      { now: NOW },
    );
  const ids = (r: { establishments: Array<{ id: string }> }) => r.establishments.map((e) => e.id).sort();

  it('a venue that closes before the last person arrives is left out; the one open then is kept, isOpen at the arrival', () => {
    const engine = createEngine([venue('closes-2030', near(0), daily('12:00', '20:30')), venue('closes-2300', near(1), daily('12:00', '23:00'))]);
    // departure 20:00: the far walker arrives at ~20:39
    expect(ids(ask(engine, '2026-11-21T20:00:00Z', {}))).toEqual(['closes-2030', 'closes-2300']);
    const r = ask(engine, '2026-11-21T20:00:00Z', { onArrival: true });
    expect(ids(r)).toEqual(['closes-2300']);
    expect(r.establishments[0]!.isOpen).toBe(true);
    expect(r.establishments[0]!.group!.maxMinutes).toBeCloseTo((2400 * 1.3) / 80, 0);
    // the same with CENTRE: the last of everyone's arrivals
    expect(ids(ask(engine, '2026-11-21T20:00:00Z', { onArrival: true }, 'CENTRE'))).toEqual(['closes-2300']);
    // soft: kept, scored 0 for opening, reported closed on arrival
    const soft = ask(engine, '2026-11-21T20:00:00Z', { onArrival: true }, 'MIN_MAX', false);
    const late = soft.establishments.find((e) => e.id === 'closes-2030')!;
    expect(late.isOpen).toBe(false);
    expect(late.matchScore.openingMatch).toBe(0);
  });

  it('a stayMinutes that runs past closing leaves the venue out (open on arrival is not enough)', () => {
    const engine = createEngine([venue('closes-2100', near(0), daily('12:00', '21:00'))]);
    // arrival ~20:39: 15 minutes fit before 21:00, 30 do not
    expect(ids(ask(engine, '2026-11-21T20:00:00Z', { onArrival: true, stayMinutes: 15 }))).toEqual(['closes-2100']);
    expect(ids(ask(engine, '2026-11-21T20:00:00Z', { onArrival: true, stayMinutes: 30 }))).toEqual([]);
    const soft = ask(engine, '2026-11-21T20:00:00Z', { onArrival: true, stayMinutes: 30 }, 'MIN_TOTAL', false).establishments[0]!;
    expect(soft.isOpen).toBe(true); // open at the arrival instant...
    expect(soft.relaxed).toEqual(['openingConditions']); // ...but not for the whole stay
    // without onArrival the stay runs from atTime: 20:40 + 20 min fits before 21:00, + 25 does not
    expect(ids(ask(engine, '2026-11-21T20:40:00Z', { stayMinutes: 20 }))).toEqual(['closes-2100']);
    expect(ids(ask(engine, '2026-11-21T20:40:00Z', { stayMinutes: 25 }))).toEqual([]);
  });

  it('an overnight slot reached after midnight is open; a slot ending at midnight is not', () => {
    const engine = createEngine([
      venue('sat-late', near(0), [{ days: ['Sat'], timeSlots: [{ open: '22:00', close: '02:00', isClosed: false, closeNextDay: true }] }]),
      venue('to-midnight', near(1), [{ days: ['Sat'], timeSlots: [{ open: '18:00', close: '24:00', isClosed: false, closeNextDay: false }] }]),
    ]);
    // departure Saturday 23:40: both open; arrival ~Sunday 00:19: only the overnight slot
    expect(ids(ask(engine, '2026-11-21T23:40:00Z', {}))).toEqual(['sat-late', 'to-midnight']);
    const r = ask(engine, '2026-11-21T23:40:00Z', { onArrival: true });
    expect(ids(r)).toEqual(['sat-late']);
    expect(r.establishments[0]!.isOpen).toBe(true);
    // and a stay past its 02:00 close is not
    expect(ids(ask(engine, '2026-11-21T23:40:00Z', { onArrival: true, stayMinutes: 120 }))).toEqual([]);
  });

  it('PATH: arrival is the drive along the route to the venue plus the leg off it, at the first location\'s mode', () => {
    const start = { lat: 51.45, lon: -0.2 };
    const end = offset(start.lat, start.lon, 0, 10_000);
    const farAlong = offset(start.lat, start.lon, 100, 9000); // ~9 km along, 100 m off
    const nearStart = offset(start.lat, start.lon, 100, 200);
    const engine = createEngine([venue('far-along', farAlong, daily('19:30', '23:00')), venue('near-start', nearStart, daily('19:30', '23:00'))]);
    // DRIVE: 8 min + 1.4 d / 500 m per min: ~33.5 min to far-along (arrives ~19:33), ~8.8 min to near-start (~19:08)
    const body = (onArrival: boolean) => ({
      locations: [{ ...start, travelMode: 'DRIVE' as const }, { ...end, travelMode: 'WALK' as const }],
      mode: { mode: 'PATH' as const, maxDistance: 500 },
      preferences: { openingConditions: { state: 'OPEN' as const, atTime: '2026-11-21T19:00:00Z', onArrival }, nonCompromise: ['openingConditions' as const] },
    });
    expect(engine.search(body(false), { now: NOW }).totalResults).toBe(0);
    const r = engine.search(body(true), { now: NOW });
    expect(ids(r)).toEqual(['far-along']);
    expect(r.establishments[0]!.isOpen).toBe(true);
    const e = r.establishments[0]!;
    const minutes = 8 + ((e.alongRouteMeters! + e.distanceMeters) * 1.4) / 500;
    expect(minutes).toBeGreaterThan(30);
    expect(minutes).toBeLessThan(40);
    expect(e.group).toBeUndefined();
  });
});
