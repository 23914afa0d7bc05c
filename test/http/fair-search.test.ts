/**
 * Fair meeting points (issue 15) through the HTTP adapter: the added request fields pass the
 * route's schema, the added response fields (group, smallestFeasibleMaxDistance) survive the
 * response serializer unchanged, and a fairness in PATH mode is a 400 naming the field.
 */
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResponseSchema } from '../../src/schema/search.js';
import { createHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

// around the fixture venue fx-00000 (Call Lane, Leeds)
const group = [
  { lat: 53.8220597, lon: -1.5576415, label: 'amy', travelMode: 'WALK' },
  { lat: 53.8, lon: -1.55, weight: 2, travelMode: 'TRANSIT' },
  { lat: 53.81, lon: -1.58 },
];

describe('POST /v1/search/ with fairness', () => {
  it('MIN_MAX with a quorum, modes and open on arrival: schema-valid, the engine\'s answer byte for byte, with group summaries', async () => {
    const acct = await h.open();
    const body = {
      locations: group,
      mode: { mode: 'POINT', maxDistance: 3000, fairness: 'MIN_MAX', quorum: 2 },
      preferences: { openingConditions: { state: 'OPEN', atTime: '2026-11-21T18:00:00Z', onArrival: true, stayMinutes: 60 } },
    };
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=5', headers: { 'api-key': acct.secretKey }, payload: body });
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(Value.Check(SearchResponseSchema, json)).toBe(true);
    expect(json.establishments.length).toBeGreaterThan(0);
    expect(json.establishments[0].group.counted).toHaveLength(2);
    expect(json).toEqual(JSON.parse(JSON.stringify(h.engine.search(body, { limit: 5, now: h.clock.nowMs }))));
  });

  it('nothing qualifies: 200, no establishments, smallestFeasibleMaxDistance', async () => {
    const acct = await h.open();
    const body = { locations: group, mode: { mode: 'POINT', maxDistance: 50, fairness: 'MIN_TOTAL' } };
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload: body });
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(json.establishments).toEqual([]);
    expect(json.totalResults).toBe(0);
    expect(json.smallestFeasibleMaxDistance).toBeGreaterThan(50);
    expect(Value.Check(SearchResponseSchema, json)).toBe(true);
  });

  it('fairness with PATH: 400 naming mode.fairness', async () => {
    const acct = await h.open();
    const body = { locations: group, mode: { mode: 'PATH', maxDistance: 300, fairness: 'MIN_MAX' } };
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_request_error', param: 'mode.fairness' });
  });
});
