/**
 * A billable route's answer: check, serve, wait for the answer's turn on its connection
 * (pipelined requests), charge (chargedAnswer in src/accounts/charged-answer.ts), then send
 * the body only when the charge committed, else 402; a charge that committed after the
 * client's connection closed is refunded, nothing written. The route handler resolves with
 * nothing: the reply has been sent here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { refundRowId, type AccountsStore } from '../accounts/accounts-store.js';
import { chargedAnswer } from '../accounts/charged-answer.js';
import { followChargedAnswer } from './charged-delivery.js';
import type { BillableKind } from '../accounts/plans.js';
import { principalOf } from './guard.js';
import { ACCOUNTS_RETRY_AFTER_SECONDS, HttpError } from './http-errors.js';

export async function serveCharged(
  accounts: AccountsStore,
  clock: () => number,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: BillableKind,
  costMicros: number,
  produce: () => unknown | Promise<unknown>,
): Promise<void> {
  const { accountId } = principalOf(request);
  // encoded before the charge: the bytes wait for the group commit off the JS heap (one
  // buffer) instead of as a string the garbage collector would copy meanwhile
  const encode = async () => {
    const serialized = reply.serialize(await produce());
    return typeof serialized === 'string' ? Buffer.from(serialized, 'utf8') : serialized;
  };
  const connectionTimeoutMs = request.server.initialConfig.connectionTimeout;
  const deadlineMs = chargeDeadlineMs(connectionTimeoutMs);
  // a pipelined answer is charged only once it holds the connection: until then the answers
  // ahead of it may never leave (a client that resets), and it with them (audit 69b F1). Its
  // wait kept the connection busy, not idle: the deadline counts from the wait's end.
  const turn = async (): Promise<number | undefined> => ((await answerTurn(request, reply)) ? chargeDeadlineMs(connectionTimeoutMs) : undefined);
  const result = await chargedAnswer(
    accounts,
    { accountId, requestId: request.id, kind, costMicros, ...(deadlineMs === undefined ? {} : { deadlineMs }) },
    clock,
    encode,
    () => clientStillThere(request),
    turn,
  );
  if (!result.served) {
    if (result.reason === 'client_gone') {
      // nobody to send it to: not charged, and said in the log (the envelope goes nowhere)
      request.log.info({ code: 'client_gone' }, 'the client closed the connection before the answer: not charged, not answered');
      reply.hijack();
      reply.raw.destroy();
      return;
    }
    if (result.reason === 'too_late') {
      // the connection is most likely closed by now: for the log, and a client still there
      throw new HttpError('service_unavailable', 'the accounts database took too long to charge this request, so it was not charged and not answered; retry it', undefined, {
        'retry-after': String(ACCOUNTS_RETRY_AFTER_SECONDS),
      });
    }
    throw new HttpError('insufficient_balance', `this request costs ${result.costMicros} micro-GBP but the balance is ${result.balanceMicros} micro-GBP; top up the account`);
  }
  // one turn of the event loop first, as before the charge: a reset or FIN that reached the
  // kernel during the commit is read in this turn's I/O, which may run after the commit's own
  // message (audit 72a F1: a reset client was then written to, the write failed, no refund)
  await new Promise(setImmediate);
  if (!clientStillThere(request)) {
    // charged, and the client left after the last check (during the last wait for the lock or
    // the commit): no byte of the answer can be written, so the charge is given back
    reply.hijack();
    reply.raw.destroy();
    await refundUnwritten(accounts, clock, request, accountId);
    return;
  }
  // from here until its bytes have left the process (or its connection closed: logged there)
  followChargedAnswer(request, reply.raw);
  reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(result.answer);
}

/**
 * Refunds the charge of an answer none of which was written (its connection closed during
 * the charge's commit), and logs it: at info level (`code: refunded_client_gone`) once the
 * refund committed; at error level (`code: charged_client_gone`, the record to refund from by
 * hand) if the database failed to refund it. Never throws: the request has no answer to carry
 * an error.
 */
async function refundUnwritten(accounts: AccountsStore, clock: () => number, request: FastifyRequest, accountId: string): Promise<void> {
  const id = request.id;
  try {
    const refund = await accounts.refund({ accountId, requestId: id, nowMs: clock() });
    if (refund.refunded) {
      request.log.info(
        { code: 'refunded_client_gone', requestId: id, refundedMicros: refund.amountMicros },
        `request ${id} was charged but the client closed the connection before the answer: not answered, the charge refunded (ledger row ${refundRowId(id)})`,
      );
    } else {
      // not expected (the charge just committed, and only this request refunds it): said as it is
      request.log.warn({ code: 'refund_refused', requestId: id, reason: refund.reason }, `request ${id} was charged but not answered, and its refund found ${refund.reason.replace('_', ' ')}`);
    }
  } catch (err) {
    request.log.error(
      { code: 'charged_client_gone', requestId: id, err },
      `request ${id} was charged but the client closed the connection before the answer, and the refund failed: charged, not answered; refund it by hand unless the ledger holds ${refundRowId(id)}`,
    );
  }
}

/**
 * Whether the request's connection can still carry its answer. A client that closed its side
 * (a FIN: Node then aborts the connection's requests and ends the socket, as nginx and Apache
 * read a FIN during a request) or reset it cannot. light-my-request's sockets (app.inject) have
 * neither flag: there.
 */
function clientStillThere(request: FastifyRequest): boolean {
  const socket = request.raw.socket as { readonly destroyed?: boolean; readonly writable?: boolean } | null;
  // the socket, not the request: a request whose body has been read is destroyed by Node (autoDestroy) while its client waits
  return !(socket !== null && (socket.destroyed === true || socket.writable === false));
}

/**
 * Resolves once the reply's response holds its connection, or once the connection has closed;
 * with whether it had to wait. Node runs the handlers of requests pipelined on one connection
 * at once but writes their answers one at a time, in order: a response queued behind an
 * answer still being written has no socket (`response.socket === null`) until Node assigns it
 * the connection (its `socket` event), and gets no event of its own if the connection closes
 * first (the socket's `close` is the one). Node assigns it at the `finish` of the answer ahead,
 * once that answer's last write has completed: handed to the kernel, not known to be read, so
 * a client is charged for what the buffers took (docs/http.md). The wait is bounded by the connection: it lasts
 * while earlier answers are written, and the idle timeout closes a connection whose client
 * stopped reading. light-my-request's responses (app.inject) hold a socket from the start.
 */
function answerTurn(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const response = reply.raw;
  const socket = request.raw.socket as Socket | null;
  if (response.socket !== null || socket === null || socket.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('socket', done);
      untilClosed(socket).delete(done);
      resolve(true);
    };
    response.once('socket', done);
    untilClosed(socket).add(done);
  });
}

/** Per connection, the answers waiting for their turn: one `close` listener for them all (a pipeline may queue dozens). */
const waitingOn = new WeakMap<Socket, Set<() => void>>();

function untilClosed(socket: Socket): Set<() => void> {
  let waiting = waitingOn.get(socket);
  if (waiting === undefined) {
    const set = new Set<() => void>();
    waiting = set;
    waitingOn.set(socket, set);
    socket.once('close', () => {
      for (const done of [...set]) done();
    });
  }
  return waiting;
}

/** Time kept, ms, between a charge's deadline and the connection's idle timeout: for the commit and the send. */
const CHARGE_DEADLINE_MARGIN_MS = 2000;

/**
 * The last instant (Date.now() ms) a request's charge may be made: a socket silent for
 * `connectionTimeoutMs` (counted from the request's last bytes, just before this) is closed,
 * and a charge after that would be for an answer never delivered (audit 61c: a row lock held
 * 35 s, or a pooler queueing while its server was down, charged after the client got nothing).
 * Undefined when connections have no timeout (0).
 */
function chargeDeadlineMs(connectionTimeoutMs: number | undefined): number | undefined {
  if (connectionTimeoutMs === undefined || !(connectionTimeoutMs > 0)) return undefined;
  return Date.now() + Math.max(connectionTimeoutMs - CHARGE_DEADLINE_MARGIN_MS, connectionTimeoutMs / 2);
}
