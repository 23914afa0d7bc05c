/**
 * Every error status of CONTRACT "HTTP errors" with its envelope: 400 (naming the parameter),
 * 401, 402, 403, 404, 405, 413, 415, plus the fastify pitfalls of issue 6: query coercion
 * (Infinity, 1e400, hex), uncoerced bodies (null is not 0), unknown parameters rejected.
 * 429 lives in rate-limits.test.ts. Refused requests are never charged and never reach the engine.
 */
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/accounts/keys.js';
import { buildApp } from '../../src/http/app.js';
import { ErrorEnvelopeSchema } from '../../src/service/api-schemas.js';
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

function expectEnvelope(res: { statusCode: number; json(): unknown }, status: number, type: string, code: string, param?: string): void {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Value.Check(ErrorEnvelopeSchema, body)).toBe(true);
  expect(body['type']).toBe(type);
  expect(body['code']).toBe(code);
  expect(body['param']).toBe(param);
  expect(typeof body['message']).toBe('string');
}

async function charges(accountId: string): Promise<number> {
  return (await ledgerRows(h.accounts, accountId)).filter((r) => r.amount_micros < 0).length;
}

describe('400 invalid request names the parameter', () => {
  it.each([
    ['/v1/search/?limit=0', 'limit'],
    ['/v1/search/?limit=2.5', 'limit'],
    ['/v1/search/?limit=Infinity', 'limit'],
    ['/v1/search/?limit=1e400', 'limit'],
    ['/v1/search/?offset=-1', 'offset'],
    ['/v1/search/?offset=Infinity', 'offset'],
    ['/v1/search/?offset=-9e600', 'offset'],
    ['/v1/search/?offset=0x10', 'offset'],
    ['/v1/search/?offset=', 'offset'],
    ['/v1/search/?limit=5&limit=6', 'limit'],
    ['/v1/search/?colour=red', 'colour'],
  ])('POST %s -> 400 param %s, engine not called, nothing charged', async (url, param) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url, headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', param);
    expect(res.json().message).toContain(param);
    expect(h.engine.calls.search).toBe(0);
    expect(await charges(acct.accountId)).toBe(0);
  });

  it.each([
    ['/v1/find?q=nando&lat=NaN&lon=0', 'lat'],
    ['/v1/find?q=nando&lat=91&lon=0', 'lat'],
    ['/v1/find?q=nando&lat=0&lon=-180.5', 'lon'],
    ['/v1/find?q=nando&lat=Infinity&lon=0', 'lat'],
    ['/v1/find?q=nando&maxDistanceMeters=1e400', 'maxDistanceMeters'],
    ['/v1/find?q=nando&maxDistanceMeters=-1', 'maxDistanceMeters'],
    ['/v1/find?q=nando&limit=0', 'limit'],
    ['/v1/find?q=nando&offset=1e400', 'offset'],
    ['/v1/find?q=', 'q'],
    ['/v1/find?q=nando&radius=5', 'radius'],
  ])('GET %s -> 400 param %s', async (url, param) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url, headers: { 'api-key': acct.secretKey } });
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', param);
    expect(h.engine.calls.find).toBe(0);
  });

  // audit 65c F1: a numeric query parameter is a JSON number (RFC 8259 section 6); the
  // refused texts below are what Number() reads but no JSON client writes
  it.each([
    ['/v1/search/?limit=%2B5', 'limit', '+5'],
    ['/v1/search/?limit=05', 'limit', '05'],
    ['/v1/search/?limit=5.', 'limit', '5.'],
    ['/v1/search/?limit=.5e1', 'limit', '.5e1'],
    ['/v1/search/?offset=00', 'offset', '00'],
    ['/v1/find?q=nando&lat=%2B53.8&lon=-1.55', 'lat', '+53.8'],
    ['/v1/find?q=nando&lat=53.8&lon=-.5', 'lon', '-.5'],
    ['/v1/find?q=nando&maxDistanceMeters=0800', 'maxDistanceMeters', '0800'],
  ])('%s -> 400 naming %s and the value %s, engine not called, nothing charged', async (url, param, value) => {
    const acct = await h.open();
    const method = url.startsWith('/v1/find') ? 'GET' : 'POST';
    const res = await h.app.inject({ method, url, headers: { 'api-key': acct.secretKey }, ...(method === 'POST' ? { payload: searchBody } : {}) });
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', param);
    expect(res.json().message).toContain(JSON.stringify(value));
    expect(h.engine.calls.search + h.engine.calls.find).toBe(0);
    expect(await charges(acct.accountId)).toBe(0);
  });

  it.each([
    ['/v1/search/?limit=5.0', 5],
    ['/v1/search/?limit=1e1', 10],
    ['/v1/search/?offset=-0', 0],
  ])('%s is a JSON number: served with the value %s', async (url, value) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url, headers: { 'api-key': acct.secretKey }, payload: searchBody });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { limit: number; offset: number };
    expect(url.includes('limit') ? body.limit : body.offset).toBe(value);
  });

  it.each([
    ['lat null is not coerced to 0', { locations: [{ lat: null, lon: -1.55 }], mode: searchBody.mode }, 'locations.0.lat'],
    ['weight "2" is not coerced to 2', { locations: [{ lat: 53.8, lon: -1.55, weight: '2' }], mode: searchBody.mode }, 'locations.0.weight'],
    ['lat 91', { locations: [{ lat: 91, lon: -1.55 }], mode: searchBody.mode }, 'locations.0.lat'],
    ['no locations', { locations: [], mode: searchBody.mode }, 'locations'],
    ['missing mode', { locations: searchBody.locations }, 'mode'],
    ['unknown body field', { ...searchBody, colour: 'red' }, 'colour'],
    ['unknown preference', { ...searchBody, preferences: { mood: 'x' } }, 'preferences.mood'],
    ['maxDistance null', { locations: searchBody.locations, mode: { mode: 'POINT', maxDistance: null } }, 'mode.maxDistance'],
  ])('search body: %s -> 400 naming %s, engine not called', async (_label, payload, param) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload });
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', param);
    expect(h.engine.calls.search).toBe(0);
  });

  it('a missing find term is the engine\'s 400 naming q, not charged', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?lat=53.8&lon=-1.55', headers: { 'api-key': acct.secretKey } });
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', 'q');
    expect(await charges(acct.accountId)).toBe(0);
  });

  it('a published limit broken in the query or the body is limit_exceeded, the code the engine itself gives for the same request', async () => {
    const acct = await h.open();
    const many = { ...searchBody, locations: Array.from({ length: 101 }, () => searchBody.locations[0]!) };
    const far = { ...searchBody, mode: { mode: 'POINT', maxDistance: 50_001 } };
    const offPlanet = { ...searchBody, locations: [{ lat: 91, lon: 0 }] };
    const searches: Array<[string, { limit?: number; offset?: number }, unknown, string, string]> = [
      ['/v1/search/?limit=101', { limit: 101 }, searchBody, 'limit', 'limit_exceeded'],
      ['/v1/search/?offset=10001', { offset: 10_001 }, searchBody, 'offset', 'limit_exceeded'],
      ['/v1/search/', {}, many, 'locations', 'limit_exceeded'],
      ['/v1/search/', {}, far, 'mode.maxDistance', 'limit_exceeded'],
      ['/v1/search/', {}, offPlanet, 'locations.0.lat', 'invalid_request'],
    ];
    const engineCode = (run: () => unknown) => {
      try {
        run();
      } catch (err) {
        return (err as { code?: string }).code;
      }
      return 'no error';
    };
    for (const [url, paging, body, param, code] of searches) {
      expect(engineCode(() => h.engine.search(body, { ...paging, now: 0 })), url).toBe(code);
      const res = await h.app.inject({ method: 'POST', url, headers: { 'api-key': acct.secretKey }, payload: body as object });
      expectEnvelope(res, 400, 'invalid_request_error', code, param);
    }
    const finds: Array<[string, Record<string, unknown>, string, string]> = [
      ['/v1/find?q=pub&lat=53.8&lon=-1.55&maxDistanceMeters=100001', { q: 'pub', lat: 53.8, lon: -1.55, maxDistanceMeters: 100_001 }, 'maxDistanceMeters', 'limit_exceeded'],
      ['/v1/find?q=pub&lat=91&lon=0', { q: 'pub', lat: 91, lon: 0 }, 'lat', 'invalid_request'],
      ['/v1/find?q=pub&limit=101', { q: 'pub', limit: 101 }, 'limit', 'limit_exceeded'],
      ['/v1/find?q=pub&offset=10001', { q: 'pub', offset: 10_001 }, 'offset', 'limit_exceeded'],
    ];
    for (const [url, params, param, code] of finds) {
      expect(engineCode(() => h.engine.find(params, { now: 0 })), url).toBe(code);
      expectEnvelope(await h.app.inject({ method: 'GET', url, headers: { 'api-key': acct.secretKey } }), 400, 'invalid_request_error', code, param);
    }
    expect(await charges(acct.accountId)).toBe(0);
  });

  it('a PATH maxDistance over the POINT bound is told the PATH bound too, in-process and over HTTP alike (audit 59d)', async () => {
    const acct = await h.open();
    const route = { locations: [{ lat: 51.5, lon: -0.12 }, { lat: 51.52, lon: -0.1 }] };
    const expected = (got: number) => `mode.maxDistance must be <= 50000 (POINT; in PATH mode <= 10000); got ${got}`;
    for (const maxDistance of [50_001, 60_000]) {
      const body = { ...route, mode: { mode: 'PATH', maxDistance } };
      let message = '';
      try {
        h.engine.search(body, { now: 0 });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(expected(maxDistance));
      const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload: body });
      expectEnvelope(res, 400, 'invalid_request_error', 'limit_exceeded', 'mode.maxDistance');
      expect(res.json<{ message: string }>().message).toBe(expected(maxDistance));
    }
    // between the bounds, the PATH check itself names its bound
    const between = { ...route, mode: { mode: 'PATH', maxDistance: 20_000 } };
    expect(() => h.engine.search(between, { now: 0 })).toThrow('mode.maxDistance must be <= 10000 in PATH mode; got 20000');
  });

  it('an engine VenueSearchError keeps its code and param (limit_exceeded: PATH wider than 10 km) and is not charged', async () => {
    const acct = await h.open();
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/search/',
      headers: { 'api-key': acct.secretKey },
      payload: { locations: [{ lat: 53.8, lon: -1.55 }, { lat: 53.81, lon: -1.54 }], mode: { mode: 'PATH', maxDistance: 20_000 } },
    });
    expectEnvelope(res, 400, 'invalid_request_error', 'limit_exceeded', 'mode.maxDistance');
    expect(h.engine.calls.search).toBe(1);
    expect(await charges(acct.accountId)).toBe(0);
  });

  it('unknown_place from the engine is a 400 naming location', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando&location=Atlantis', headers: { 'api-key': acct.secretKey } });
    expectEnvelope(res, 400, 'invalid_request_error', 'unknown_place', 'location');
    expect(res.json().message).toContain('Atlantis');
  });

  it('unknown_place carries the resolver\'s suggestions as `suggestions` (audit 63a F4): the areas for a name in the wrong area, close spellings otherwise', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: `/v1/find?q=nando&location=${encodeURIComponent('St Ives, Devon')}`, headers: { 'api-key': acct.secretKey } });
    expectEnvelope(res, 400, 'invalid_request_error', 'unknown_place', 'location');
    expect(res.json().suggestions).toEqual(['St Ives, Cornwall', 'St Ives, Cambridgeshire', 'St Ives, Hampshire']);
    const typo = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando&location=Shordich', headers: { 'api-key': acct.secretKey } });
    expectEnvelope(typo, 400, 'invalid_request_error', 'unknown_place', 'location');
    expect(typo.json().suggestions).toContain('Shoreditch');
    expect(typo.json().message).toContain('did you mean "Shoreditch"');
  });

  it('a JSON body with __proto__ (prototype poisoning) is a 400, not a 500', async () => {
    const acct = await h.open();
    const post = (payload: string) => h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json' }, payload });
    const res = await post('{"locations":[{"lat":53.8,"lon":-1.55}],"mode":{"mode":"POINT","maxDistance":100},"__proto__":{"admin":true}}');
    // the body is valid JSON (RFC 8259): an unknown field, named, as any other is; not "not valid JSON"
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', '__proto__');
    expect(res.json().message).toBe('__proto__ is not a known parameter: a "__proto__" key, or a "constructor" object with a "prototype" key, is refused (prototype pollution)');
    const nested = await post('{"locations":[{"lat":53.8,"lon":-1.55,"constructor":{"prototype":{"admin":true}}}],"mode":{"mode":"POINT","maxDistance":100}}');
    expectEnvelope(nested, 400, 'invalid_request_error', 'invalid_request', 'locations.0.constructor');
    // a deeper one inside an array of arrays, and a key that only looks like one (`constructor` holding no `prototype`) passes the parse and is the schema's to refuse
    const deep = await post('{"locations":[{"lat":53.8,"lon":-1.55}],"mode":{"mode":"POINT","maxDistance":100},"preferences":{"vibes":[[{"x":{"__proto__":1}}]]}}');
    expectEnvelope(deep, 400, 'invalid_request_error', 'invalid_request', 'preferences.vibes.0.0.x.__proto__');
    const lookalike = await post('{"locations":[{"lat":53.8,"lon":-1.55}],"mode":{"mode":"POINT","maxDistance":100},"constructor":{"name":"x"}}');
    expectEnvelope(lookalike, 400, 'invalid_request_error', 'invalid_request', 'constructor');
    expect(lookalike.json().message).toBe('constructor is not a known parameter');
    // nested 20,000 deep (40 KB, under the body limit): the place is named by its start and
    // end, 100 characters each (audit 71e F1: echoed whole, twice, a 120 KB answer to 60 KB)
    const depth = 20_000;
    const buried = await post(`{"x":${'['.repeat(depth)}{"__proto__":1}${']'.repeat(depth)}}`);
    const place = `x${'.0'.repeat(depth)}.__proto__`;
    const named = `${place.slice(0, 100)}...${place.slice(-100)}`;
    expectEnvelope(buried, 400, 'invalid_request_error', 'invalid_request', named);
    expect(buried.json().message).toBe(`${named} is not a known parameter: a "__proto__" key, or a "constructor" object with a "prototype" key, is refused (prototype pollution)`);
    expect(buried.body.length).toBeLessThan(1_000);
    expect(h.engine.calls.search).toBe(0);
    expect(await charges(acct.accountId)).toBe(0);
  });

  it('a JSON body giving a key twice in one object is a 400 naming its place; the same key in two objects, or inside a string, is not (audit 71e F2)', async () => {
    const acct = await h.open();
    const post = (payload: string) => h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json' }, payload });
    const point = '"mode":{"mode":"POINT","maxDistance":100}';
    // before: answered for the last value (limit 500), while a reader of the first saw 5
    const twice = await post(`{"locations":[{"lat":53.8,"lon":-1.55}],${point},"limit":5,"limit":500}`);
    expectEnvelope(twice, 400, 'invalid_request_error', 'invalid_request', 'limit');
    expect(twice.json().message).toBe('limit is given more than once in the body: give each field once (JSON parsers differ on which value a repeated key keeps)');
    // nested, and written with an escape: "\u006cat" is "lat"
    const nested = await post(`{"locations":[{"lat":53.8,"lon":-1.55},{"lat":53.9,"lon":-1.5,"\\u006cat":0}],${point}}`);
    expectEnvelope(nested, 400, 'invalid_request_error', 'invalid_request', 'locations.1.lat');
    expect(h.engine.calls.search).toBe(0);
    expect(await charges(acct.accountId)).toBe(0);
    // one key in two objects: answered
    const fine = await post(`{"locations":[{"lat":53.8,"lon":-1.55},{"lat":53.81,"lon":-1.55}],${point}}`);
    expect(fine.statusCode, fine.body).toBe(200);
    // a string holding what looks like a repeated key passes the parse: the schema refuses the value itself
    const inString = await post(`{"locations":[{"lat":53.8,"lon":-1.55}],${point},"preferences":{"vibes":["\\"limit\\":1,\\"limit\\":2"]}}`);
    expectEnvelope(inString, 400, 'invalid_request_error', 'invalid_request', 'preferences.vibes.0');
  });

  it('a weight over 1,000,000 is a 400 invalid_request naming it, with the weights\' rule', async () => {
    const acct = await h.open();
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/search/',
      headers: { 'api-key': acct.secretKey },
      payload: { locations: [{ lat: 53.82, lon: -1.55, weight: 1e307 }, { lat: 53.83, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } },
    });
    expectEnvelope(res, 400, 'invalid_request_error', 'invalid_request', 'locations.0.weight');
    expect(res.json().message).toBe('locations.0.weight must be <= 1000000 (a weight is 0, or a number from 0.000001 to 1000000: weights are relative); got 1e+307');
  });

  it("malformed JSON body is a 400, not a 500, with the parser's reason and position", async () => {
    const acct = await h.open();
    for (const payload of ['{"locations": [', '{"locations": [{"lat": 53.8, "lon": -1.55,}]}', "{'mode': 'POINT'}"]) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json' }, payload });
      expectEnvelope(res, 400, 'invalid_request_error', 'invalid_json');
      // oracle: V8's own JSON.parse on the same text
      let reason = '';
      try {
        JSON.parse(payload);
      } catch (err) {
        reason = (err as Error).message;
      }
      expect(reason).not.toBe('');
      expect(res.json().message).toBe(`the body is not valid JSON: ${reason}`);
    }
    const empty = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json' }, payload: '' });
    expectEnvelope(empty, 400, 'invalid_request_error', 'invalid_json');
    expect(empty.json().message).toBe('the body is empty: send a JSON object');
    expect(h.engine.calls.search).toBe(0);
  });

  it('a body in another charset than UTF-8 is refused (415 if it says so, 400 if its bytes are not UTF-8), never searched with U+FFFD in its place', async () => {
    const acct = await h.open();
    const body = JSON.stringify({ ...searchBody, preferences: { cuisine: ['Café'] } });
    const latin1 = Buffer.from(body, 'latin1');
    expect(latin1.includes(0xe9)).toBe(true); // é as one Latin-1 byte, which UTF-8 cannot start a character with here
    const declared = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json; charset=ISO-8859-1' }, payload: latin1 });
    expectEnvelope(declared, 415, 'invalid_request_error', 'unsupported_media_type');
    expect(declared.json().message).toBe('send the body in UTF-8; got Content-Type "application/json; charset=ISO-8859-1"');
    const undeclared = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json' }, payload: latin1 });
    expectEnvelope(undeclared, 400, 'invalid_request_error', 'invalid_json');
    expect(undeclared.json().message).toBe('the body is not valid UTF-8: send JSON text in UTF-8');
    expect(h.engine.calls.search).toBe(0);
    expect(await charges(acct.accountId)).toBe(0);
    // UTF-8, said in any of its spellings, or not said at all, is served
    // (a `;charset=` inside another parameter's quoted value is not a charset: audit 61b)
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8', 'application/json; foo="x;charset=latin1"', 'application/json; foo="a\\"b;charset=latin1"; charset=utf-8']) {
      const served = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': type }, payload: Buffer.from(JSON.stringify(searchBody), 'utf8') });
      expect(served.statusCode, type).toBe(200);
    }
    // two charsets, one of them not UTF-8: refused, not read as the first
    const twice = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': 'application/json; charset=utf-8; charset=latin1' }, payload: Buffer.from(JSON.stringify(searchBody), 'utf8') });
    expectEnvelope(twice, 415, 'invalid_request_error', 'unsupported_media_type');
    // empty parameters and a parameter without a value before it (RFC 9110 5.6.6: `*( OWS ";" OWS [ parameter ] )`): still a charset (audit 62a 3)
    for (const type of ['application/json;;charset=latin1', 'application/json; ; charset=latin1', 'application/json; foo; charset=latin1']) {
      const refused = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, 'content-type': type }, payload: Buffer.from(JSON.stringify(searchBody), 'utf8') });
      expect(refused.statusCode, type).toBe(415);
    }
  });

  it('balances range: null is not coerced (from: null -> 400 param from), unknown body field rejected, to before from rejected', async () => {
    const acct = await h.open();
    const key = { 'api-key': acct.secretKey };
    const post = (payload: unknown) => h.app.inject({ method: 'POST', url: '/v1/business/balances', headers: key, payload: payload as object });
    expectEnvelope(await post({ from: null, to: '2026-01-01T00:00:00Z' }), 400, 'invalid_request_error', 'invalid_request', 'from');
    expectEnvelope(await post({ from: 0, to: '2026-01-01T00:00:00Z' }), 400, 'invalid_request_error', 'invalid_request', 'from');
    expectEnvelope(await post({ from: 'yesterday', to: '2026-01-01T00:00:00Z' }), 400, 'invalid_request_error', 'invalid_request', 'from');
    expectEnvelope(await post({ to: '2026-01-01T00:00:00Z' }), 400, 'invalid_request_error', 'invalid_request', 'from');
    expectEnvelope(
      await post({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z', account: 'other' }),
      400,
      'invalid_request_error',
      'invalid_request',
      'account',
    );
    expectEnvelope(await post({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }), 400, 'invalid_request_error', 'invalid_request', 'to');
  });
});

describe('401 authentication', () => {
  it.each([
    ['no key header', {}, 'missing_api_key'],
    ['a key of the wrong shape', { 'api-key': 'hello' }, 'invalid_api_key'],
    ['a well-formed key nobody was issued', { 'api-key': generateApiKey('secret') }, 'invalid_api_key'],
  ])('%s -> 401 %s', async (_label, headers, code) => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers });
    expectEnvelope(res, 401, 'authentication_error', code);
    expect(h.engine.calls.find).toBe(0);
  });

  it('a real key wrapped as "Bearer <key>" or in quotes: 401 invalid_api_key saying what to drop, without repeating the key (audit 65a F16)', async () => {
    const acct = await h.open();
    const cases: [string, string][] = [
      [`Bearer ${acct.secretKey}`, 'the API-Key header holds the key alone: drop the "Bearer " before it'],
      [`bearer ${acct.secretKey}`, 'the API-Key header holds the key alone: drop the "bearer " before it'],
      [`"${acct.secretKey}"`, 'the API-Key header holds the key alone: drop the quotes around it'],
    ];
    for (const [value, advice] of cases) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': value } });
      expectEnvelope(res, 401, 'authentication_error', 'invalid_api_key');
      const message = (res.json() as { message: string }).message;
      expect(message, value).toBe(`the API key is not valid: unknown, revoked or past its rotation grace period; ${advice}`);
      expect(res.body).not.toContain(acct.secretKey);
    }
    const plain = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': 'hello' } });
    expect((plain.json() as { message: string }).message).toBe('the API key is not valid: unknown, revoked or past its rotation grace period');
    expect(h.engine.calls.find).toBe(0);
  });

  it('API-Key is case-insensitive and API_KEY is accepted; two different keys are a 401 conflict', async () => {
    const acct = await h.open();
    for (const name of ['API-Key', 'api-key', 'Api-Key', 'API-KEY', 'API_KEY']) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { [name]: acct.secretKey } });
      expect(res.statusCode, name).toBe(200);
    }
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': acct.secretKey, API_KEY: acct.publicKey } });
    expectEnvelope(res, 401, 'authentication_error', 'conflicting_api_keys');
  });

  it('API-Key sent as two header lines, as a real socket carries them: the same key twice is that key, two keys a conflict (audit 59c)', async () => {
    const { request } = await import('node:http');
    const acct = await h.open();
    const other = await h.open();
    const listening = await buildApp({ engine: h.engine, accounts: h.accounts, clock: h.clock.now });
    await listening.listen({ port: 0, host: '127.0.0.1' });
    const port = (listening.server.address() as { port: number }).port;
    // Node's client sends an array header as one line per value
    const get = (keys: string[]) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/v1/find?q=nando', headers: { 'API-Key': keys } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += String(c)));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect((await get([acct.secretKey, acct.secretKey])).status).toBe(200);
      const conflict = await get([acct.secretKey, other.secretKey]);
      expect(conflict.status).toBe(401);
      expect(JSON.parse(conflict.body)).toMatchObject({ code: 'conflicting_api_keys' });
    } finally {
      await listening.close();
    }
  });

  it('empty comma items are no key (audit 63b F5): `sk_...,` is that key, `,` alone is a missing key, two keys beside an empty item still a conflict', async () => {
    const acct = await h.open();
    const other = await h.open();
    const find = (value: string) => h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': value } });
    for (const value of [`${acct.secretKey},`, `,${acct.secretKey}`, ` ${acct.secretKey} , `]) expect((await find(value)).statusCode, value).toBe(200);
    for (const value of [',', ' , ,']) expectEnvelope(await find(value), 401, 'authentication_error', 'missing_api_key');
    expectEnvelope(await find(`${acct.secretKey},,${other.secretKey}`), 401, 'authentication_error', 'conflicting_api_keys');
  });

  it('the 401 message never echoes the key', async () => {
    const key = generateApiKey('secret');
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': key } });
    expect(res.body).not.toContain(key.slice(3));
  });
});

describe('402, 403, 404, 405, 413, 415', () => {
  it('402 when the balance cannot cover the request: engine not called, nothing charged', async () => {
    const acct = await h.open('Enterprise', 7999); // basic costs 8000
    const res = await h.app.inject({ method: 'GET', url: '/v1/establishments/basic/fx-00000', headers: { 'api-key': acct.secretKey } });
    expectEnvelope(res, 402, 'billing_error', 'insufficient_balance');
    expect(h.engine.calls.basic).toBe(0);
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(7999);
    // ...while a cheaper request it can cover still succeeds
    const find = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } });
    expect(find.statusCode).toBe(200);
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(1999);
  });

  it('403 for a public key outside its list (vocabulary); the same key may search, find, read details and balances', async () => {
    const acct = await h.open();
    const pk = { 'api-key': acct.publicKey };
    expectEnvelope(await h.app.inject({ method: 'GET', url: '/v1/vocabulary', headers: pk }), 403, 'permission_error', 'public_key_not_permitted');
    expect((await h.app.inject({ method: 'POST', url: '/v1/search/', headers: pk, payload: searchBody })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: pk })).statusCode).toBe(200);
    for (const kind of ['basic', 'advanced', 'menus']) {
      expect((await h.app.inject({ method: 'GET', url: `/v1/establishments/${kind}/fx-00000`, headers: pk })).statusCode).toBe(200);
    }
    expect((await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: pk })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/vocabulary', headers: { 'api-key': acct.secretKey } })).statusCode).toBe(200);
  });

  it('404 for an unknown venue (venue_not_found, not charged) and for an unknown path (route_not_found)', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/establishments/menus/no-such-venue', headers: { 'api-key': acct.secretKey } });
    expectEnvelope(res, 404, 'invalid_request_error', 'venue_not_found', 'id');
    expect(await charges(acct.accountId)).toBe(0);
    expectEnvelope(await h.app.inject({ method: 'GET', url: '/v1/nowhere' }), 404, 'invalid_request_error', 'route_not_found');
    expectEnvelope(await h.app.inject({ method: 'GET', url: '/v2/find?q=x' }), 404, 'invalid_request_error', 'route_not_found');
  });

  it('405 with Allow for a known path and a wrong method', async () => {
    for (const [method, url, allow] of [
      ['GET', '/v1/search/', 'POST'],
      ['DELETE', '/v1/find', 'GET'],
      ['PUT', '/v1/establishments/basic/fx-00000', 'GET'],
      ['DELETE', '/v1/business/balances', 'GET, POST'],
    ] as const) {
      const res = await h.app.inject({ method, url });
      expectEnvelope(res, 405, 'invalid_request_error', 'method_not_allowed');
      expect(res.headers['allow'], `${method} ${url}`).toBe(allow);
    }
    // every method Node parses, not only the router's seven (audit 59c: TRACE and WebDAV's were 404s)
    for (const method of ['TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'LOCK', 'PURGE']) {
      const res = await h.app.inject({ method: method as 'GET', url: '/v1/find?q=nando' });
      expectEnvelope(res, 405, 'invalid_request_error', 'method_not_allowed');
      expect(res.headers['allow'], method).toBe('GET');
      expectEnvelope(await h.app.inject({ method: method as 'GET', url: '/v1/no-such-path' }), 404, 'invalid_request_error', 'route_not_found');
    }
    // HEAD is not served automatically (it would bill a GET with no body): 405, no body
    const head = await h.app.inject({ method: 'HEAD', url: '/v1/find?q=nando' });
    expect(head.statusCode).toBe(405);
    expect(head.headers['allow']).toBe('GET');
    expect(h.engine.calls.find).toBe(0);
  });

  it('413 for a body over the limit (64 KiB)', async () => {
    const acct = await h.open();
    const big = { ...searchBody, padding: 'x'.repeat(70 * 1024) };
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload: big });
    expectEnvelope(res, 413, 'invalid_request_error', 'body_too_large');
    expect(h.engine.calls.search).toBe(0);
  });

  it('415 for a body that is not application/json (text/plain, form)', async () => {
    const acct = await h.open();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/v1/search/',
        headers: { 'api-key': acct.secretKey, 'content-type': type },
        payload: JSON.stringify(searchBody),
      });
      expectEnvelope(res, 415, 'invalid_request_error', 'unsupported_media_type');
    }
  });
});
