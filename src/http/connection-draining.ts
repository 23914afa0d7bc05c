/**
 * Closing the service ends a connection only once the answer it is sending has left the
 * process. Node 20's server.close() (and fastify's close) calls closeIdleConnections(), which
 * destroys every connection between requests whose current answer has been ended, even while
 * that answer's bytes still wait in the socket's user-space buffer because the client reads
 * slowly and the kernel's send buffer is full: destroying it discarded them (audit 70d F2: a
 * pipelining client that read late got 48 answers, was charged 49, `serve` exited 0 with
 * nothing logged). Here closeIdleConnections spares a connection that still holds bytes to
 * send (socket.writableLength > 0) and is run again, every POLL_MS while some are spared,
 * until each has flushed and is closed by Node's rule like any other: an answer in flight
 * behind it is answered (with `Connection: close`), an idle one is closed. Only a close pays
 * for this: the poll runs while a close waits for spared connections, nothing per request.
 * The wait is bounded by the connection timeout (a client that stopped reading: its socket
 * times out, the answers not sent logged by charged-delivery.ts) and by `serve`'s drain limit.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often a close looks again at the connections it spared, ms. */
const POLL_MS = 50;

/** Makes `server`'s closeIdleConnections() spare connections still sending, and close them once sent. */
export function drainConnectionsOnClose(server: Server): void {
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const closeIdle = server.closeIdleConnections.bind(server);
  let poll: NodeJS.Timeout | undefined;
  server.closeIdleConnections = function closeIdleConnectionsOnceSent(): void {
    const sending = [...connections].filter((socket) => !socket.destroyed && socket.writableLength > 0);
    // Node's rule decides which connections are idle; its destroy() of a sending one is
    // skipped, for this one call only (an own property shadowing the prototype's method)
    const spare = function (this: Socket): Socket {
      return this;
    };
    for (const socket of sending) socket.destroy = spare;
    try {
      closeIdle();
    } finally {
      for (const socket of sending) delete (socket as Partial<Pick<Socket, 'destroy'>>).destroy;
    }
    if (sending.length > 0 && poll === undefined) {
      poll = setInterval(() => server.closeIdleConnections(), POLL_MS);
      poll.unref();
    } else if (sending.length === 0 && poll !== undefined) {
      clearInterval(poll);
      poll = undefined;
    }
  };
}
