/**
 * The answer to a request Node's HTTP parser refuses before fastify sees a request: headers
 * (the request line included) over Node's 16 KiB limit, a malformed request, a request not
 * received within `requestTimeout`. Node emits `clientError` with the socket; this writes our
 * envelope on it (instead of fastify's `{"error", "message", "statusCode"}` body) and closes
 * it, as Node's own handler does. A reset or already-closed socket gets nothing.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
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

/** A fastify `clientErrorHandler`: the envelope, then the socket is closed. */
export function clientErrorResponse(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const response = toErrorResponse(errorFor(err.code));
  const body = JSON.stringify(response.body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        // every response carries a Request-Id (docs/http.md); there is no request to log it with
        `Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
