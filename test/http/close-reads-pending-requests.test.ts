/**
 * Audit 74d F2: a request whose bytes had reached the machine, but not yet been read because
 * the event loop was busy, was reset by the close: its connection looked as if it had sent
 * nothing (the closing of unused connections, close-unused-connections.test.ts). The client
 * could not tell it from a charge whose answer was lost. Now the close reads such requests
 * first and answers each with the closing service's 503 envelope. The oracle: the raw bytes
 * each client gets back, and the ledger's own rows (no charge).
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHarness, listenOnLoopback } from './support/harness.js';
import { expectEnvelope, rawExchange } from './support/raw-http.js';

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

describe('closing the service answers requests sent before the close but not yet read (audit 74d F2)', () => {
  it('eight requests written in the same turn as app.close() each get the 503 envelope, none a reset, and nothing is charged', async () => {
    const h = await createHarness();
    const port = await listenOnLoopback(h);
    const acct = await h.open();
    const ledgerBefore = await h.ledger(acct.accountId);
    const sockets = await Promise.all(Array.from({ length: 8 }, () => opened(port)));
    // the server accepts them in its own poll phases (same process): let it
    await new Promise((r) => setTimeout(r, 100));
    // written, then the close begins in this same turn: the server has not read one byte of them
    const answers = sockets.map((socket, k) =>
      rawExchange(port, k % 2 === 0 ? `GET /v1/find?q=nando HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n` : 'GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n', socket).then(
        (res) => res,
        (err: Error) => err,
      ),
    );
    const closing = h.app.close();
    const outcomes = await Promise.all(answers);
    await closing;
    for (const res of outcomes) {
      if (res instanceof Error) throw new Error(`a request sent before the close got no answer: ${res.message}`);
      expectEnvelope(res, 503, 'service_unavailable');
      expect(res.headers['connection']).toBe('close');
    }
    expect(JSON.parse((outcomes[0] as { body: string }).body)).toMatchObject({ message: 'the service is shutting down; retry the request (it was not charged)' });
    expect(await h.ledger(acct.accountId)).toEqual(ledgerBefore);
    for (const socket of sockets) socket.destroy();
    await h.close();
  });
});
