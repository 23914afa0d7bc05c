/**
 * Connections that never carried a request, closed when the service closes so that closing
 * does not wait for them. Node's server.close() (and fastify's default `forceCloseConnections:
 * 'idle'`) ends keep-alive connections idle between requests, but not one that connected and
 * never sent a request (a browser's preconnect, a load balancer's TCP check): the close then
 * waited for the connection timeout, 30 s, at each SIGTERM (audit 69a: one such socket held
 * `serve`'s exit 30.2 s). Connections that carried a request are left to Node: one in flight
 * finishes, an idle kept-alive one is closed by server.close() (and until then a request on it
 * gets the closing service's 503 envelope), one still sending an answer once it has been sent
 * (connection-draining.ts).
 */
import type { Server, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** A server's open connections, and the closing of those that never sent a request. */
export interface TrackedConnections {
  /** Every connection not closed yet (connection-draining.ts reads them at a close). */
  readonly open: ReadonlySet<Socket>;
  /** Destroys the connections that have not sent a request. */
  closeUnused(): void;
}

/** Starts tracking `server`'s connections (one listener per connection and per request). */
export function trackConnections(server: Server): TrackedConnections {
  const open = new Set<Socket>();
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    unused.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      unused.delete(socket);
    });
  });
  server.prependListener('request', (request: IncomingMessage) => {
    unused.delete(request.socket);
  });
  return {
    open,
    closeUnused: () => {
      for (const socket of unused) socket.destroy();
      unused.clear();
    },
  };
}
