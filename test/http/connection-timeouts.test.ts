// The service's connection timeouts (src/http/app.ts: requestTimeoutMs, connectionTimeoutMs,
// keepAliveTimeoutMs), observed as a client meets them: a raw TCP socket to a listening
// server, and the time until the server closes it. Oracle: the configured values (short
// here), with wide margins (a loaded machine only delays a close).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';

let h: Harness;
let port: number;
const CONNECTION_MS = 3000;
const KEEP_ALIVE_MS = 300;

beforeAll(async () => {
  h = await createHarness({ extra: { connectionTimeoutMs: CONNECTION_MS, keepAliveTimeoutMs: KEEP_ALIVE_MS, requestTimeoutMs: 60_000 } });
  port = await listenOnLoopback(h);
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

describe('a request that arrives too slowly (audit 59c)', () => {
  const REQUEST_MS = 1500;
  let slow: Harness;
  let slowPort: number;
  beforeAll(async () => {
    slow = await createHarness({ extra: { requestTimeoutMs: REQUEST_MS, timeoutCheckIntervalMs: 250, connectionTimeoutMs: 60_000 } });
    slowPort = await listenOnLoopback(slow);
  });
  afterAll(() => slow.close());

  /** Sends `head` at once, then `body` one byte every 200 ms; resolves with the answer and the ms until the server closed the socket. */
  function trickle(head: string, body: string, maxMs: number): Promise<{ ms: number; received: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(slowPort, '127.0.0.1');
      let received = '';
      let start = 0;
      let timer: NodeJS.Timeout | undefined;
      const guard = setTimeout(() => {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`still open after ${maxMs} ms`));
      }, maxMs);
      socket.on('connect', () => {
        start = performance.now();
        socket.write(head);
        let i = 0;
        timer = setInterval(() => {
          if (i < body.length && !socket.destroyed) socket.write(body[i++]!);
        }, 200);
      });
      socket.on('data', (chunk) => (received += String(chunk)));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(guard);
        clearInterval(timer);
        resolve({ ms: performance.now() - start, received });
      });
    });
  }

  it('a body trickled byte by byte is answered 408 once requestTimeoutMs has passed, as headers trickled are', async () => {
    const { secretKey } = await slow.open();
    const body = JSON.stringify({ locations: [{ lat: 51.5, lon: -0.12 }], mode: { mode: 'POINT', maxDistance: 500 } }).repeat(4);
    const head = `POST /v1/search/ HTTP/1.1\r\nHost: x\r\nAPI-Key: ${secretKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { ms, received } = await trickle(head, body, 20_000);
    expect(received.startsWith('HTTP/1.1 408')).toBe(true);
    expect(received).toContain('"code":"request_timeout"');
    expect(ms).toBeGreaterThanOrEqual(REQUEST_MS - 50);
    // before the fix Node's 60 s headersTimeout held it
    expect(ms).toBeLessThan(REQUEST_MS + 5_000);
    const headers = await trickle('GET /v1/openapi.json HTTP/1.1\r\n', 'Host: x\r\nX-Slow: 1234567890123456789012345678901234567890\r\n\r\n', 20_000);
    expect(headers.received.startsWith('HTTP/1.1 408')).toBe(true);
    expect(headers.ms).toBeLessThan(REQUEST_MS + 5_000);
  }, 30_000);
});

