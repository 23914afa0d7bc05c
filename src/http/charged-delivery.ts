/**
 * Charged answers until their bytes have left the process. A charged answer is "delivered"
 * as far as the service can know once Node has handed its last byte to the kernel (the
 * response's `finish`: the socket's write callback); what the kernel's buffers then deliver
 * no server can see. One whose connection closes before that (a client that reset, a
 * connection timeout, a stop that had to give up) was charged and not delivered: logged at
 * warn level with `code: charged_client_gone` naming its Request-Id (audit 70d F2: such an
 * answer was lost at a SIGTERM with nothing logged). Cost: two listeners per charged answer.
 */
import type { Server, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';

/** Per server, the Request-Ids of charged answers whose bytes are still in the process. */
const unsentByServer = new WeakMap<Server, Set<string>>();

/** Follows `response`, the charged answer to `request`, until its bytes have left the process or its connection closed. */
export function followChargedAnswer(request: FastifyRequest, response: ServerResponse): void {
  const server = request.server.server;
  let unsent = unsentByServer.get(server);
  if (unsent === undefined) {
    unsent = new Set();
    unsentByServer.set(server, unsent);
  }
  const ids = unsent;
  const id = request.id;
  ids.add(id);
  const socket = request.raw.socket as { readonly errored?: Error | null; readonly destroyed: boolean } | null;
  let sent = false;
  response.once('finish', () => {
    // 'finish' also follows a last write that failed (the connection reset while the bytes
    // waited: the socket has errored by then, its write callback runs after the error is set)
    // or was dropped (the connection destroyed, by a stop giving up on a client that does not
    // read: destroyed, with no error)
    sent = socket === null || !(socket.destroyed || (socket.errored ?? null) !== null);
    ids.delete(id);
  });
  // 'close' follows 'finish' when the answer left; alone, when the connection closed first
  response.once('close', () => {
    ids.delete(id);
    if (!sent) request.log.warn({ code: 'charged_client_gone', requestId: id }, `request ${id} was charged but its connection closed before the answer left the service: charged, not delivered`);
  });
}

/** The Request-Ids of `server`'s charged answers whose bytes have not all left the process yet. */
export function chargedAnswersNotSent(server: Server): string[] {
  return [...(unsentByServer.get(server) ?? [])];
}
