/**
 * Audit 64a, requests at the edges of what clients send, over a raw socket (no client library
 * normalising them: test/http/support/raw-http.ts):
 * - F9: an empty `API-Key:` value (an unset variable) is a missing key, as `,` is, not an
 *   invalid one.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
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


describe('an empty API-Key value is a missing key (audit 64a F9)', () => {
  it('`API-Key: ` and `API-Key:    ` are missing_api_key, like `API-Key: ,`', async () => {
    for (const value of ['', '   ', ',']) {
      const res = await rawExchange(port, `GET /v1/find?q=red HTTP/1.1\r\nHost: x\r\nAPI-Key: ${value}\r\nConnection: close\r\n\r\n`);
      expectEnvelope(res, 401, 'missing_api_key');
    }
  });
});
