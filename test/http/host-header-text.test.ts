/**
 * Audit 70a F2: a Host header that is not `host[:port]` is refused (400 malformed_request) and
 * its value is echoed in the message as the client wrote it. Node decodes header bytes as
 * Latin-1, so before, UTF-8 `Ünï.example` came back as `ÃnÃ¯.example`. Oracle: the bytes
 * written on a raw socket, and the expected texts written by hand.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { expectEnvelope, parseResponse, type RawResponse } from './support/raw-http.js';

let server: Harness;
let port: number;
beforeAll(async () => {
  server = await createHarness();
  port = await listenOnLoopback(server);
});
afterAll(async () => {
  await server.close();
});

/** Sends `request` as the given bytes and reads one response. */
function exchangeBytes(request: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (chunk: Buffer) => chunks.push(chunk));
    s.once('error', reject);
    s.once('close', () => {
      const parsed = parseResponse(Buffer.concat(chunks).toString('utf8'));
      if (parsed === undefined) reject(new Error('closed without a whole response'));
      else resolve(parsed);
    });
    s.write(request);
  });
}

const request = (hostBytes: Buffer) =>
  Buffer.concat([Buffer.from('GET /v1/find?q=a HTTP/1.1\r\nHost: ', 'latin1'), hostBytes, Buffer.from('\r\nConnection: close\r\n\r\n', 'latin1')]);
const PREFIX = 'the Host header must be one host name or address, with an optional port; got ';

describe('a refused non-ASCII Host is echoed faithfully', () => {
  it('UTF-8 bytes are shown as the text they encode', async () => {
    // Ü = C3 9C, n, ï = C3 AF
    const bytes = Buffer.from([0xc3, 0x9c, 0x6e, 0xc3, 0xaf, ...Buffer.from('.example', 'latin1')]);
    const res = await exchangeBytes(request(bytes));
    expectEnvelope(res, 400, 'malformed_request');
    expect((JSON.parse(res.body) as { message: string }).message).toBe(`${PREFIX}"Ünï.example"`);
  });

  it('bytes that are not UTF-8 are shown escaped, one \\xHH per byte', async () => {
    const bytes = Buffer.from([0x61, 0xff, 0x62, 0xe9, 0x2e, 0x63, 0x6f]); // a, FF, b, E9 (Latin-1 é), ".co"
    const res = await exchangeBytes(request(bytes));
    expectEnvelope(res, 400, 'malformed_request');
    expect((JSON.parse(res.body) as { message: string }).message).toBe(`${PREFIX}"a\\xFFb\\xE9.co"`);
  });
});
