/**
 * The answer to a request Node's HTTP parser refuses before fastify sees a request: headers
 * (the request line included) over Node's 16 KiB limit, a malformed request, a request not
 * received within `requestTimeout`. Node emits `clientError` with the socket; this writes our
 * envelope on it (instead of fastify's `{"error", "message", "statusCode"}` body) and closes
 * it, as Node's own handler does. A reset or already-closed socket gets nothing. Also the
 * other answers Node would write itself, outside the envelope: to a CONNECT, and to an
 * `Expect` header.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError, toErrorResponse } from './http-errors.js';

function errorFor(code: string | undefined): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError('headers_too_large', 'the request line and headers are over the 16 KiB limit; shorten the URL or the headers');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError('request_timeout', 'the request was not received in time');
    default:
      return new HttpError('malformed_request', 'the request is not well-formed HTTP/1.1');
  }
}

/** Writes `error`'s envelope as a whole HTTP/1.1 response on `socket` (then closed by the caller). */
function writeEnvelope(socket: Duplex, error: HttpError): void {
  const response = toErrorResponse(error);
  const body = JSON.stringify(response.body);
  if (!socket.writable) return;
  const extra = Object.entries(response.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}` +
      // every response carries a Request-Id (docs/http.md); there is no request to log it with
      `Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The responses Node has created on a connection and not yet closed, oldest first (see below). */
const kQueued = Symbol('venue-search.queuedResponses');
/** Set once a parser error on the connection is waiting for the answers ahead of it. */
const kErrorPending = Symbol('venue-search.errorPending');
type ClientSocket = Duplex & { [kQueued]?: ServerResponse[]; [kErrorPending]?: true };

/**
 * The server's `request`, `checkContinue` and `checkExpectation` listener (prepended, so it
 * sees every response Node creates): records `response` on its connection until it closes.
 * Node answers pipelined requests in order, one at a time: `socket._httpMessage` is only the
 * head of its queue, the rest wait in a list of its own we cannot read; this is that list.
 */
export function queueResponse(request: IncomingMessage, response: ServerResponse): void {
  const queue = ((request.socket as ClientSocket)[kQueued] ??= []);
  if (queue[queue.length - 1] === response) return; // continueResponse emits `request` again
  queue.push(response);
  response.once('close', () => {
    const at = queue.indexOf(response);
    if (at >= 0) queue.splice(at, 1);
  });
}

/**
 * A fastify `clientErrorHandler`: the envelope, then the socket is closed.
 *
 * Invariant: every request received whole before the bad one on this connection (pipelined)
 * is answered, in order, before the error, and only then is the socket closed: HTTP/1.1
 * answers in order, and its answer may already be charged (docs/http.md, Billing). So this
 * waits for the last such response Node has queued ({@link queueResponse}), not the first:
 * Node sends them one after the other, so when the last has gone, all have (waiting for the
 * head alone lost the third and later answers of a pipeline, charged: audit 60c, 61b N3).
 * Their engine calls and charges may still be running; the wait ends when the last answer is
 * written out, or when the socket closes first (a reset, a write error, Node's idle timeout
 * for a client that does not read). A request not received whole (a body that timed out, or
 * broke) is the one in error and gets the error, not a wait for its own answer.
 */
export function clientErrorResponse(err: NodeJS.ErrnoException, socket: Duplex): void {
  const client = socket as ClientSocket;
  // Node calls this again for the bytes that arrive after the error (the rest of a 20 KB
  // header): the first call's wait answers them all
  if (err.code === 'ECONNRESET' || socket.destroyed || client[kErrorPending]) return;
  const last = client[kQueued]?.findLast((response) => response.req.complete && !response.writableFinished);
  if (last === undefined) return closeWith(socket, err);
  client[kErrorPending] = true;
  // what follows the error is not read: not parsed again and again, and a FIN after it (a
  // client that half-closes) does not make Node end the socket before the answers are out
  socket.pause();
  const answered = (): void => {
    last.off('close', answered);
    socket.off('close', answered);
    closeWith(socket, err);
  };
  last.once('close', answered);
  socket.once('close', answered);
}

/** The envelope of the parser's error `err` written on `socket`, which is then closed. */
function closeWith(socket: Duplex, err: NodeJS.ErrnoException): void {
  if (socket.destroyed) return;
  writeEnvelope(socket, errorFor(err.code));
  socket.destroy(err);
}

/**
 * The server's `connect` listener: a CONNECT (a proxy tunnel request) is no request for a
 * path, so Node hands it to this event, and without a listener closed the socket with no
 * answer. It is a 405 in the envelope.
 */
export function connectResponse(_request: IncomingMessage, socket: Duplex): void {
  writeEnvelope(socket, new HttpError('method_not_allowed', 'CONNECT is not served: this service is not a proxy'));
  socket.end();
}

/**
 * The server's `checkContinue` listener. Node takes any `Expect` holding the word
 * `100-continue` for it (`100-continue-x`, `foo, 100-continue`: audit 60a); only the
 * expectation `100-continue` itself is met, anything else is the 417 of
 * {@link expectationResponse}.
 *
 * Invariant: `100 Continue` is sent when, and only when, the body is about to be read: on
 * the request stream's first `resume` (fastify's body parser attaching its `data` listener),
 * never after the final answer has begun. Every refusal the header section decides comes
 * before that read (RFC 9110 10.1.1: answer those at once, with their final status): 404/405
 * and the checks of the body's coding and charset (app.ts `preParsing`), the key, permission
 * and rate window (the guard's `onRequest`, 401/403/429; the operator token), a
 * Content-Length over the route's limit (413) and a media type without a parser (415, both
 * fastify's, before it reads). So a client waiting for the 100 (curl above 1 MiB, .NET, Java)
 * uploads nothing a refusal would discard (audit 63b F7). Node closes the connection after a
 * final answer sent without the 100 (the client may or may not send the body after it).
 */
export function continueResponse(this: Server, request: IncomingMessage, response: ServerResponse): void {
  if (String(request.headers.expect).trim().toLowerCase() !== '100-continue') return expectationResponse(request, response);
  // the resume of Node's dump of an unread body, once the answer is out, sends nothing
  request.once('resume', () => {
    if (!response.headersSent) response.writeContinue();
  });
  this.emit('request', request, response);
}

/**
 * The server's `checkExpectation` listener: an `Expect` header other than `100-continue`,
 * which Node answered with a bare 417 of its own. A 417 in the envelope.
 */
export function expectationResponse(request: IncomingMessage, response: ServerResponse): void {
  const failed = toErrorResponse(new HttpError('expectation_failed', `Expect ${JSON.stringify(String(request.headers.expect ?? '').slice(0, 100))} is not supported; only 100-continue is`));
  const body = JSON.stringify(failed.body);
  response.writeHead(failed.status, { ...failed.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'request-id': randomUUID(), connection: 'close' });
  response.end(body);
}
