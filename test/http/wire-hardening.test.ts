/**
 * Audit 63b, what the service does on the wire with requests no client library sends but a
 * raw socket can: transfer codings it does not implement (F1), absolute-form request targets
 * (F4), `Expect: 100-continue` (F7), and the cache header of error answers (F6).
 * Oracles: raw HTTP/1.1 over a socket (test/http/support/raw-http.ts), the ledger.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { expectEnvelope, parseAll, rawExchange } from './support/raw-http.js';

let server: Harness;
let port: number;
beforeAll(async () => {
  server = await createHarness();
  port = await listenOnLoopback(server);
});
afterAll(async () => {
  await server.close();
});

const SEARCH_BODY = JSON.stringify({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } });
const charges = async (accountId: string): Promise<number> => (await server.ledger(accountId)).filter((r) => r.amount_micros < 0).length;

describe('transfer codings (audit 63b F1)', () => {
  const chunkedSearch = (key: string, transferEncoding: string): string =>
    `POST /v1/search/?limit=1 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${transferEncoding}\r\nConnection: close\r\n\r\n` +
    `${Buffer.byteLength(SEARCH_BODY).toString(16)}\r\n${SEARCH_BODY}\r\n0\r\n\r\n`;

  it('a transfer coding other than chunked (gzip, chunked) is a 415, never charged: its bytes are not read as if uncoded', async () => {
    const acct = await server.open();
    for (const coding of ['gzip, chunked', 'foo, chunked', 'GZIP ,chunked']) {
      const res = await rawExchange(port, chunkedSearch(acct.secretKey, coding));
      expectEnvelope(res, 415, 'unsupported_media_type');
      expect(JSON.parse(res.body).message).toContain('Transfer-Encoding');
    }
    expect(await charges(acct.accountId)).toBe(0);
  });

  it('chunked alone, in any case, is read and served', async () => {
    const acct = await server.open();
    for (const coding of ['chunked', 'Chunked']) expect((await rawExchange(port, chunkedSearch(acct.secretKey, coding))).status, coding).toBe(200);
    expect(await charges(acct.accountId)).toBe(2);
  });
});

describe('absolute-form request targets behave as their origin-form (audit 63b F4)', () => {
  it("the widget's 308 sends the client to a path on the Host's origin, never to the authority named in the target", async () => {
    for (const target of ['http://evil.example/v1/widget?key=x', 'HTTPS://evil.example:8443/v1/widget?key=x', '/v1/widget?key=x']) {
      const res = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect({ target, status: res.status, location: res.headers['location'] }).toEqual({ target, status: 308, location: '/v1/widget/?key=x' });
    }
  });

  it('a public key is judged on the path the router matched: GET http://x/v1/find is served as GET /v1/find, /v1/vocabulary still refused', async () => {
    const acct = await server.open();
    const get = (target: string) => rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.publicKey}\r\nConnection: close\r\n\r\n`);
    for (const target of ['/v1/find?q=nando', 'http://x/v1/find?q=nando', 'http://other.example:81/v1/establishments/basic/fx-00000']) {
      expect((await get(target)).status, target).toBe(200);
    }
    for (const target of ['/v1/vocabulary', 'http://x/v1/vocabulary']) expectEnvelope(await get(target), 403, 'public_key_not_permitted');
  });
});

describe('every error answer carries Cache-Control: no-store, as the 200s of the keyed routes do (audit 63b F6)', () => {
  it('400, 401, 402, 403, 404 (venue and route), 405, 413, 415 and 429 of the /v1 routes, and the parser\'s 400 and 431', async () => {
    const rich = await server.open();
    const broke = await server.open('Enterprise', 0);
    const slow = await server.open('Builder');
    const json = { 'content-type': 'application/json' };
    const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, key: string | undefined, extra: { headers?: Record<string, string>; payload?: string } = {}) =>
      server.app.inject({ method, url, headers: { ...(key === undefined ? {} : { 'api-key': key }), ...extra.headers }, ...(extra.payload === undefined ? {} : { payload: extra.payload }) });
    await inject('GET', '/v1/find?q=nando', slow.secretKey); // fills the Builder plan's 1/s window
    const answers = {
      400: await inject('GET', '/v1/find?q=nando&x=1', rich.secretKey),
      401: await inject('GET', '/v1/find?q=nando', undefined),
      402: await inject('GET', '/v1/find?q=nando', broke.secretKey),
      403: await inject('GET', '/v1/vocabulary', rich.publicKey),
      '404 venue': await inject('GET', '/v1/establishments/basic/nope', rich.secretKey),
      '404 route': await inject('GET', '/v1/nowhere', rich.secretKey),
      405: await inject('DELETE', '/v1/find', rich.secretKey),
      413: await inject('POST', '/v1/search/', rich.secretKey, { headers: json, payload: JSON.stringify({ pad: 'x'.repeat(70_000) }) }),
      415: await inject('POST', '/v1/search/', rich.secretKey, { headers: { 'content-type': 'text/plain' }, payload: SEARCH_BODY }),
      429: await inject('GET', '/v1/find?q=nando', slow.secretKey),
    };
    for (const [label, res] of Object.entries(answers)) {
      expect({ label, status: res.statusCode, cache: res.headers['cache-control'] }).toEqual({ label, status: Number(label.slice(0, 3)), cache: 'no-store' });
    }
    for (const [request, status] of [['HELLO\r\n\r\n', 400], [`GET /v1/find?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431]] as const) {
      const res = await rawExchange(port, request);
      expect({ status: res.status, cache: res.headers['cache-control'] }).toEqual({ status, cache: 'no-store' });
    }
  });
});

/**
 * A client that asks `Expect: 100-continue` and behaves as curl does: sends the header
 * section, sends `body` only once `100 Continue` has come, and reads until the server closes.
 * Returns all it read and whether the body was sent.
 */
function expectContinue(head: string, body: string, expectation = '100-continue'): Promise<{ text: string; sentBody: boolean }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sentBody = false;
    s.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!sentBody && Buffer.concat(chunks).toString('latin1').startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sentBody = true;
        s.write(body);
      }
    });
    s.once('error', reject);
    s.once('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), sentBody }));
    s.write(`${head.trimEnd()}\r\nExpect: ${expectation}\r\n\r\n`);
  });
}

describe('Expect: 100-continue (audit 63b F7)', () => {
  const post = (path: string, headers: string, body = SEARCH_BODY): string =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n`;

  it('no 100 Continue when the final status is known from the header section: 404, 405, 401, 403, 429, 413, 415; the body is never uploaded', async () => {
    const acct = await server.open();
    const slow = await server.open('Builder');
    await server.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': slow.secretKey } }); // fills its 1/s window
    const json = 'Content-Type: application/json\r\n';
    const cases: [string, string, number, string][] = [
      ['unknown path', post('/v1/nothing', `API-Key: ${acct.secretKey}\r\n${json}`), 404, 'route_not_found'],
      ['other method', post('/v1/find', `API-Key: ${acct.secretKey}\r\n${json}`).replace('POST', 'PUT'), 405, 'method_not_allowed'],
      ['no key', post('/v1/search/', json), 401, 'missing_api_key'],
      ['public key, not permitted', post('/v1/vocabulary', `API-Key: ${acct.publicKey}\r\n${json}`).replace('POST', 'GET'), 403, 'public_key_not_permitted'],
      ['rate window full', post('/v1/search/', `API-Key: ${slow.secretKey}\r\n${json}`), 429, 'rate_limited'],
      ['over the body limit', post('/v1/search/', `API-Key: ${acct.secretKey}\r\n${json}`, 'x'.repeat(70_000)), 413, 'body_too_large'],
      ['not JSON', post('/v1/search/', `API-Key: ${acct.secretKey}\r\nContent-Type: text/plain\r\n`), 415, 'unsupported_media_type'],
      ['compressed', post('/v1/search/', `API-Key: ${acct.secretKey}\r\n${json}Content-Encoding: gzip\r\n`), 415, 'unsupported_media_type'],
    ];
    for (const [label, head, status, code] of cases) {
      const { text, sentBody } = await expectContinue(head, label.startsWith('over') ? 'x'.repeat(70_000) : SEARCH_BODY);
      expect({ label, sentBody, start: text.slice(0, 13) }).toEqual({ label, sentBody: false, start: `HTTP/1.1 ${status} ` });
      const answers = parseAll(text);
      expect(answers, label).toHaveLength(1);
      expectEnvelope(answers[0]!, status, code);
    }
    expect(await charges(acct.accountId)).toBe(0);
  });

  it('a valid upload waits for the 100 Continue, is read and served (any case of the expectation), and charged once', async () => {
    const acct = await server.open();
    const { text, sentBody } = await expectContinue(post('/v1/search/?limit=1', `API-Key: ${acct.secretKey}\r\nContent-Type: application/json\r\nConnection: close\r\n`), SEARCH_BODY, '100-Continue');
    expect(sentBody).toBe(true);
    expect(text.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 ')).toBe(true);
    const answer = parseAll(text.slice('HTTP/1.1 100 Continue\r\n\r\n'.length));
    expect(answer.map((a) => a.status)).toEqual([200]);
    expect(JSON.parse(answer[0]!.body)).toHaveProperty('establishments');
    expect(await charges(acct.accountId)).toBe(1);
  });
});
