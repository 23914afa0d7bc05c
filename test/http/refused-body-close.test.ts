/**
 * Audit 69b F2: a request refused before its body is read (401 without or with an unknown
 * key, 403 origin_not_allowed, 401 on an admin route without the operator token) was answered
 * with `Connection: keep-alive`, and Node then read and discarded the whole body, however
 * large (30 MB with a Content-Length, 7.6 GB chunked on one connection). Now such an answer
 * closes the connection once sent, so the rest of the body is not read; a refused request
 * without a body keeps its connection.
 * Oracle: a real socket that sends the headers of a 100 MB body, reads the answer, then keeps
 * writing: the server's close (the socket's `close`) must come before the client has written
 * CAP bytes (the old server read all it was sent, so the client reached CAP with the
 * connection still open), and the answer says `Connection: close`.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { FIXTURES_PATH } from '../search/support.js';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { expectEnvelope, parseResponse, rawExchange, type RawResponse } from './support/raw-http.js';

const TOKEN = 'operator-token-0123456789abcdef';
/** The declared body: far above every body limit (64 KiB, 32 MiB). */
const DECLARED = 100 * 1024 * 1024;
/**
 * What the client may write after the answer before the close must have come: above what the
 * loopback's socket buffers can hold on both sides (a few MB), far below DECLARED.
 */
const CAP = 24 * 1024 * 1024;
const BLOCK = Buffer.alloc(64 * 1024, '{');

const tmp = mkdtempSync(join(tmpdir(), 'refused-body-close-'));
let h: Harness;
let live: LiveVenues;
let port: number;
beforeAll(async () => {
  live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: join(tmp, 'live'), compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
  h = await createHarness({ extra: { admin: { live, token: TOKEN } } });
  port = await listenOnLoopback(h);
});
afterAll(async () => {
  await h.close();
  await live.close();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * Sends `head` (a request's headers, announcing a body), reads the answer, then writes body
 * bytes (`frame` makes each block's wire form) until the server closes the connection or
 * CAP bytes are written after the answer. The answer, whether it was closed, and the bytes written.
 */
async function refusedUpload(head: string, frame: (block: Buffer) => Buffer = (b) => b): Promise<{ answer: RawResponse; closed: boolean; written: number }> {
  const socket: Socket = connect(port, '127.0.0.1');
  let closed = false;
  const closing = new Promise<void>((resolve) => {
    // a write after the server's close fails (EPIPE, ECONNRESET): that is the close
    socket.on('error', () => undefined);
    socket.once('close', () => {
      closed = true;
      resolve();
    });
  });
  await once(socket, 'connect');
  let text = '';
  const answered = new Promise<RawResponse>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const parsed = parseResponse(text);
      if (parsed !== undefined) resolve(parsed);
    });
  });
  socket.write(head);
  const answer = await answered;
  let written = 0;
  const block = frame(BLOCK);
  while (!closed && written < CAP) {
    written += block.length;
    if (!socket.write(block)) await Promise.race([once(socket, 'drain').catch(() => undefined), closing]);
  }
  socket.destroy();
  return { answer, closed, written };
}

const chunk = (block: Buffer): Buffer => Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from('\r\n')]);
const searchHead = (headers: string, framing = `Content-Length: ${DECLARED}`) =>
  `POST /v1/search/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}${framing}\r\n\r\n`;

describe('a request refused before its body is read closes the connection (audit 69b F2)', () => {
  it('401 without a key, Content-Length 100 MB: Connection: close, and the server closes before the client could write CAP bytes', async () => {
    const { answer, closed, written } = await refusedUpload(searchHead(''));
    expectEnvelope(answer, 401, 'missing_api_key');
    expect(answer.headers['connection']).toBe('close');
    expect({ closed, underCap: written < CAP }).toEqual({ closed: true, underCap: true });
  }, 60_000);

  it('401 without a key, chunked: closed, not drained until the request timeout', async () => {
    const { answer, closed, written } = await refusedUpload(searchHead('', 'Transfer-Encoding: chunked'), chunk);
    expectEnvelope(answer, 401, 'missing_api_key');
    expect({ closed, underCap: written < CAP }).toEqual({ closed: true, underCap: true });
  }, 60_000);

  it('401 for an unknown sk_ key and 403 origin_not_allowed: closed as well', async () => {
    const unknown = await refusedUpload(searchHead(`API-Key: sk_${'0'.repeat(40)}\r\n`));
    expect(unknown.answer.status).toBe(401);
    expect({ closed: unknown.closed, underCap: unknown.written < CAP }).toEqual({ closed: true, underCap: true });
    const acct = await h.open();
    await h.store.setAllowedOrigins(acct.accountId, ['https://shop.example']);
    const foreign = await refusedUpload(searchHead(`API-Key: ${acct.publicKey}\r\nOrigin: https://evil.example\r\n`));
    expectEnvelope(foreign.answer, 403, 'origin_not_allowed');
    expect({ closed: foreign.closed, underCap: foreign.written < CAP }).toEqual({ closed: true, underCap: true });
  }, 60_000);

  it('401 on PUT /admin/venues without the operator token: closed, nothing stored', async () => {
    const { answer, closed, written } = await refusedUpload(`PUT /admin/venues HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${DECLARED}\r\n\r\n`);
    expectEnvelope(answer, 401, 'missing_admin_token');
    expect({ closed, underCap: written < CAP }).toEqual({ closed: true, underCap: true });
    expect(live.engine.pendingChanges).toBe(0);
  }, 60_000);

  it('a 401 to a request without a body keeps the connection: a second request on it is answered', async () => {
    const socket = connect(port, '127.0.0.1');
    try {
      const refused = await rawExchange(port, 'GET /v1/find?q=nando HTTP/1.1\r\nHost: x\r\n\r\n', socket);
      expectEnvelope(refused, 401, 'missing_api_key');
      expect(refused.headers['connection']).toBe('keep-alive');
      const acct = await h.open();
      const served = await rawExchange(port, `GET /v1/find?q=nando HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n`, socket);
      expect(served.status).toBe(200);
    } finally {
      socket.destroy();
    }
  });

  it('a served request with a body keeps its connection too (the body was read)', async () => {
    const acct = await h.open();
    const body = JSON.stringify({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    const socket = connect(port, '127.0.0.1');
    try {
      const request = `POST /v1/search/?limit=1 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const first = await rawExchange(port, request, socket);
      expect(first.status).toBe(200);
      expect(first.headers['connection']).toBe('keep-alive');
      expect((await rawExchange(port, request, socket)).status).toBe(200);
    } finally {
      socket.destroy();
    }
  });

  it('a refusal of a body within the route\'s limit keeps the connection, however the body arrives (audit 69h F1): a second request on it is answered', async () => {
    const body = JSON.stringify({ locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 }, pad: 'x'.repeat(20_000) });
    const head = searchHead('', `Content-Length: ${Buffer.byteLength(body)}`);
    const acct = await h.open();
    // the body in the headers' packet, and the body a moment after them
    for (const split of [false, true]) {
      const socket = connect(port, '127.0.0.1');
      try {
        await once(socket, 'connect');
        let refused: RawResponse;
        if (split) {
          const answer = rawExchange(port, head, socket);
          await new Promise((r) => setTimeout(r, 100));
          socket.write(body);
          refused = await answer;
        } else refused = await rawExchange(port, head + body, socket);
        expectEnvelope(refused, 401, 'missing_api_key');
        expect([split, refused.headers['connection']]).toEqual([split, 'keep-alive']);
        const served = await rawExchange(port, `GET /v1/find?q=nando HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n`, socket);
        expect(served.status).toBe(200);
      } finally {
        socket.destroy();
      }
    }
  });

  it('PUT /admin/venues with a wrong token and a 5 MB body (within its 32 MB limit) from Node\'s fetch: the client gets the 401, not a broken pipe (audit 69h F2)', async () => {
    const line = `${JSON.stringify({ id: 'x', name: 'y', location: { type: 'Point', coordinates: [-0.1, 51.5] } })}\n`;
    const body = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
    const res = await fetch(`http://127.0.0.1:${port}/admin/venues`, { method: 'PUT', headers: { authorization: 'Bearer wrong-token-0123456789', 'content-type': 'application/x-ndjson' }, body });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_admin_token');
    expect(live.engine.pendingChanges).toBe(0);
  }, 60_000);
});

