/**
 * Raw HTTP/1.1 over a socket, for tests of what the server writes on the wire (no client
 * library normalising it): send bytes, read one response or everything until the close.
 */
import { connect, type Socket } from 'node:net';
import { Value } from '@sinclair/typebox/value';
import { expect } from 'vitest';
import { ErrorEnvelopeSchema } from '../../../src/service/api-schemas.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the first HTTP/1.1 response in `text` (Content-Length framed). */
export function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = text.slice(end + 4);
  if (Buffer.byteLength(body) < length) return undefined;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: body.slice(0, length) };
}

/** Every whole HTTP/1.1 response in `text`, in order (Content-Length framed, counted in bytes). */
export function parseAll(text: string): RawResponse[] {
  const all: RawResponse[] = [];
  let rest = Buffer.from(text);
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(rest.subarray(0, end).toString('latin1'))?.[1];
    if (end < 0 || length === undefined || rest.length < end + 4 + Number(length)) return all;
    // parseResponse on this response alone (head, then its body), so that its body is whole
    all.push(parseResponse(rest.subarray(0, end + 4 + Number(length)).toString('utf8'))!);
    rest = rest.subarray(end + 4 + Number(length));
  }
}

/** Sends `request` on `socket` (a new connection to `port` unless given) and reads one response. */
export function rawExchange(port: number, request: string, socket?: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const s = socket ?? connect(port, '127.0.0.1');
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const parsed = parseResponse(text);
      if (parsed !== undefined) {
        s.off('data', onData);
        resolve(parsed);
      }
    };
    s.on('data', onData);
    s.once('error', reject);
    s.once('close', () => {
      const parsed = parseResponse(text);
      if (parsed === undefined) reject(new Error(`closed without a whole response: ${JSON.stringify(text.slice(0, 300))}`));
      else resolve(parsed);
    });
    s.write(request);
  });
}

/**
 * Sends `request` on a new connection to `port` and reads everything until the server closes
 * it; with `halfClose`, ends the client's side (a FIN) once the request is written.
 */
export function readUntilClosed(port: number, request: string, halfClose = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (chunk: Buffer) => chunks.push(chunk));
    s.once('error', reject);
    // decoded once: a character split between two chunks stays whole
    s.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    s.write(request, () => {
      if (halfClose) s.end();
    });
  });
}

export function expectEnvelope(res: RawResponse, status: number, code: string): void {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: 'application/json; charset=utf-8' });
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Value.Check(ErrorEnvelopeSchema, body)).toBe(true);
  expect(body['code']).toBe(code);
}
