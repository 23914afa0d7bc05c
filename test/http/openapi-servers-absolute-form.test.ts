/**
 * Audit 70a F1: `servers` of /v1/openapi.json came from `Host` even when the request target
 * was absolute-form (`GET http://other.example/v1/openapi.json`); RFC 9112 3.2.2 says the
 * target's authority wins over `Host`. Oracle: raw HTTP/1.1 over a socket (no client library
 * rewriting the target) and the expected origins written by hand.
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
