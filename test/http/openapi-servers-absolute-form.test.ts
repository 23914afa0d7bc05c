/**
 * Audit 70a F1: `servers` of /v1/openapi.json came from `Host` even when the request target
 * was absolute-form (`GET http://other.example/v1/openapi.json`); RFC 9112 3.2.2 says the
 * target's authority wins over `Host`. Oracle: raw HTTP/1.1 over a socket (no client library
 * rewriting the target) and the expected origins written by hand.
 *
 * Audit 70f N1: an absolute-form target whose authority is no host and port
 * (`GET http://a.example:99999/v1/openapi.json`) was answered 400 "the request path is not
 * valid percent-encoded UTF-8": the path is fine, the authority is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { rawExchange } from './support/raw-http.js';

let server: Harness;
let port: number;
beforeAll(async () => {
  server = await createHarness();
  port = await listenOnLoopback(server);
});
afterAll(async () => {
  await server.close();
});

async function serversFor(target: string, host: string): Promise<unknown> {
  const res = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  expect([target, res.status]).toEqual([target, 200]);
  return (JSON.parse(res.body) as { servers: unknown }).servers;
}

describe('servers of openapi.json', () => {
  it("an absolute-form target's scheme and authority, not Host (RFC 9112 3.2.2)", async () => {
    expect(await serversFor('http://other.example/v1/openapi.json', 'localhost')).toEqual([{ url: 'http://other.example', description: 'This service' }]);
    expect(await serversFor('https://other.example:8443/v1/openapi.json', 'localhost')).toEqual([{ url: 'https://other.example:8443', description: 'This service' }]);
    expect(await serversFor('HTTP://Other.Example:80/v1/openapi.json', 'localhost')).toEqual([{ url: 'http://other.example', description: 'This service' }]);
    // an authority that is no host[:port] (userinfo, RFC 9110 4.2.4): no origin, as for a Host that names none
    expect(await serversFor('http://user@other.example/v1/openapi.json', 'localhost')).toEqual([{ url: '/', description: 'This service' }]);
  });

  it('an origin-form target still takes Host', async () => {
    expect(await serversFor('/v1/openapi.json', 'api.example:8080')).toEqual([{ url: 'http://api.example:8080', description: 'This service' }]);
  });
});

async function get(target: string): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const res = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  return { status: res.status, body: JSON.parse(res.body) as { code?: string; message?: string } };
}

describe('an absolute-form target with a bad authority', () => {
  it.each([
    ['http://a.example:99999/v1/openapi.json', 'a.example:99999'],
    ['http://a.example:80x/v1/openapi.json', 'a.example:80x'],
    ['http://[::1]:123456/v1/openapi.json', '[::1]:123456'],
  ])('%s is refused naming the authority, not the path', async (target, authority) => {
    const res = await get(target);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_url');
    expect(res.body.message).not.toContain('percent-encoded');
    expect(res.body.message).toContain(JSON.stringify(authority));
  });

  it('a good one is still answered (port 65535, an IPv6 literal)', async () => {
    expect((await get('http://a.example:65535/v1/openapi.json')).status).toBe(200);
    expect((await get('http://[::1]:8080/v1/openapi.json')).status).toBe(200);
  });
});
