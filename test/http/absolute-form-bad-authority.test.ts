/**
 * Audit 70f N1: an absolute-form target whose authority is no host and port
 * (`GET http://a.example:99999/v1/openapi.json`) was answered 400 "the request path is not
 * valid percent-encoded UTF-8": the path is fine, the authority is not. Oracle: raw HTTP/1.1
 * over a socket (no client library rewriting the target), the messages written by hand.
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
