/**
 * Geometry edge cases through the public HTTP API (issue 8, item 2), over an engine built from
 * synthetic venues (copies of a fixture record moved to chosen places). Oracle: GeographicLib
 * geodesics (test/support/oracle.ts) by brute force over every synthetic venue, and the bounds
 * stated in src/schema/search.ts and src/schema/find.ts (docs/search.md), which must come
 * back as 400s naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount, type OpenedAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { MAX_FIND_DISTANCE_METERS } from '../../src/schema/find.js';
import { MAX_LOCATIONS, MAX_PATH_DISTANCE_METERS, MAX_POINT_DISTANCE_METERS } from '../../src/schema/search.js';
import { geodesic, routeDistance } from '../support/oracle.js';
import { expectEnvelope } from './support/envelope.js';
import type { FastifyInstance } from 'fastify';

const places: [string, number, number][] = [];
// both sides of the antimeridian, at the equator and at 65 N
for (const lat of [0, 65]) for (const lon of [179.95, 179.99, 179.995, 180, -179.995, -179.99, -179.95]) places.push([`am-${lat}-${lon}`, lat, lon]);
// near both poles (lat exactly +-90 is a single point whatever the longitude)
for (const lon of [-180, -90, 0, 90, 179.9]) places.push([`np-${lon}`, 89.9995, lon], [`sp-${lon}`, -89.9995, lon]);
places.push(['np-exact', 90, 0], ['sp-exact', -90, 0]);
// along a route in London that doubles back (every 0.005 degrees of longitude, on and 150 m off it)
for (let i = 0; i <= 40; i++) {
  const lon = -0.2 + i * 0.005;
  places.push([`rt-on-${i}`, 51.5, lon], [`rt-off-${i}`, 51.50135, lon]);
}
// two venues at exactly the same point
places.push(['dup-a', 53.8, -1.55], ['dup-b', 53.8, -1.55]);

let app: FastifyInstance;
let store: SqliteAccountsStore;
let acct: OpenedAccount;
let venues: VenueRecord[];

beforeAll(async () => {
  const { venues: fixtures } = await readVenues('fixtures/venues.ndjson');
  const template = fixtures[0]!;
  venues = places.map(([id, lat, lon]) => ({ ...template, id, location: { type: 'Point', coordinates: [lat, lon] } }) as VenueRecord);
  store = new SqliteAccountsStore(':memory:');
  app = await buildApp({ engine: createEngine(venues), accounts: store, planWindows: () => [{ name: 'second', limit: 1e9, windowMs: 1000 }] });
  acct = await openAccount(store, 'Enterprise', { openingCreditMicros: 1e12 });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

interface Result {
  id: string;
  travel: Record<string, { distanceMeters: number }>;
  alongRouteMeters?: number;
}
interface SearchAnswer {
  centerPoint: { Lat: number; Lon: number };
  establishments: Result[];
  totalResults: number;
}

async function search(body: unknown, limit = 100): Promise<{ status: number; payload: string; json: SearchAnswer }> {
  const res = await app.inject({ method: 'POST', url: `/v1/search/?limit=${limit}`, headers: { 'API-Key': acct.secretKey }, payload: body as object });
  return { status: res.statusCode, payload: res.payload, json: res.json() as SearchAnswer };
}

function pointAt(id: string): [number, number] {
  const [, lat, lon] = places.find((p) => p[0] === id)!;
  return [lat, lon];
}

/** Brute-force POINT answer around (lat, lon); venues within 1 m of the edge may go either way. */
function oraclePoint(lat: number, lon: number, radius: number): { inside: Set<string>; edge: Set<string> } {
  const inside = new Set<string>();
  const edge = new Set<string>();
  for (const [id, vLat, vLon] of places) {
    const d = geodesic(lat, lon, vLat, vLon);
    if (Math.abs(d - radius) <= 1) edge.add(id);
    else if (d < radius) inside.add(id);
  }
  return { inside, edge };
}

function expectSameSet(got: Result[], oracle: { inside: Set<string>; edge: Set<string> }, what: string): void {
  const ids = got.map((r) => r.id);
  expect(new Set(ids).size, `${what}: no venue twice`).toBe(ids.length);
  for (const id of ids) expect(oracle.inside.has(id) || oracle.edge.has(id), `${what}: ${id} returned but outside`).toBe(true);
  for (const id of oracle.inside) expect(ids, `${what}: ${id} inside but missing`).toContain(id);
}

describe('coordinates at the limits', () => {
  it.each([
    ['lat exactly +90', 90, 0],
    ['lat exactly -90', -90, 0],
    ['lon exactly +180', 0, 180],
    ['lon exactly -180', 0, -180],
    ['lat +90 and lon -180 together', 90, -180],
  ])('%s is accepted and answers the brute-force set within 2 km', async (_name, lat, lon) => {
    const res = await search({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 2000 } });
    expect(res.status, res.payload).toBe(200);
    expectSameSet(res.json.establishments, oraclePoint(lat, lon, 2000), `${lat},${lon}`);
    for (const r of res.json.establishments) {
      const [vLat, vLon] = pointAt(r.id);
      expect(r.travel['0']!.distanceMeters).toBeCloseTo(geodesic(lat, lon, vLat, vLon), 0);
    }
  });

  it.each([
    ['lat 90.0000001', { lat: 90.000_000_1, lon: 0 }, 'locations.0.lat'],
    ['lat -90.0000001', { lat: -90.000_000_1, lon: 0 }, 'locations.0.lat'],
    ['lon 180.0000001', { lat: 0, lon: 180.000_000_1 }, 'locations.0.lon'],
    ['lon -180.0000001', { lat: 0, lon: -180.000_000_1 }, 'locations.0.lon'],
  ])('%s is a 400 naming the coordinate', async (_name, location, param) => {
    const res = await search({ locations: [location], mode: { mode: 'POINT', maxDistance: 2000 } });
    expect(res.status).toBe(400);
    expect(expectEnvelope(res.status, res.payload, param).param).toBe(param);
  });

  it('find: lat 90 / lon -180 accepted, lat 90.0001 and lon 180.5 are 400s naming lat and lon', async () => {
    const ok = await app.inject({ method: 'GET', url: '/v1/find?q=nando&lat=90&lon=-180&maxDistanceMeters=2000', headers: { 'API-Key': acct.secretKey } });
    expect(ok.statusCode, ok.payload).toBe(200);
    for (const [query, param] of [
      ['q=nando&lat=90.0001&lon=0', 'lat'],
      ['q=nando&lat=0&lon=180.5', 'lon'],
      [`q=nando&lat=0&lon=0&maxDistanceMeters=${MAX_FIND_DISTANCE_METERS + 1}`, 'maxDistanceMeters'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: `/v1/find?${query}`, headers: { 'API-Key': acct.secretKey } });
      expect(res.statusCode, query).toBe(400);
      expect(expectEnvelope(res.statusCode, res.payload, query).param).toBe(param);
    }
  });
});

describe('antimeridian', () => {
  it.each([0, 65])('POINT at lat %d: two people either side of the antimeridian meet at lon 180 (not 0) and find the venues on both sides', async (lat) => {
    const res = await search({ locations: [{ lat, lon: 179.99 }, { lat, lon: -179.99 }], mode: { mode: 'POINT', maxDistance: 3000 } });
    expect(res.status, res.payload).toBe(200);
    expect(Math.abs(Math.abs(res.json.centerPoint.Lon) - 180)).toBeLessThan(1e-6);
    expect(res.json.centerPoint.Lat).toBeCloseTo(lat, 4);
    const oracle = oraclePoint(res.json.centerPoint.Lat, res.json.centerPoint.Lon, 3000);
    expect(oracle.inside.size).toBeGreaterThanOrEqual(4);
    expectSameSet(res.json.establishments, oracle, `antimeridian ${lat}`);
  });

  it('PATH across the antimeridian (179.95 -> -179.95 at the equator) keeps the short way round', async () => {
    const route: [number, number][] = [
      [0, 179.95],
      [0, -179.95],
    ];
    const res = await search({ locations: route.map(([lat, lon]) => ({ lat, lon })), mode: { mode: 'PATH', maxDistance: 500 } });
    expect(res.status, res.payload).toBe(200);
    const expected = places.filter(([, lat, lon]) => routeDistance(route, lat, lon).distance < 499).map(([id]) => id);
    expect(expected.length).toBeGreaterThanOrEqual(7);
    const ids = res.json.establishments.map((r) => r.id);
    for (const id of expected) expect(ids).toContain(id);
    for (const r of res.json.establishments) {
      const [lat, lon] = pointAt(r.id);
      expect(routeDistance(route, lat, lon).distance).toBeLessThanOrEqual(501);
      expect(r.alongRouteMeters!).toBeCloseTo(routeDistance(route, lat, lon).along, -1);
    }
  });
});

describe('routes and duplicates', () => {
  it('a PATH that doubles back (west -> east -> halfway west again) lists each venue once, all within the corridor, none outside missing', async () => {
    const route: [number, number][] = [
      [51.5, -0.2],
      [51.5, -0.1],
      [51.5, -0.15],
    ];
    const res = await search({ locations: route.map(([lat, lon]) => ({ lat, lon })), mode: { mode: 'PATH', maxDistance: 100 } });
    expect(res.status, res.payload).toBe(200);
    const ids = res.json.establishments.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const expected = places.filter(([, lat, lon]) => routeDistance(route, lat, lon).distance < 99).map(([id]) => id);
    expect(expected.length).toBe(21); // rt-on-0 .. rt-on-20; the 150 m offset row is outside
    expect([...ids].sort()).toEqual([...expected].sort());
  });

  it('duplicate points: the same location twice gives the same venues and distances as once; a PATH with a repeated vertex is accepted', async () => {
    const once = await search({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 500 } });
    const twice = await search({ locations: [{ lat: 53.8, lon: -1.55 }, { lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 500 } });
    expect(once.status).toBe(200);
    expect(twice.status).toBe(200);
    expect(twice.json.establishments.map((r) => r.id).sort()).toEqual(['dup-a', 'dup-b']);
    expect(once.json.establishments.map((r) => r.id).sort()).toEqual(['dup-a', 'dup-b']);
    for (const r of twice.json.establishments) expect(r.travel['0']!.distanceMeters).toBeCloseTo(r.travel['1']!.distanceMeters, 6);
    const path = await search({
      locations: [{ lat: 51.5, lon: -0.2 }, { lat: 51.5, lon: -0.2 }, { lat: 51.5, lon: -0.19 }, { lat: 51.5, lon: -0.19 }],
      mode: { mode: 'PATH', maxDistance: 50 },
    });
    expect(path.status, path.payload).toBe(200);
    expect(path.json.establishments.map((r) => r.id).sort()).toEqual(['rt-on-0', 'rt-on-1', 'rt-on-2']);
    const single = await search({ locations: [{ lat: 51.5, lon: -0.2 }, { lat: 51.5, lon: -0.2 }], mode: { mode: 'PATH', maxDistance: 50 } });
    expect(single.status, single.payload).toBeLessThan(500);
    if (single.status !== 200) expectEnvelope(single.status, single.payload, 'zero-length PATH');
  });
});

describe('bounds of maxDistance and of the number of locations (src/schema/search.ts)', () => {
  const at = { lat: 51.5, lon: -0.15 };
  it.each([
    ['POINT maxDistance 0', 'POINT', 0],
    ['POINT maxDistance -0', 'POINT', -0],
    ['POINT maxDistance -1', 'POINT', -1],
    [`POINT maxDistance ${MAX_POINT_DISTANCE_METERS + 1} (over the bound)`, 'POINT', MAX_POINT_DISTANCE_METERS + 1],
    [`PATH maxDistance ${MAX_PATH_DISTANCE_METERS + 1} (over the PATH bound)`, 'PATH', MAX_PATH_DISTANCE_METERS + 1],
    ['POINT maxDistance 1e300 (huge)', 'POINT', 1e300],
  ])('%s is a 400 naming mode.maxDistance', async (_name, mode, maxDistance) => {
    const res = await search({ locations: [at, { lat: 51.5, lon: -0.1 }], mode: { mode, maxDistance } });
    expect(res.status, res.payload).toBe(400);
    expect(expectEnvelope(res.status, res.payload, 'maxDistance').param).toBe('mode.maxDistance');
  });

  it('maxDistance 1e400 (not a double: parses to Infinity) is a 400 naming mode.maxDistance', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/search/',
      headers: { 'API-Key': acct.secretKey, 'content-type': 'application/json' },
      payload: '{"locations":[{"lat":51.5,"lon":-0.15}],"mode":{"mode":"POINT","maxDistance":1e400}}',
    });
    expect(res.statusCode).toBe(400);
    expect(expectEnvelope(res.statusCode, res.payload, '1e400').param).toBe('mode.maxDistance');
  });

  it(`maxDistance at the bounds (5e-324, ${MAX_POINT_DISTANCE_METERS} POINT, ${MAX_PATH_DISTANCE_METERS} PATH) is served`, async () => {
    for (const [mode, maxDistance] of [
      ['POINT', 5e-324],
      ['POINT', MAX_POINT_DISTANCE_METERS],
      ['PATH', MAX_PATH_DISTANCE_METERS],
    ] as const) {
      const res = await search({ locations: [at, { lat: 51.5, lon: -0.1 }], mode: { mode, maxDistance } });
      expect(res.status, `${mode} ${maxDistance}: ${res.payload}`).toBe(200);
    }
  });

  it(`${MAX_LOCATIONS} locations (the maximum) are served, POINT and PATH; ${MAX_LOCATIONS + 1} and 500 are 400s naming locations`, async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: 51.5, lon: -0.2 + (i % 40) * 0.0025 }));
    for (const mode of ['POINT', 'PATH']) {
      const ok = await search({ locations: many(MAX_LOCATIONS), mode: { mode, maxDistance: 200 } });
      expect(ok.status, `${mode}: ${ok.payload.slice(0, 200)}`).toBe(200);
      for (const n of [MAX_LOCATIONS + 1, 500]) {
        const res = await search({ locations: many(n), mode: { mode, maxDistance: 200 } });
        expect(res.status, `${mode} ${n}`).toBe(400);
        expect(expectEnvelope(res.status, res.payload, `${n} locations`).param).toBe('locations');
      }
    }
  });
});
