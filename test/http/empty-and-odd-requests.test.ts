/**
 * Audit 64a, requests at the edges of what clients send, over a raw socket (no client library
 * normalising them: test/http/support/raw-http.ts):
 * - F9: an empty `API-Key:` value (an unset variable) is a missing key, as `,` is, not an
 *   invalid one;
 * - F10: a request target with a fragment or a scheme other than http(s) is told so, not
 *   "not valid percent-encoded UTF-8"; `Transfer-Encoding: ,chunked` (an empty list element,
 *   RFC 9110 5.6.1) is chunked;
 * - F8: POST /admin/compact takes no body: none, or an empty one, whatever the Content-Type,
 *   compacts; a body is refused with the route's own "takes no body".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveVenues } from '../../src/changelog/live-venues.js';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { expectEnvelope, rawExchange } from './support/raw-http.js';

const TOKEN = 'operator-token-0123456789';
let compactions = 0;
// the route's own behaviour is under test, not compaction (test/live covers it): a stand-in that counts calls
const live = { compact: async () => ({ compacted: ++compactions }) } as unknown as LiveVenues;

let server: Harness;
let port: number;
beforeAll(async () => {
  server = await createHarness({ extra: { admin: { live, token: TOKEN } } });
  port = await listenOnLoopback(server);
});
afterAll(async () => {
  await server.close();
});

const message = (body: string): string => (JSON.parse(body) as { message: string }).message;

describe('an empty API-Key value is a missing key (audit 64a F9)', () => {
  it('`API-Key: ` and `API-Key:    ` are missing_api_key, like `API-Key: ,`', async () => {
    for (const value of ['', '   ', ',']) {
      const res = await rawExchange(port, `GET /v1/find?q=red HTTP/1.1\r\nHost: x\r\nAPI-Key: ${value}\r\nConnection: close\r\n\r\n`);
      expectEnvelope(res, 401, 'missing_api_key');
    }
  });
});

describe('odd request targets say what is wrong (audit 64a F10)', () => {
  const get = async (target: string) => {
    const acct = await server.open();
    return rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nConnection: close\r\n\r\n`);
  };

  it('a fragment, in absolute-form or origin-form, in the path or the query', async () => {
    for (const target of ['http://x/v1/vocabulary#/v1/find', '/v1/vocabulary#frag', '/v1/find?q=red#x']) {
      const res = await get(target);
      expectEnvelope(res, 400, 'invalid_url');
      expect(message(res.body), target).toMatch(/^the request target holds a fragment \("#\.\.\."\)/);
    }
  });

  it('a scheme other than http or https', async () => {
    for (const [target, scheme] of [
      ['ftp://x/v1/vocabulary', 'ftp:'],
      ['FTP://x/v1/find?q=red', 'FTP:'],
    ]) {
      const res = await get(target!);
      expectEnvelope(res, 400, 'invalid_url');
      expect(message(res.body)).toBe(`the request target must be a path ("/v1/...") or an http:// or https:// URL; got the scheme "${scheme}"`);
    }
    // http and https absolute-form are served as before
    expect((await get('HTTP://x/v1/find?q=red')).status).toBe(200);
    expect((await get('https://x/v1/find?q=red')).status).toBe(200);
  });

  it('Transfer-Encoding ",chunked" is chunked (an empty list element is ignored)', async () => {
    const acct = await server.open();
    const body = JSON.stringify({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    for (const coding of [',chunked', ' , chunked']) {
      const res = await rawExchange(
        port,
        `POST /v1/search/?limit=1 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${coding}\r\nConnection: close\r\n\r\n` +
          `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      );
      expect([coding, res.status]).toEqual([coding, 200]);
    }
  });

  it('Transfer-Encoding "chunked," (a trailing empty element) is refused by Node\'s parser as docs/http.md says (audit 65a F7)', async () => {
    const acct = await server.open();
    const body = JSON.stringify({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    for (const coding of ['chunked,', 'chunked, ']) {
      const res = await rawExchange(
        port,
        `POST /v1/search/?limit=1 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${coding}\r\nConnection: close\r\n\r\n` +
          `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      );
      expect([coding, res.status, res.body.includes('"malformed_request"')]).toEqual([coding, 400, true]);
    }
  });
});

describe('POST /admin/compact takes no body (audit 64a F8)', () => {
  const compact = (headers: string, body = '') =>
    rawExchange(port, `POST /admin/compact HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\n${headers}Connection: close\r\n\r\n${body}`);

  it('no body, or an empty one, compacts whatever the Content-Type', async () => {
    const before = compactions;
    for (const headers of [
      'Content-Type: application/json\r\n',
      'Content-Type: application/json\r\nContent-Length: 0\r\n',
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n',
      'Content-Type: text/plain\r\n',
      '',
    ]) {
      const res = await compact(headers);
      expect([headers, res.status]).toEqual([headers, 200]);
    }
    expect(compactions - before).toBe(5);
  });

  it('a body is refused with the route\'s own message, whatever its type, and nothing is compacted', async () => {
    const before = compactions;
    for (const [headers, body] of [
      ['Content-Type: application/json\r\nContent-Length: 2\r\n', '{}'],
      ['Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n', 'a=1'],
      ['Content-Type: text/plain\r\nContent-Length: 5\r\n', 'hello'],
    ]) {
      const res = await compact(headers!, body);
      expectEnvelope(res, 400, 'invalid_request');
      expect(message(res.body)).toBe('POST /admin/compact takes no body: send it without one');
    }
    expect(compactions).toBe(before);
  });
});
