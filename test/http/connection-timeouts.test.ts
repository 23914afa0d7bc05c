// The service's connection timeouts (src/http/app.ts: requestTimeoutMs, connectionTimeoutMs,
// keepAliveTimeoutMs), observed as a client meets them: a raw TCP socket to a listening
// server, and the time until the server closes it. Oracle: the configured values (short
// here), with wide margins (a loaded machine only delays a close).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './support/harness.js';

let h: Harness;
let port: number;
const CONNECTION_MS = 3000;
const KEEP_ALIVE_MS = 300;

beforeAll(async () => {
  h = await createHarness({ extra: { connectionTimeoutMs: CONNECTION_MS, keepAliveTimeoutMs: KEEP_ALIVE_MS, requestTimeoutMs: 60_000 } });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as { port: number }).port;
});
afterAll(() => h.close());

/** Opens a socket, writes `text` (if any), and resolves with what came back and the ms from the write to the server's close. */
function closedAfter(text: string, maxMs: number): Promise<{ ms: number; received: string }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    let start = 0;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${maxMs} ms`));
    }, maxMs);
    socket.on('connect', () => {
      start = performance.now();
      if (text !== '') socket.write(text);
    });
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ ms: performance.now() - start, received });
    });
  });
}

describe('connection timeouts', () => {
  it('keeps a connection idle after an answer for keepAliveTimeoutMs, then closes it', async () => {
    const { ms, received } = await closedAfter('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n', 20_000);
    expect(received.startsWith('HTTP/1.1 200')).toBe(true);
    // Node closes an idle keep-alive socket one second after keepAliveTimeout (its margin
    // for a client's request already in flight)
    expect(ms).toBeGreaterThanOrEqual(KEEP_ALIVE_MS + 1000 - 50);
    // closed by the keep-alive timeout, well before the connection timeout would
    expect(ms).toBeLessThan(CONNECTION_MS - 500);
  });

  it('closes a socket silent for connectionTimeoutMs in the middle of a request', async () => {
    const { ms, received } = await closedAfter('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n', 20_000);
    expect(received).toBe('');
    expect(ms).toBeGreaterThanOrEqual(CONNECTION_MS - 50);
    expect(ms).toBeLessThan(CONNECTION_MS + 10_000);
  });
});
