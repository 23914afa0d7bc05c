/**
 * What an app developer's strict client met (walk-through of stop 32), each through
 * `app.inject`:
 * - a location labelled `__proto__` (or `constructor`, `toString`) keeps its own `travel`
 *   entry; the distances are checked against GeographicLib;
 * - a known `/v1` path asked with another method is a 405 with `Allow` on every path (the
 *   OpenAPI document and the widget's page and assets too), with no key needed;
 * - a query string that is not percent-encoded UTF-8 is a 400 `invalid_url`, not a search
 *   for its literal text, and nothing is billed;
 * - a compressed body (`Content-Encoding: gzip`) is a 415 naming the encoding, not a 400
 *   "invalid JSON";
 * - `POST /v1/business/balances` takes a leap second (`23:59:60`, valid RFC 3339): the range
 *   starts at the next second, so the answer equals the one for `00:00:00` of the next day;
 * - `--public-url` refuses what is not a base URL, naming the value.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/cli/service-commands.js';
import type { SearchResponse } from '../../src/schema/search.js';
import { geodesic } from '../support/oracle.js';
import { createHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('labels that are Object.prototype names keep their travel entries', () => {
  it('__proto__, constructor, toString: each an own entry whose distance is the geodesic to the venue', async () => {
    const acct = await h.open();
    const locations = [
      { lat: 53.8, lon: -1.55, label: '__proto__' },
      { lat: 53.805, lon: -1.545, label: 'constructor' },
      { lat: 53.795, lon: -1.56, label: 'toString' },
    ];
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/search/?limit=5',
      headers: { 'api-key': acct.secretKey },
      payload: { locations, mode: { mode: 'POINT', maxDistance: 5000 } },
    });
    expect(res.statusCode).toBe(200);
    // JSON.parse makes "__proto__" an own property, as a client's parser does
    const body = JSON.parse(res.body) as SearchResponse;
    expect(body.establishments.length).toBeGreaterThan(0);
    for (const e of body.establishments) {
      expect(Object.keys(e.travel).sort()).toEqual(['__proto__', 'constructor', 'toString']);
      const venue = h.engine.venues.find((v) => v.id === e.id)!;
      for (const l of locations) {
        const entry = Object.getOwnPropertyDescriptor(e.travel, l.label)?.value as { distanceMeters: number } | undefined;
        expect(entry, `${e.id} ${l.label}`).toBeDefined();
        const exact = geodesic(l.lat, l.lon, venue.location.coordinates[0], venue.location.coordinates[1]);
        expect(Math.abs(entry!.distanceMeters - exact)).toBeLessThanOrEqual(0.5 + exact * 1e-5);
      }
    }
  });
});

describe('known path, other method: 405 with Allow on every /v1 path, no key needed', () => {
  it.each([
    ['POST', '/v1/openapi.json', 'GET'],
    ['HEAD', '/v1/openapi.json', 'GET'],
    ['DELETE', '/v1/openapi.json', 'GET'],
    ['POST', '/v1/widget/', 'GET'],
    ['PUT', '/v1/widget/assets/widget.js', 'GET'],
    ['POST', '/v1/vocabulary', 'GET'],
    ['GET', '/v1/search/', 'POST'],
    ['DELETE', '/v1/find', 'GET'],
  ] as const)('%s %s -> 405, Allow: %s', async (method, url, allow) => {
    const res = await h.app.inject({ method, url });
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe(allow);
    if (method !== 'HEAD') expect(res.json()).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed' });
  });

  it('the operator routes stay hidden: no 405 reveals /admin when live data is off', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/admin/venues' });
    expect(res.statusCode).toBe(404);
  });
});

describe('a query string that is not percent-encoded UTF-8 is refused, unbilled', () => {
  it.each([
    ['/v1/find?q=%E0%A4%A', 'q'],
    ['/v1/find?q=%ED%A0%80', 'q'],
    ['/v1/find?q=red&location=%C3', 'location'],
    ['/v1/find?q=red&%FF=1', '%FF'],
    ['/v1/search/?limit=%FF', 'limit'],
  ])('%s -> 400 invalid_url naming %s', async (url, param) => {
    const acct = await h.open();
    const before = await h.accounts.balanceMicros(acct.accountId);
    const isSearch = url.startsWith('/v1/search');
    const res = await h.app.inject({
      method: isSearch ? 'POST' : 'GET',
      url,
      headers: { 'api-key': acct.secretKey },
      ...(isSearch ? { payload: { locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } } } : {}),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_request_error', code: 'invalid_url', param });
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(before);
  });

  it('well-formed encodings still work: %20, + and a four-byte UTF-8 character', async () => {
    const acct = await h.open();
    // %F0%A0%AE%B7: U+20BB7, a CJK letter outside the BMP (an emoji is no word to find: a 400)
    for (const url of ['/v1/find?q=red%20lion', '/v1/find?q=red+lion', '/v1/find?q=%F0%A0%AE%B7']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { 'api-key': acct.secretKey } });
      expect(res.statusCode, url).toBe(200);
    }
  });
});

describe('a compressed body is a 415 naming the encoding', () => {
  it('Content-Encoding: gzip on a search -> 415 unsupported_media_type, unbilled', async () => {
    const acct = await h.open();
    const before = await h.accounts.balanceMicros(acct.accountId);
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/search/',
      headers: { 'api-key': acct.secretKey, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.json().message).toContain('"gzip"');
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(before);
  });

  it('the encoding is checked where docs/http.md orders it: after the route, the key and the rate window; a request without a body is not refused for it', async () => {
    const acct = await h.open();
    const gzip = { 'content-encoding': 'gzip' };
    const body = Buffer.from([0x1f, 0x8b, 0x08, 0x00]);
    const answer = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: Buffer) => (await h.app.inject({ method, url, headers: { ...gzip, ...headers }, ...(payload ? { payload } : {}) }));
    expect((await answer('GET', '/v1/find?q=lion', { 'api-key': acct.secretKey })).statusCode).toBe(200);
    expect((await answer('GET', '/v1/openapi.json', {})).statusCode).toBe(200);
    expect((await answer('POST', '/v1/search/', { 'content-type': 'application/json' }, body)).statusCode).toBe(401);
    expect((await answer('POST', '/v1/search/', { 'api-key': 'sk_nope', 'content-type': 'application/json' }, body)).statusCode).toBe(401);
    expect((await answer('POST', '/v1/nope', { 'api-key': acct.secretKey, 'content-type': 'application/json' }, body)).statusCode).toBe(404);
    const wrongMethod = await answer('PUT', '/v1/search/', { 'content-type': 'application/json' }, body);
    expect(wrongMethod.statusCode).toBe(405);
    // a keyed search with a compressed body reached the rate window: counted, its headers sent
    const refused = await answer('POST', '/v1/search/', { 'api-key': acct.secretKey, 'content-type': 'application/json' }, body);
    expect(refused.statusCode).toBe(415);
    expect(refused.headers['x-ratelimit-remaining']).toBeDefined();
  });

  it('Content-Encoding: identity is no encoding: the search is served', async () => {
    const acct = await h.open();
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/search/',
      headers: { 'api-key': acct.secretKey, 'content-encoding': 'identity' },
      payload: { locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('balances over a range: a leap second is a valid RFC 3339 instant', () => {
  const usage = async (key: string, from: string, to: string) => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/business/balances', headers: { 'api-key': key }, payload: { from, to } });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };

  it('from 2016-12-31T23:59:60Z answers as from 2017-01-01T00:00:00Z; a leap second in `to` too', async () => {
    const acct = await h.open();
    const leap = await usage(acct.secretKey, '2016-12-31T23:59:60Z', '2027-01-01T00:00:00Z');
    const next = await usage(acct.secretKey, '2017-01-01T00:00:00Z', '2027-01-01T00:00:00Z');
    expect(leap.status).toBe(200);
    expect(leap.body).toEqual(next.body);
    expect((await usage(acct.secretKey, '2016-01-01T00:00:00Z', '2016-12-31T23:59:60Z')).status).toBe(200);
  });

  it('a range that ends before it starts names `to`', async () => {
    const acct = await h.open();
    const res = await usage(acct.secretKey, '2027-01-01T00:00:00Z', '2016-12-31T23:59:60Z');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', param: 'to' });
  });
});

describe('serve --public-url', () => {
  it('keeps an http(s) base URL (a path kept, its trailing slash dropped)', () => {
    expect(parsePublicUrl('https://api.example.com')).toBe('https://api.example.com');
    expect(parsePublicUrl('https://API.example.com:443/venues/')).toBe('https://api.example.com/venues');
    expect(parsePublicUrl('http://10.0.0.1:8080/')).toBe('http://10.0.0.1:8080');
  });

  it.each(['api.example.com', 'ftp://api.example.com', 'https://u:p@api.example.com', 'https://api.example.com/?x=1', 'https://api.example.com/#top'])(
    'refuses %s, naming it',
    (text) => {
      expect(() => parsePublicUrl(text)).toThrow(JSON.stringify(text));
    },
  );
});

describe('messages a client can act on', () => {
  const search = async (payload: unknown, headers: Record<string, string> = {}) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey, ...headers }, payload: payload as string });
    return { status: res.statusCode, body: res.json() as { message: string; param?: string; code: string } };
  };
  const at = { locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } };

  it('a value outside a list of literals names the list (mode, travelMode, nonCompromise)', async () => {
    expect((await search({ ...at, mode: { mode: 'point', maxDistance: 1000 } })).body).toMatchObject({
      param: 'mode.mode',
      message: 'mode.mode must be one of "POINT", "PATH"; got "point"',
    });
    expect((await search({ ...at, locations: [{ lat: 53.8, lon: -1.55, travelMode: 'CAR' }] })).body.message).toBe(
      'locations.0.travelMode must be one of "WALK", "BICYCLE", "DRIVE", "TRANSIT"; got "CAR"',
    );
    expect((await search({ ...at, preferences: { nonCompromise: ['foo'] } })).body.message).toMatch(/^preferences\.nonCompromise\.0 must be one of "establishmentFilters", .*; got "foo"$/);
  });

  it('an engine error names the field in the message as `param` does (dotted)', async () => {
    const res = await search({ ...at, preferences: { establishmentFilters: ['pub', 'spaceship'] } });
    expect(res.body.param).toBe('preferences.establishmentFilters.1');
    expect(res.body.message).toMatch(/^preferences\.establishmentFilters\.1 is not a known/);
  });

  it('415 names the media type sent; 413 names the limit', async () => {
    const xml = await search('<a/>', { 'content-type': 'text/xml' });
    expect(xml).toMatchObject({ status: 415, body: { code: 'unsupported_media_type', message: 'send the body as application/json; got Content-Type "text/xml"' } });
    const big = await search(`{"x":"${'x'.repeat(70_000)}"}`, { 'content-type': 'application/json' });
    expect(big).toMatchObject({ status: 413, body: { code: 'body_too_large', message: "the body is over this route's limit of 65536 bytes" } });
  });
});

describe('an unknown parameter name gets "did you mean" the closest known name (audit 63d finding 4), over HTTP and in-process', () => {
  const point = { mode: { mode: 'POINT', maxDistance: 1000 } };
  const at = { locations: [{ lat: 53.8, lon: -1.55 }], ...point };
  const http = async (payload: object) => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload });
    return { status: res.statusCode, body: res.json() as { param: string; message: string; code: string } };
  };
  const engineError = (call: () => unknown): { param?: string; message: string } => {
    try {
      call();
    } catch (err) {
      return err as { param?: string; message: string };
    }
    throw new Error('no error');
  };

  it('a body field: preferences.catersFilter, mode.maxDistanc; lng in a location (named, not only the missing lon)', async () => {
    expect(await http({ ...at, preferences: { catersFilter: ['vegan'] } })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', param: 'preferences.catersFilter', message: 'preferences.catersFilter is not a known parameter; did you mean "catersFilters"?' },
    });
    expect((await http({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistanc: 1000 } })).body).toMatchObject({ param: 'mode.maxDistanc', message: 'mode.maxDistanc is not a known parameter; did you mean "maxDistance"?' });
    expect((await http({ ...point, locations: [{ lat: 53.8, lng: -1.55 }] })).body).toMatchObject({ param: 'locations.0.lng', message: 'locations.0.lng is not a known parameter; did you mean "lon"?' });
    // nothing close: the message as before
    expect((await http({ ...at, colour: 'red' })).body).toMatchObject({ param: 'colour', message: 'colour is not a known parameter' });
    expect((await http({ ...point, locations: [{ lat: 53.8 }] })).body).toMatchObject({ param: 'locations.0.lon', message: 'locations.0.lon is required' });

    expect(engineError(() => h.engine.search({ ...at, preferences: { catersFilter: ['vegan'] } } as never, {}))).toMatchObject({
      param: 'preferences.catersFilter',
      message: expect.stringMatching(/^preferences\.catersFilter is not a known field; did you mean "catersFilters"\? \(expected /),
    });
    expect(engineError(() => h.engine.search({ ...point, locations: [{ lat: 53.8, lng: -1.55 }] } as never, {}))).toMatchObject({
      param: 'locations[0].lng',
      message: 'locations[0].lng is not a known field; did you mean "lon"? (expected lat, lon, weight, label, travelMode)',
    });
  });

  it('a query parameter: query on /v1/find is q; radius is maxDistanceMeters', async () => {
    const acct = await h.open();
    const find = async (query: string) => (await h.app.inject({ method: 'GET', url: `/v1/find?${query}`, headers: { 'api-key': acct.secretKey } })).json() as { param: string; message: string };
    expect(await find('query=nando')).toMatchObject({ param: 'query', message: 'query is not a known parameter; did you mean "q"?' });
    expect(await find('q=red&radius=500')).toMatchObject({ param: 'radius', message: 'radius is not a known parameter; did you mean "maxDistanceMeters"?' });
    expect(engineError(() => h.engine.find({ query: 'nando' } as never))).toMatchObject({
      param: 'query',
      message: 'query must be left out: it is not a find parameter; did you mean "q"? (they are q, name, lat, lon, location, maxDistanceMeters, limit, offset); got "nando"',
    });
  });
});

describe('what strict HTTP clients and tools check', () => {
  it('every 401 of the API names its challenge (RFC 9110): no key, an unknown key, two keys', async () => {
    const acct = await h.open();
    for (const headers of [{}, { 'api-key': 'sk_nope' }, { 'api-key': acct.secretKey, api_key: acct.publicKey }]) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=lion', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('APIKey realm="venue-search", header="API-Key"');
    }
  });

  it('openapi.json names a URL in servers: the request\'s origin, or "/" when its Host makes none (an HTTP/1.0 health check sends none)', async () => {
    // over a real socket: the request line and headers exactly as written
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const served = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}\r\n\r\n`));
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
        socket.on('end', () => resolve((JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { servers: { url: string }[] }).servers[0]!.url));
        socket.on('error', reject);
      });
    expect(await served('GET /v1/openapi.json HTTP/1.1\r\nHost: api.example:8080\r\nConnection: close')).toBe('http://api.example:8080');
    expect(await served('GET /v1/openapi.json HTTP/1.0')).toBe('/');
  });

  it('a field or query parameter whose name is empty is named "" (not "body" or "querystring"), over HTTP and in-process', async () => {
    const acct = await h.open();
    const search = async (payload: object) => (await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload })).json() as { param: string; message: string };
    const point = { mode: { mode: 'POINT', maxDistance: 1000 } };
    expect(await search({ '': 1, locations: [{ lat: 53.8, lon: -1.55 }], ...point })).toMatchObject({ param: '""', message: '"" is not a known parameter' });
    expect(await search({ locations: [{ lat: 53.8, lon: -1.55, '': 2 }], ...point })).toMatchObject({ param: 'locations.0.""' });
    const find = (await h.app.inject({ method: 'GET', url: '/v1/find?q=red&=5', headers: { 'api-key': acct.secretKey } })).json() as { param: string };
    expect(find.param).toBe('""');
    let thrown: { param?: string; message: string } | undefined;
    try {
      h.engine.search({ '': 1, locations: [{ lat: 53.8, lon: -1.55 }], ...point }, {});
    } catch (err) {
      thrown = err as { param?: string; message: string };
    }
    expect(thrown?.param).toBe('""');
    expect(thrown?.message).toMatch(/^"" is not a known field/);
  });
});

describe('the OpenAPI document declares the headers every answer carries', () => {
  it('each operation\'s 4XX and 5XX answers declare Request-Id (and 4XX Allow, for a 405); every 401 WWW-Authenticate; and the answers carry them', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const fallback = (status: string) => op.responses[status] ?? op.responses[status.toLowerCase()];
        expect(Object.keys(fallback('4XX')?.headers ?? {}), `${method} ${path} 4XX`).toEqual(expect.arrayContaining(['Request-Id', 'Allow']));
        expect(Object.keys(fallback('5XX')?.headers ?? {}), `${method} ${path} 5XX`).toContain('Request-Id');
        if (op.responses['401'] !== undefined) expect(Object.keys(op.responses['401'].headers ?? {}), `${method} ${path} 401`).toContain('WWW-Authenticate');
      }
    }
    expect(operations).toBeGreaterThanOrEqual(8);
    const wrongMethod = await h.app.inject({ method: 'DELETE', url: '/v1/find' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers['request-id']).toBeDefined();
    expect(wrongMethod.headers.allow).toBe('GET');
  });
});
