/**
 * Every /v1 endpoint through app.inject: success shapes (checked with TypeBox's own
 * validator against the published schemas), billing amounts against the price list of
 * interface section 8 computed by hand, and Cache-Control on venue responses.
 */
import { Value } from '@sinclair/typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BalancesResponseSchema, ErrorEnvelopeSchema } from '../../src/http/v1/schemas.js';
import { createHarness, ledgerRows, type Harness } from './support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const searchBody = { locations: [{ lat: 51.52, lon: -0.12 }], mode: { mode: 'POINT', maxDistance: 1000 } };

describe('venue endpoints', () => {
  it('POST /v1/search/ answers 200 with no-store, passes limit/offset/now to the engine, charges 6000 micros', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=2&offset=1', headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      centerPoint: { Lat: 51.5, Lon: -0.12 },
      radius: 1000,
      establishments: [
        { id: 'v-2', name: 'Lamb and Flag' },
        { id: 'v-3', name: 'Monmouth Coffee' },
      ],
    });
    expect(h.engine.lastSearchOptions).toEqual({ limit: 2, offset: 1, now: h.clock.nowMs });
    expect(await h.store.balanceMicros(acct.accountId)).toBe(10_000_000 - 6000);
  });

  it('search without trailing slash is the same route; default limit 20 costs one group', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search', headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    expect(h.engine.lastSearchOptions).toEqual({ limit: 20, offset: 0, now: h.clock.nowMs });
    expect(ledgerRows(h.store, acct.accountId).at(-1)).toMatchObject({ kind: 'search', amount_micros: -6000 });
  });

  it.each([
    [1, 6000],
    [20, 6000],
    [21, 12_000],
    [35, 12_000],
    [40, 12_000],
    [100, 30_000],
  ])('search with limit=%i is billed %i micros (per started group of 20)', async (limit, cost) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: `/v1/search/?limit=${limit}`, headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    expect(await h.store.balanceMicros(acct.accountId)).toBe(10_000_000 - cost);
  });

  it('GET /v1/find answers 200 with no-store and charges 6000; name is passed as given', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?name=lamb&lat=51.5&lon=-0.1&maxDistanceMeters=2000', headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.totalFound).toBe(2);
    expect(body.searchLocation).toEqual({ Lat: 51.5, Lon: -0.1 });
    expect(body.maxDistanceMeters).toBe(2000);
    expect(ledgerRows(h.store, acct.accountId).at(-1)).toMatchObject({ kind: 'find', amount_micros: -6000, request_id: res.headers['request-id'] });
  });

  it.each([
    ['basic', 8000],
    ['advanced', 12_000],
    ['menus', 6000],
  ] as const)('GET /v1/establishments/%s/:id answers 200 with no-store and charges %i', async (kind, cost) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: `/v1/establishments/${kind}/v-3`, headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(h.engine.calls[kind]).toBe(1);
    expect(ledgerRows(h.store, acct.accountId).at(-1)).toMatchObject({ kind, amount_micros: -cost });
    expect(await h.store.balanceMicros(acct.accountId)).toBe(10_000_000 - cost);
  });

  it('GET /v1/vocabulary is free', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/vocabulary', headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ establishmentFilters: ['restaurant', 'coffee_shop'], catersFilters: ['vegan'] });
    expect(await h.store.balanceMicros(acct.accountId)).toBe(10_000_000);
  });
});

describe('balances', () => {
  it('GET /v1/business/balances reports balance and usage by kind since opening, exactly as the contract shapes it', async () => {
    const acct = await h.open('StartUp');
    const key = { 'api-key': acct.publicKey };
    await h.app.inject({ method: 'GET', url: '/v1/find?q=lamb', headers: key });
    await h.app.inject({ method: 'GET', url: '/v1/find?q=coffee', headers: key });
    await h.app.inject({ method: 'GET', url: '/v1/establishments/advanced/v-1', headers: key });
    await h.app.inject({ method: 'GET', url: '/v1/establishments/basic/nope', headers: key }); // 404: free
    const res = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Value.Check(BalancesResponseSchema, body)).toBe(true);
    expect(body).toEqual({
      accountId: acct.accountId,
      plan: 'StartUp',
      currency: 'GBP',
      balanceMicros: 10_000_000 - 2 * 6000 - 12_000,
      usage: {
        search: { requests: 0, costMicros: 0 },
        find: { requests: 2, costMicros: 12_000 },
        basic: { requests: 0, costMicros: 0 },
        advanced: { requests: 1, costMicros: 12_000 },
        menus: { requests: 0, costMicros: 0 },
      },
    });
  });

  it('POST /v1/business/balances reports usage over [from, to) only and changes nothing', async () => {
    const acct = await h.open();
    const key = { 'api-key': acct.secretKey };
    const t0 = h.clock.nowMs;
    await h.app.inject({ method: 'GET', url: '/v1/find?q=lamb', headers: key }); // at t0
    h.clock.advance(3_600_000);
    await h.app.inject({ method: 'GET', url: '/v1/establishments/menus/v-1', headers: key }); // at t0 + 1 h
    const range = { from: new Date(t0 + 1).toISOString(), to: new Date(t0 + 3_600_000 + 1).toISOString() };
    const res = await h.app.inject({ method: 'POST', url: '/v1/business/balances', headers: key, payload: range });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Value.Check(BalancesResponseSchema, body)).toBe(true);
    expect(body.usage.find).toEqual({ requests: 0, costMicros: 0 });
    expect(body.usage.menus).toEqual({ requests: 1, costMicros: 6000 });
    expect(body.balanceMicros).toBe(10_000_000 - 12_000);
    // end of range is exclusive: to = t0 excludes the find made at t0
    const exclusive = await h.app.inject({
      method: 'POST',
      url: '/v1/business/balances',
      headers: key,
      payload: { from: new Date(t0 - 1000).toISOString(), to: new Date(t0).toISOString() },
    });
    expect(exclusive.json().usage.find).toEqual({ requests: 0, costMicros: 0 });
    expect(ledgerRows(h.store, acct.accountId)).toHaveLength(3); // opening credit + 2 charges
  });
});

describe('OpenAPI', () => {
  it('GET /v1/openapi.json needs no key and documents every v1 route with the error envelope', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/v1/business/balances',
        '/v1/establishments/advanced/{id}',
        '/v1/establishments/basic/{id}',
        '/v1/establishments/menus/{id}',
        '/v1/find',
        '/v1/search/',
        '/v1/vocabulary',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/v1/business/balances']).sort()).toEqual(['get', 'post']);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'API-Key' });
    const findParams = doc.paths['/v1/find'].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(findParams).toEqual(['lat', 'location', 'lon', 'maxDistanceMeters', 'name', 'q']);
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(['message', 'type', 'code']);
    expect(doc.paths['/v1/find'].get.responses['4XX'].content['application/json'].schema.required).toEqual(['message', 'type', 'code']);
  });

  it('the error envelope schema accepts what the service sends', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=x' });
    expect(Value.Check(ErrorEnvelopeSchema, res.json())).toBe(true);
  });
});
