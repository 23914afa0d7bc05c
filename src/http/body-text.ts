import { isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { HttpError } from './http-errors.js';
import { duplicateKeyPlace } from './duplicate-keys.js';

/** Whether a request carries a body (a length above 0, or chunks), as HTTP/1.1 frames one. */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

/**
 * Whether an answer sent while `request`'s body may still be arriving must close the
 * connection, so that no more of the body is read. Such an answer was decided without the
 * body (a 401, 403, 429, 404, 405, 413, 415: every refusal made from the headers); to keep the
 * connection, Node reads and discards the rest of the body after it. That is kept for a body
 * whose Content-Length is within the route's limit (`limitBytes`: what the route would have
 * read anyway; the client then reads the refusal and keeps its connection), and not for one
 * declared over it or sent in chunks of no stated length: read until it ends, one chunked
 * body was 7.6 GB over 44 s (audit 69b F2). A client still writing a body when the connection
 * closes may see the close (EPIPE) before the refusal, as after fastify's own 413 (audit 69h
 * F2: Node's fetch with 5 MB). Until 2026-11-30 evening every refusal with a body not yet
 * all received closed the connection, so a refused POST whose small body came in the same
 * packet as its headers could lose its keep-alive (audit 69h F1).
 */
export function refusalClosesConnection(request: IncomingMessage, limitBytes: number): boolean {
  // `complete` is Node's; an injected request (fastify's inject, the payload all in memory)
  // has none, and nothing to drain
  if (!hasBody(request.headers) || (request as { complete?: boolean }).complete !== false) return false;
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const declared = Number(request.headers['content-length']);
  return !(declared <= limitBytes);
}

/**
 * Request bodies are text in UTF-8, the one encoding JSON has between systems (RFC 8259 8.1).
 * A body that says it is in another charset, or whose bytes are not UTF-8, is refused: decoded
 * as UTF-8 regardless, a name in Latin-1 ("Café") would be searched, or stored by the admin
 * routes, with U+FFFD in place of its letters.
 */

/** Charset parameters meaning UTF-8 (US-ASCII is a subset of it), lower-cased. */
const UTF8_CHARSETS: readonly string[] = ['utf-8', 'utf8', 'us-ascii'];

/**
 * The `charset` parameters of a Content-Type header, lower-cased and unquoted (RFC 9110
 * 5.6.6: `type/subtype *( OWS ";" OWS name "=" ( token / quoted-string ) )`): read parameter
 * by parameter, so that a `;charset=` inside another parameter's quoted value is not one.
 */
function charsetsOf(contentType: string): string[] {
  const charsets: string[] = [];
  let at = contentType.indexOf(';');
  while (at >= 0 && at < contentType.length) {
    const eq = contentType.indexOf('=', at + 1);
    if (eq < 0) break;
    // the name after the last `;` before the `=`: empty parameters (`;;`) and ones without a value come before it
    const segment = contentType.slice(at + 1, eq);
    const name = segment.slice(segment.lastIndexOf(';') + 1).trim().toLowerCase();
    let value = '';
    let end = eq + 1;
    while (end < contentType.length && (contentType[end] === ' ' || contentType[end] === '\t')) end++;
    if (contentType[end] === '"') {
      // a quoted string: up to the closing quote, `\x` standing for x
      for (end++; end < contentType.length && contentType[end] !== '"'; end++) value += contentType[end] === '\\' ? (contentType[++end] ?? '') : contentType[end];
      end = contentType.indexOf(';', end);
    } else {
      const next = contentType.indexOf(';', end);
      value = contentType.slice(end, next < 0 ? undefined : next).trim();
      end = next;
    }
    if (name === 'charset') charsets.push(value.toLowerCase());
    at = end;
  }
  return charsets;
}

/** A 415 when the Content-Type names a charset other than UTF-8, in any of its charset parameters (checked before the body is read). */
export function checkBodyCharset(contentType: string | undefined): void {
  if (contentType === undefined) return;
  if (charsetsOf(contentType).some((charset) => !UTF8_CHARSETS.includes(charset))) {
    throw new HttpError('unsupported_media_type', `send the body in UTF-8; got Content-Type ${JSON.stringify(contentType)}`);
  }
}

/** The body's bytes as text; a 400 `invalid_json` when they are not UTF-8. */
export function bodyText(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new HttpError('invalid_json', 'the body is not valid UTF-8: send JSON text in UTF-8');
  return bytes.toString('utf8');
}

/**
 * A JSON body parsed (a leading byte order mark is skipped). Refused with 400 `invalid_json`,
 * saying why, when it is empty, not UTF-8 or not JSON (V8's message, with the position). Valid
 * JSON holding a `__proto__` key or a `constructor` object with a `prototype` key (prototype
 * pollution, secure-json-parse's rule) is refused with 400 `invalid_request` naming the key's
 * place, as an unknown field is: no request field has either name. So is an object holding
 * one key twice (duplicate-keys.ts).
 */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) throw new HttpError('invalid_json', 'the body is empty: send a JSON object');
  const text = bodyText(bytes);
  let parsed: unknown;
  try {
    parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (why.startsWith('Object contains forbidden prototype property')) {
      // The error path only: JSON.parse keeps such keys as plain own properties, so the first
      // one can be found and named.
      // a place nested thousands deep is named by its start and end (audit 71e F1: a 60 KB
      // body of 30,000 nested arrays was echoed twice, a 120 KB answer)
      const param = shortenedParam(forbiddenKeyParam(JSON.parse(text) as unknown) ?? '');
      throw new HttpError(
        'invalid_request',
        `${param} is not a known parameter: a "__proto__" key, or a "constructor" object with a "prototype" key, is refused (prototype pollution)`,
        param,
      );
    }
    throw new HttpError('invalid_json', `the body is not valid JSON: ${why}`);
  }
  const repeated = duplicateKeyPlace(text);
  if (repeated !== undefined) {
    const param = shortenedParam(repeated);
    throw new HttpError('invalid_request', `${param} is given more than once in the body: give each field once (JSON parsers differ on which value a repeated key keeps)`, param);
  }
  return parsed;
}

/** Longest place a refusal names whole (characters); a longer one keeps its start and end around "...". */
const MAX_PARAM_CHARS = 200;

/** `param`, or its first and last MAX_PARAM_CHARS / 2 characters around "..." when longer. */
function shortenedParam(param: string): string {
  if (param.length <= MAX_PARAM_CHARS) return param;
  const half = MAX_PARAM_CHARS / 2;
  return `${param.slice(0, half)}...${param.slice(-half)}`;
}

/**
 * The dotted place (`locations.0.__proto__`, as schema errors name fields) of a `__proto__`
 * key, or of a `constructor` key holding an object with an own `prototype` key, in a value
 * from JSON.parse (the shallowest such key); undefined when there is none. Walked with a
 * stack of its own: a body may nest deeper than the call stack.
 */
export function forbiddenKeyParam(value: unknown): string | undefined {
  const pending: Array<{ value: unknown; param: string }> = [{ value, param: '' }];
  while (pending.length > 0) {
    const { value: node, param } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const keys = Object.keys(node);
    const children: Array<{ value: unknown; param: string }> = [];
    for (const key of keys) {
      const child = (node as Record<string, unknown>)[key];
      const place = param === '' ? key : `${param}.${key}`;
      if (key === '__proto__') return place;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return place;
      children.push({ value: child, param: place });
    }
    // An object's own keys are checked before its children's, so the shallowest is named.
    for (let k = children.length - 1; k >= 0; k--) pending.push(children[k]!);
  }
  return undefined;
}
