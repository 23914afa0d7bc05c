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
 * A spared connection none of whose bytes leave the process for the server's connection
 * timeout (`server.timeout`, buildApp's connectionTimeoutMs, 30 s by default: the time a
 * connection may stay silent) is spared no longer: it is closed like any idle one, and its
 * charged answer not sent is logged by charged-delivery.ts (`charged_client_gone`), as for a
 * client that reset. Else a client that stopped reading held every stop for `serve`'s 40 s
 * drain limit, which then exits 1 (its keep-alive timeout, 72 s, is longer). Not a shorter
 * bound: a client that reads slowly but steadily sends no byte out of the process for
 * seconds at a time, as the kernel lets the process write again only once a large part of
 * its send buffer (up to 4 MB) has drained (audit 70f F2: at a 5 s bound, readers of
 * 100 KB/s were cut, and of 200 KB/s not).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often a close looks again at the connections it spared, ms. */
const POLL_MS = 50;
/** The connection timeout of a server whose own is 0 (none), ms: buildApp's default. */
const DEFAULT_STALL_MS = 30_000;

/** A spared connection's progress: bytes handed to the kernel (socket.bytesWritten counts those still buffered too), and when they last grew (ms, performance.now()). */
interface Progress {
  dispatched: number;
  since: number;
}

/** Whether `socket` still holds bytes to send and has sent some within `stallMs` (its `progress` updated). */
function stillSending(socket: Socket, progress: WeakMap<Socket, Progress>, now: number, stallMs: number): boolean {
  if (socket.destroyed || socket.writableLength === 0) return false;
  const dispatched = socket.bytesWritten - socket.writableLength;
  const seen = progress.get(socket);
  if (seen === undefined || dispatched > seen.dispatched) {
    progress.set(socket, { dispatched, since: now });
    return true;
  }
  return now - seen.since < stallMs;
}

/** Makes `server`'s closeIdleConnections() spare connections still sending, and close them once sent; `connections`: its open ones (unused-connections.ts). */
export function drainConnectionsOnClose(server: Server, connections: ReadonlySet<Socket>): void {
  const closeIdle = server.closeIdleConnections.bind(server);
  const progress = new WeakMap<Socket, Progress>();
  let poll: NodeJS.Timeout | undefined;
  server.closeIdleConnections = function closeIdleConnectionsOnceSent(): void {
    const now = performance.now();
    const stallMs = server.timeout > 0 ? server.timeout : DEFAULT_STALL_MS;
    const sending = [...connections].filter((socket) => stillSending(socket, progress, now, stallMs));
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
