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

/** Starts tracking `server`'s connections; returns the function that destroys those that have not sent a request. */
export function trackUnusedConnections(server: Server): () => void {
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  server.prependListener('request', (request: IncomingMessage) => {
    unused.delete(request.socket);
  });
  return () => {
    for (const socket of unused) socket.destroy();
    unused.clear();
  };
}
