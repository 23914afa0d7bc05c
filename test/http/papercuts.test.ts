/**
 * Issue 14 item 5, the papercuts of a first hour (serve --dev sharing: serve.test.ts):
 * - every error that reaches a client is our envelope, whatever layer answers it: Node's
 *   parser (431 over-long URL or headers, 400 malformed request), the router (bad
 *   percent-encoding, unknown method), fastify (body parsing), a server shutting down (503);
 * - unknown query parameters are a 400 naming the parameter on every route;
 * - a search that finds nothing because lat and lon were swapped says so (`hint`);
 * - the rate counters' files (`accounts.sqlite-rates*`) and the dev keys are ignored by git.
 * Oracles: the envelope's schema (ErrorEnvelopeSchema), raw HTTP/1.1 over a socket (no client
 * library normalising what the server wrote), the fixture venues' extent computed here by a
 * scan, and `git check-ignore`.
 */
import { execFileSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/schema/search.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { createFixtureEngine } from './support/fixture-engine.js';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { expectEnvelope, parseAll, parseResponse, rawExchange, readUntilClosed, type RawResponse } from './support/raw-http.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('every error reaching a client is the envelope', () => {
  let server: Harness;
  let port: number;
  beforeAll(async () => {
    server = await createHarness();
    port = await listenOnLoopback(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('431 for a URL over the header limit (Node parser), not Node/fastify\'s own body', async () => {
    const res = await rawExchange(port, `GET /v1/find?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectEnvelope(res, 431, 'headers_too_large');
  });

  it('431 for headers over the limit', async () => {
    const res = await rawExchange(port, `GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(res, 431, 'headers_too_large');
  });

  it('400 for a malformed request line, with a Request-Id', async () => {
    const res = await rawExchange(port, 'THIS IS NOT HTTP\r\n\r\n');
    expectEnvelope(res, 400, 'malformed_request');
    // every response carries a Request-Id, this one written before there is a request
    expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('400 for bad percent-encoding in the path, with a Request-Id', async () => {
    const res = await rawExchange(port, 'GET /v1/establishments/basic/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectEnvelope(res, 400, 'invalid_url');
    expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a details id over 200 characters goes through the checks in their order: 405, then 401, then a counted 400 (audit 60c: a 400 before all)', async () => {
    const long = 'x'.repeat(201);
    const wrongMethod = await rawExchange(port, `DELETE /v1/establishments/basic/${long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expectEnvelope(wrongMethod, 405, 'method_not_allowed');
    expectEnvelope(await rawExchange(port, `GET /v1/establishments/basic/${long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 401, 'missing_api_key');
    const acct = await server.open();
    const keyed = await rawExchange(port, `GET /v1/establishments/basic/${long} HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nConnection: close\r\n\r\n`);
    expectEnvelope(keyed, 400, 'invalid_request');
    expect(JSON.parse(keyed.body)).toMatchObject({ param: 'id' });
    // it reached the rate check: counted, with the rate-limit headers
    expect(Object.keys(keyed.headers).some((name) => name.startsWith('ratelimit') || name.startsWith('x-ratelimit'))).toBe(true);
  });

  it('405 with Allow for a method the router did not know (PROPFIND; audit 59c: a 404)', async () => {
    const res = await rawExchange(port, 'PROPFIND /v1/find HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers['allow']).toBe('GET');
  });

  it('what Node answered itself is the envelope with a Request-Id: no Host, an unknown Expect, CONNECT (audit 59c)', async () => {
    const noHost = await rawExchange(port, 'GET /v1/find?q=a HTTP/1.1\r\nConnection: close\r\n\r\n');
    expectEnvelope(noHost, 400, 'malformed_request');
    expect(JSON.parse(noHost.body)).toMatchObject({ message: 'an HTTP/1.1 request needs a Host header' });
    // audit 60a: two Host lines were served (Node keeps the first)
    const twoHosts = await rawExchange(port, 'GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n');
    expectEnvelope(twoHosts, 400, 'malformed_request');
    expect(JSON.parse(twoHosts.body)).toMatchObject({ message: 'a request has one Host header; this one has several' });
    // audit 61b: a list on one line, or a value that is no host, is an invalid Host (RFC 9112 3.2)
    for (const host of ['a, b', 'a b', 'a/b', 'a:b:c', '[::1']) {
      const bad = await rawExchange(port, `GET /v1/find?q=a HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expectEnvelope(bad, 400, 'malformed_request');
      expect(JSON.parse(bad.body)).toMatchObject({ message: `the Host header must be one host name or address, with an optional port; got ${JSON.stringify(host)}` });
    }
    // valid hosts are routed (no key: a 401)
    for (const host of ['example.com', 'example.com:8080', '[::1]:18220', '127.0.0.1', 'a_b.internal', 'host.']) {
      expect((await rawExchange(port, `GET /v1/find?q=a HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).status, host).toBe(401);
    }
    // HTTP/1.0 has no Host requirement: it is routed (here: no key, a 401)
    expect((await rawExchange(port, 'GET /v1/find?q=a HTTP/1.0\r\n\r\n')).status).toBe(401);
    const expectation = await rawExchange(port, 'GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n');
    expectEnvelope(expectation, 417, 'expectation_failed');
    // Node reads these as 100-continue (the word inside them); they are other expectations (audit 60a)
    for (const expect100 of ['100-continue-x', 'foo, 100-continue']) {
      expectEnvelope(await rawExchange(port, `GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\nExpect: ${expect100}\r\nConnection: close\r\n\r\n`), 417, 'expectation_failed');
    }
    // the expectation itself, in any case, is met: here the 401 is known from the headers, so it
    // is the answer at once, without a 100 Continue (audit 63b F7; a 100 then a served body:
    // test/http/wire-hardening.test.ts)
    const continued = await readUntilClosed(port, 'POST /v1/search/ HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    expect(continued.startsWith('HTTP/1.1 401 ')).toBe(true);
    const tunnel = await rawExchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectEnvelope(tunnel, 405, 'method_not_allowed');
    for (const res of [noHost, expectation, tunnel]) expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('400 for a body that is not JSON, and for a Content-Length that does not match', async () => {
    const acct = await server.open();
    const bad = await rawExchange(
      port,
      `POST /v1/search/ HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"a":`,
    );
    expectEnvelope(bad, 400, 'invalid_json');
    const conflicting = await rawExchange(
      port,
      `POST /v1/search/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\n{}`,
    );
    expectEnvelope(conflicting, 400, 'malformed_request');
  });

  it('a valid request pipelined before a malformed one is answered first, then the 400: what was charged was sent (audit 60c)', async () => {
    const acct = await server.open();
    for (const garbage of ['HELLO\r\n\r\n', `GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`]) {
      const text = await readUntilClosed(port, `GET /v1/find?q=nando&lat=53.8&lon=-1.55&limit=1 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n${garbage}`);
      const first = parseResponse(text)!;
      expect(first.status, text.slice(0, 200)).toBe(200);
      expect((JSON.parse(first.body) as { totalFound: number }).totalFound).toBeGreaterThan(0);
      const rest = text.slice(text.indexOf(first.body) + first.body.length);
      expectEnvelope(parseResponse(rest)!, garbage.startsWith('HELLO') ? 400 : 431, garbage.startsWith('HELLO') ? 'malformed_request' : 'headers_too_large');
    }
    expect((await server.ledger(acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(2);
  });

  it('3 or 5 valid requests pipelined before a malformed one are all answered, in order, then the 400/431, a client half-closing too: one charge per 200 (audit 61b N3)', async () => {
    const acct = await server.open();
    const big = `GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`;
    // [good requests, then, status, code, the client half-closes after sending]
    const cases: [number, string, number, string, boolean][] = [
      [3, 'HELLO\r\n\r\n', 400, 'malformed_request', false],
      [5, 'HELLO\r\n\r\n', 400, 'malformed_request', false],
      [3, big, 431, 'headers_too_large', false],
      // its FIN, after the error, is not read: Node would otherwise end the socket at once
      [3, 'HELLO\r\n\r\n', 400, 'malformed_request', true],
    ];
    let charged = 0;
    for (const [good, garbage, status, code, halfClose] of cases) {
      // request i asks for limit=i, which its answer echoes: the order can be read
      const finds = Array.from({ length: good }, (_, i) => `GET /v1/find?q=nando&lat=53.8&lon=-1.55&limit=${i + 1} HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n`);
      const text = await readUntilClosed(port, finds.join('') + garbage, halfClose);
      const answers = parseAll(text);
      const label = `${good} + ${status}${halfClose ? ', half-closed' : ''}: ${JSON.stringify(text.slice(0, 120))}`;
      expect(answers.map((a) => a.status), label).toEqual([...Array<number>(good).fill(200), status]);
      answers.slice(0, good).forEach((a, i) => expect((JSON.parse(a.body) as { limit: number }).limit, label).toBe(i + 1));
      expectEnvelope(answers[good]!, status, code);
      charged += good;
      expect((await server.ledger(acct.accountId)).filter((r) => r.amount_micros < 0), label).toHaveLength(charged);
    }
  });

  it('a client that closes its side (FIN) before its answers, as nc -N or shutdown(SHUT_WR) does, is not answered and not charged', async () => {
    const acct = await server.open();
    const charges = async (): Promise<number> => (await server.ledger(acct.accountId)).filter((r) => r.amount_micros < 0).length;
    const find = (limit: number): string => `GET /v1/find?q=nando&lat=53.8&lon=-1.55&limit=${limit} HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n`;
    for (const count of [1, 3]) {
      const before = await charges();
      // a FIN is read as the client leaving (as Node, nginx and Apache read it): nothing is sent
      expect(await readUntilClosed(port, Array.from({ length: count }, (_, i) => find(i + 1)).join(''), true)).toBe('');
      // time for the service to have served and charged them, had it done so
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await charges()).toBe(before);
      // the same request on a connection kept open is answered and charged: the ledger is read right
      expect(parseAll(await readUntilClosed(port, find(1).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))).map((a) => a.status)).toEqual([200]);
      expect(await charges()).toBe(before + 1);
    }
  });

  it('a POST search over a real socket (its body read to the end, so Node destroys the request stream) is answered and charged, also when the client then closes its side', async () => {
    const acct = await server.open();
    const charges = async (): Promise<number> => (await server.ledger(acct.accountId)).filter((r) => r.amount_micros < 0).length;
    const body = JSON.stringify({ locations: [{ lat: 51.5085, lon: -0.1257 }, { lat: 51.51, lon: -0.13 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    const search = `POST /v1/search/?limit=2 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    const before = await charges();
    expect(parseAll(await readUntilClosed(port, search)).map((a) => a.status)).toEqual([200]);
    expect(await charges()).toBe(before + 1);
    expect(await readUntilClosed(port, search, true)).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await charges()).toBe(before + 1);
  });

  it('503 envelope for a request arriving on an open connection while the server shuts down', async () => {
    // built here, not by createHarness (which readies the app: no hook can be added after)
    const store = new SqliteAccountsStore(':memory:');
    const app = { app: await buildApp({ engine: await createFixtureEngine(), accounts: store }), close: async () => {} };
    app.close = async () => {
      await app.app.close();
      await store.close();
    };
    // eslint-disable-next-line prefer-const -- read by the hook installed below, assigned after it
    let socket: Socket | undefined;
    let appPort = 0;
    let during: RawResponse | undefined;
    // preClose hooks run in order: buildApp's (marks the app closing) first, then this one,
    // before the server stops accepting: the kept-alive connection is still open
    app.app.addHook('preClose', async () => {
      during = await rawExchange(appPort, 'GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\n\r\n', socket);
    });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.app.server.address();
    appPort = typeof address === 'object' && address !== null ? address.port : 0;
    socket = connect(appPort, '127.0.0.1');
    const first = await rawExchange(appPort, 'GET /v1/find?q=a HTTP/1.1\r\nHost: x\r\n\r\n', socket);
    expect(first.status).toBe(401);
    await app.close();
    socket.destroy();
    expectEnvelope(during!, 503, 'service_unavailable');
    expect(during!.headers['connection']).toBe('close');
  });
});

describe('unknown query parameters: 400 naming the parameter on every route', () => {
  it.each([
    ['GET', '/v1/business/balances?x=1'],
    ['POST', '/v1/business/balances?x=1'],
    ['GET', '/v1/vocabulary?x=1'],
    ['GET', '/v1/establishments/basic/fx-00000?x=1'],
    ['GET', '/v1/establishments/advanced/fx-00000?x=1'],
    ['GET', '/v1/establishments/menus/fx-00000?x=1'],
    ['GET', '/v1/find?q=nando&x=1'],
    ['POST', '/v1/search/?x=1'],
    ['GET', '/v1/openapi.json?x=1'],
  ] as const)('%s %s', async (method, url) => {
    const acct = await h.open();
    const payload = method === 'POST' ? (url.includes('balances') ? { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' } : { locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } }) : undefined;
    const before = await h.accounts.balanceMicros(acct.accountId);
    const res = await h.app.inject({ method, url, headers: { 'api-key': acct.secretKey }, ...(payload === undefined ? {} : { payload }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param: 'x' });
    expect(res.json().message).toContain('x');
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(before);
  });
});

describe('the widget page too (an HTML page: its 400 is a page naming the parameter)', () => {
  it('GET /v1/widget/?key=pk_...&x=1 -> 400 naming x; without x the page is served', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: `/v1/widget/?key=${acct.publicKey}&x=1` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('&quot;x&quot;');
    const ok = await h.app.inject({ method: 'GET', url: `/v1/widget/?key=${acct.publicKey}` });
    expect([200, 503]).toContain(ok.statusCode);
  });
});

describe('a search that finds nothing with lat and lon swapped says so (hint)', () => {
  // oracle: a scan of the fixture venues for any venue within `deg` degrees of a point
  const venuesWithin = (lat: number, lon: number, deg: number) =>
    h.engine.venues.filter((v) => Math.abs(v.location.coordinates[0] - lat) <= deg && Math.abs(v.location.coordinates[1] - lon) <= deg).length;
  const search = async (body: object): Promise<SearchResponse> => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload: body });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  // fx-00000, Call Lane, Leeds: its [lon, lat] is in the Indian Ocean, 2+ degrees from every venue
  const leeds = () => h.engine.venues.find((v) => v.id === 'fx-00000')!;

  it('POINT at [lon, lat] of a venue: empty, with hint lat_lon_swapped; the same point unswapped finds the venue and has no hint', async () => {
    const venue = leeds();
    const [lat, lon] = venue.location.coordinates;
    expect(venuesWithin(lon, lat, 2)).toBe(0);
    const swapped = await search({ locations: [{ lat: lon, lon: lat }], mode: { mode: 'POINT', maxDistance: 1000 } });
    expect(swapped.totalResults).toBe(0);
    expect(swapped.hint).toMatchObject({ code: 'lat_lon_swapped' });
    expect(swapped.hint!.message).toContain('swapped');
    const right = await search({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 1000 } });
    expect(right.establishments.map((x) => x.id)).toContain(venue.id);
    expect(right).not.toHaveProperty('hint');
  });

  it('PATH whose vertices are swapped: empty, with the hint', async () => {
    const [lat, lon] = leeds().location.coordinates;
    const body = { locations: [{ lat: lon, lon: lat }, { lat: lon + 0.01, lon: lat + 0.01 }], mode: { mode: 'PATH', maxDistance: 200 } };
    expect(venuesWithin(lon, lat, 2)).toBe(0);
    const res = await search(body);
    expect(res.totalResults).toBe(0);
    expect(res.hint?.code).toBe('lat_lon_swapped');
  });

  it('no hint for an empty search whose swapped centre is away from the data too (0, 10), or whose centre is near the data', async () => {
    expect(venuesWithin(10, 0, 2)).toBe(0);
    const nowhere = await search({ locations: [{ lat: 0, lon: 10 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    expect(nowhere.totalResults).toBe(0);
    expect(nowhere).not.toHaveProperty('hint');
    // near the data, but nothing matches a non-compromise filter within 10 m
    const [lat, lon] = leeds().location.coordinates;
    const near = await search({
      locations: [{ lat: lat + 0.01, lon }],
      mode: { mode: 'POINT', maxDistance: 10 },
      preferences: { establishmentFilters: ['bakery'], nonCompromise: ['establishmentFilters'] },
    });
    expect(near.totalResults).toBe(0);
    expect(near).not.toHaveProperty('hint');
  });
});

describe('git ignores the files a server writes beside its database', () => {
  it('accounts.sqlite, its -rates files and WAL/SHM, and the dev keys file', () => {
    const files = ['accounts.sqlite', 'accounts.sqlite-rates', 'accounts.sqlite-rates-wal', 'accounts.sqlite-rates-shm', 'accounts.sqlite-wal', 'accounts.sqlite.dev-keys.json'];
    const out = execFileSync('git', ['check-ignore', '--no-index', ...files], { encoding: 'utf8' });
    expect(out.trim().split('\n').sort()).toEqual([...files].sort());
  });
});
