/**
 * Audit 69a: closing the service (SIGTERM) waited for a connection that never sent a request
 * (a browser's preconnect, a load balancer's TCP check) until the 30 s connection timeout:
 * Node's close ends keep-alive connections between requests, not those. Now such connections
 * are closed at once (and kept-alive ones by Node, as before). The oracle: the sockets' own close events, and app.close() resolving well
 * before the connection timeout (bounded here at 10 s, against 30 s before).
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHarness, listenOnLoopback } from './support/harness.js';
import { rawExchange } from './support/raw-http.js';

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
const closed = (socket: Socket): Promise<void> => new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('closing the service does not wait for connections without a request (audit 69a)', () => {
  it('a connection that never sent a request and one idle after its answer are closed at once; app.close() resolves long before the 30 s connection timeout', async () => {
    const h = await createHarness();
    const port = await listenOnLoopback(h);
    const silent = await opened(port);
    const keptAlive = await opened(port);
    const answer = await rawExchange(port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n', keptAlive);
    expect(answer.status).toBe(200);
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      h.app.close().then(() => 'closed'),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('still waiting after 10 s'), 10_000);
      }),
    ]);
    clearTimeout(timer);
    expect(outcome).toBe('closed');
    await Promise.all([closed(silent), closed(keptAlive)]);
    expect(Date.now() - started).toBeLessThan(10_000);
    silent.destroy();
    keptAlive.destroy();
    await h.close();
  });

  it('a request in flight on a kept-alive connection is answered, with Connection: close, and the close does not wait for that connection (audit 69h F4)', async () => {
    const h = await createHarness();
    const port = await listenOnLoopback(h);
    const acct = await h.open();
    // the charge waits 1 s: the request is in flight when the close starts
    const charge = h.accounts.charge.bind(h.accounts);
    h.accounts.charge = async (request, options) => {
      await new Promise((r) => setTimeout(r, 1000));
      return charge(request, options);
    };
    const socket = await opened(port);
    const answer = rawExchange(port, `GET /v1/find?q=nando HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\n\r\n`, socket);
    await new Promise((r) => setTimeout(r, 300));
    let timer: NodeJS.Timeout | undefined;
    const outcome = Promise.race([
      h.app.close().then(() => 'closed'),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('still waiting after 15 s'), 15_000);
      }),
    ]);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.headers['connection']).toBe('close');
    expect(await outcome).toBe('closed');
    clearTimeout(timer);
    await closed(socket);
    await h.close();
  });
});

