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

/** A fastify `clientErrorHandler`: the envelope, then the socket is closed. */
export function clientErrorResponse(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // A request before the bad one on this connection (pipelined), received whole, may still be
  // answering; its answer goes first, as HTTP/1.1 answers in order, then the error. Closing at
  // once lost an answer the service had already charged for (audit 60c). `_httpMessage` is the
  // response Node has attached to the socket (the first of the queue), null when none is in
  // flight; a request not received whole (a body that timed out, or broke) is the one in error.
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (answering !== null && answering !== undefined && !answering.writableFinished && answering.req.complete) {
    answering.once('close', () => closeWith(socket, err));
    return;
  }
  closeWith(socket, err);
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
 * expectation `100-continue` itself is met (100 Continue, then the request is served, as
 * Node does), anything else is the 417 of {@link expectationResponse}.
 */
export function continueResponse(this: Server, request: IncomingMessage, response: ServerResponse): void {
  if (String(request.headers.expect).trim().toLowerCase() !== '100-continue') return expectationResponse(request, response);
  response.writeContinue();
  this.emit('request', request, response);
}

/**
 * The server's `checkExpectation` listener: an `Expect` header other than `100-continue`,
 * which Node answered with a bare 417 of its own. A 417 in the envelope.
 */
export function expectationResponse(request: IncomingMessage, response: ServerResponse): void {
  const failed = toErrorResponse(new HttpError('expectation_failed', `Expect ${JSON.stringify(String(request.headers.expect ?? '').slice(0, 100))} is not supported; only 100-continue is`));
  const body = JSON.stringify(failed.body);
  response.writeHead(failed.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'request-id': randomUUID(), connection: 'close' });
  response.end(body);
}
