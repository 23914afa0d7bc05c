/**
 * Every /v1 endpoint through app.inject: success shapes (checked with TypeBox's own
 * validator against the published schemas), billing amounts against the price list of
 * interface section 8 computed by hand, and Cache-Control on venue responses.
 */
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BalancesResponseSchema, ErrorEnvelopeSchema } from '../../src/service/api-schemas.js';
import { AdvancedDetailsSchema, BasicDetailsSchema, MenuListSchema } from '../../src/schema/details.js';
import { FindResponseSchema } from '../../src/schema/find.js';
import { SearchResponseSchema, SearchVocabularySchema } from '../../src/schema/search.js';
import { createHarness, ledgerRows, type Harness } from './support/harness.js';

// one app per file (building one costs ~50-150 ms); each test opens its own account
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
beforeEach(() => h.engine.resetCalls());
afterAll(async () => {
  await h.close();
});

// around the fixture venue fx-00000 (Call Lane, Leeds)
const searchBody = { locations: [{ lat: 53.8220597, lon: -1.5576415 }], mode: { mode: 'POINT', maxDistance: 1000 } };

describe('venue endpoints', () => {
  it('POST /v1/search/ answers the engine\'s page for limit/offset at the clock\'s instant, schema-valid, no-store, 6000 micros', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=2&offset=1', headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(Value.Check(SearchResponseSchema, body)).toBe(true);
    expect(h.engine.lastSearchOptions).toEqual({ limit: 2, offset: 1, now: h.clock.nowMs });
    // the adapter passes the engine's answer through unchanged (same call made directly)
    const direct = h.engine.search(searchBody, { limit: 2, offset: 1, now: h.clock.nowMs });
    expect(body).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(body.establishments).toHaveLength(2);
    expect(body.limit).toBe(2);
    expect(body.offset).toBe(1);
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(10_000_000 - 6000);
  });

  it('search without trailing slash is the same route; default limit 20 costs one group', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search', headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    expect(h.engine.lastSearchOptions).toEqual({ limit: 20, offset: 0, now: h.clock.nowMs });
    expect((await ledgerRows(h.accounts, acct.accountId)).at(-1)).toMatchObject({ kind: 'search', amount_micros: -6000 });
  });

  it.each([
    [1, 6000],
    [20, 6000],
    [21, 12_000],
    [35, 12_000],
    [40, 12_000],
    [100, 30_000],
  ])('search with limit=%i is billed %i micros (per started group of 20 requested, not returned)', async (limit, cost) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: `/v1/search/?limit=${limit}`, headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(10_000_000 - cost);
  });

  it('GET /v1/find answers a schema-valid page with no-store and charges 6000 under the response\'s Request-Id', async () => {
    const acct = await h.open();
    const res = await h.app.inject({
      method: 'GET',
      url: '/v1/find?name=nando&lat=53.8&lon=-1.55&maxDistanceMeters=20000&limit=5',
      headers: { 'api-key': acct.secretKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Value.Check(FindResponseSchema, body)).toBe(true);
    expect(body.searchLocation).toEqual({ Lat: 53.8, Lon: -1.55 });
    expect(body.maxDistanceMeters).toBe(20_000);
    expect(body.establishments.length).toBeGreaterThan(0);
    expect(body.establishments.length).toBeLessThanOrEqual(5);
    for (const e of body.establishments) expect(e.name).toMatch(/nando/i);
    expect(h.engine.lastNow).toBe(h.clock.nowMs);
    expect((await ledgerRows(h.accounts, acct.accountId)).at(-1)).toMatchObject({ kind: 'find', amount_micros: -6000, request_id: res.headers['request-id'] });
  });

  it.each([
    ['basic', 8000, BasicDetailsSchema],
    ['advanced', 12_000, AdvancedDetailsSchema],
    ['menus', 6000, MenuListSchema],
  ] as const)('GET /v1/establishments/%s/:id answers a schema-valid body with no-store and charges %i', async (kind, cost, schema) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: `/v1/establishments/${kind}/fx-00002`, headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Value.Check(schema, body)).toBe(true);
    if (kind !== 'menus') expect(body.id).toBe('fx-00002');
    expect(h.engine.calls[kind]).toBe(1);
    expect((await ledgerRows(h.accounts, acct.accountId)).at(-1)).toMatchObject({ kind, amount_micros: -cost });
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(10_000_000 - cost);
  });

  it('GET /v1/vocabulary is schema-valid and free', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/vocabulary', headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Value.Check(SearchVocabularySchema, body)).toBe(true);
    expect(body.establishmentFilters).toContain('coffee_shop');
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(10_000_000);
  });
});

describe('balances', () => {
  it('GET /v1/business/balances reports balance and usage by kind since opening, exactly as the contract shapes it', async () => {
    const acct = await h.open('StartUp');
    const key = { 'api-key': acct.publicKey };
    await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key });
    await h.app.inject({ method: 'GET', url: '/v1/find?q=wagamama', headers: key });
    await h.app.inject({ method: 'GET', url: '/v1/establishments/advanced/fx-00000', headers: key });
    await h.app.inject({ method: 'GET', url: '/v1/establishments/basic/nope', headers: key }); // 404: free
    await h.app.inject({ method: 'GET', url: '/v1/find?q=nando&location=Atlantis', headers: key }); // 400: free
    h.clock.advance(1000); // StartUp allows 5 requests per second
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
    await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key }); // at t0
    h.clock.advance(3_600_000);
    await h.app.inject({ method: 'GET', url: '/v1/establishments/menus/fx-00000', headers: key }); // at t0 + 1 h
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
    expect((await ledgerRows(h.accounts, acct.accountId))).toHaveLength(3); // opening credit + 2 charges
  });
});

describe('OpenAPI', () => {
  it("openapi.json's servers: the request's origin from a Host that names a host, '/' otherwise (audit 60c: a quote was copied into the URL)", async () => {
    const served = async (host: string) => ((await h.app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { host } })).json() as { servers: Array<{ url: string }> }).servers[0]!.url;
    expect(await served('venues.example.com:8443')).toBe('http://venues.example.com:8443');
    expect(await served('[::1]:3000')).toBe('http://[::1]:3000');
    // a Host RFC 3986 allows that is no DNS name: not copied into the URL
    for (const host of ["a'b", 'a_b.example', 'host.', 'a,b']) expect(await served(host), host).toBe('/');
    // one that is no host at all is refused before any route (audit 61b N8: RFC 9112 3.2)
    for (const host of ['a"b', 'a b', 'a<b>', 'x`y']) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { host } });
      expect(res.statusCode, host).toBe(400);
      expect(res.json(), host).toMatchObject({ code: 'malformed_request' });
    }
  });

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
        '/v1/search',
        '/v1/vocabulary',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/v1/business/balances']).sort()).toEqual(['get', 'post']);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'API-Key' });
    const findParams = doc.paths['/v1/find'].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(findParams).toEqual(['lat', 'limit', 'location', 'lon', 'maxDistanceMeters', 'name', 'offset', 'q']);
    // a named shape is a $ref to its component (openapi-document.ts)
    const named = (schema: { $ref?: string }) => (schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split('/').at(-1)!]);
    const searchBody = named(doc.paths['/v1/search/'].post.requestBody.content['application/json'].schema);
    expect(searchBody.required).toEqual(['locations', 'mode']);
    // what the server refuses, the document refuses too (audit 60c: weights over 1,000,000 passed a client's validator)
    expect(searchBody.properties.locations.items.properties.weight).toMatchObject({ minimum: 0, maximum: 1_000_000 });
    expect(named(doc.paths['/v1/search/'].post.responses['200'].content['application/json'].schema).required).toContain('establishments');
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(['message', 'type', 'code']);
    expect(doc.paths['/v1/find'].get.responses['4XX'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(Object.keys(doc.paths['/v1/find'].get.responses).sort()).toEqual(['200', '400', '401', '402', '403', '429', '4XX', '5XX']);
    expect(Object.keys(doc.paths['/v1/establishments/basic/{id}'].get.responses)).toContain('404');
    expect(Object.keys(doc.paths['/v1/find'].get.responses['429'].headers)).toContain('Retry-After');
  });

  it('the error envelope schema accepts what the service sends', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=x' });
    expect(Value.Check(ErrorEnvelopeSchema, res.json())).toBe(true);
  });
});
