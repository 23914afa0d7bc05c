/**
 * The response entries each route documents in openapi.json, beside its 200: one entry per
 * error status it can answer, each a `$ref` to the one `ErrorEnvelope` component (added to
 * the app with `addSchema`, so the serializer and the document share it), plus `4xx`/`5xx`
 * fallbacks; and the headers of each response.
 *
 * Headers, as the guard and the routes send them (guard.ts, billing.ts, app.ts):
 * - `Request-Id` on every response of a route;
 * - the rate-limit headers on every response the guard counted: always on a 200 and a 429
 *   (which adds `Retry-After`), on a later error (400, 402, 404, 413, 415) too unless it was
 *   refused before the guard ran (a bad URL), never on a 401 or a 403 (refused before counting);
 *   on a 5xx counted first (a 503 when the accounts database is out of reach at the charge, a
 *   500 after counting) too, so they are documented there, optional (audit 70a F4);
 * - `Cache-Control: no-store` on every 200 of the venue and balance routes, and on every error
 *   answer (http-errors.ts, ERROR_HEADERS).
 * fastify's swagger plugin wraps each header's schema itself (`{schema, description}`), so the
 * entries here are plain schemas with a description.
 */
import type { HttpErrorCode } from '../http/http-errors.js';
import { ERROR_ENVELOPE_REF } from './api-schemas.js';

/**
 * The `WWW-Authenticate` challenge of a 401 on the API's routes (RFC 9110: a 401 names how
 * to authenticate): the key, in the `API-Key` header. Sent by the guard (src/http/guard.ts).
 */
export const API_KEY_CHALLENGE = 'APIKey realm="venue-search", header="API-Key"';

/**
 * What each documented error status means, and the codes (HTTP_ERRORS, src/http/http-errors.ts)
 * the API's routes answer with it: every response description ends "Codes: `a`, `b`." so a
 * generated client or gateway finds them in one form (audit 70a F3). The `/admin` routes'
 * codes (`missing_admin_token`, `invalid_admin_token`, `invalid_venue`, `duplicate_id`) are not
 * listed: those routes are outside the document.
 */
interface StatusText {
  readonly text: string;
  readonly codes: readonly HttpErrorCode[];
}

const STATUS_TEXTS: Readonly<Record<number, StatusText>> = {
  400: {
    text: 'Invalid request: `param` names the field; `malformed_request` when the HTTP itself is not well-formed.',
    codes: ['invalid_request', 'limit_exceeded', 'unknown_place', 'invalid_json', 'invalid_url', 'invalid_content_length', 'malformed_request'],
  },
  401: {
    text: 'Missing API key (`missing_api_key`); malformed, unknown, revoked or expired one (`invalid_api_key`); or two different keys in one request (`conflicting_api_keys`).',
    codes: ['missing_api_key', 'invalid_api_key', 'conflicting_api_keys'],
  },
  402: { text: 'The balance cannot cover this request: not served, not charged.', codes: ['insufficient_balance'] },
  403: {
    text: 'A public key on an endpoint outside its permitted list (`public_key_not_permitted`), or from an origin the account does not allow (`origin_not_allowed`).',
    codes: ['public_key_not_permitted', 'origin_not_allowed'],
  },
  404: { text: 'Unknown venue id.', codes: ['venue_not_found'] },
  413: { text: "Request body over the route's limit, 64 KiB.", codes: ['body_too_large'] },
  415: {
    text: 'Request body is not application/json, is in a charset other than UTF-8, is compressed, or has a transfer coding other than chunked.',
    codes: ['unsupported_media_type'],
  },
  429: { text: 'A rate-limit window of the plan is full.', codes: ['rate_limited'] },
};

const CLIENT_FALLBACK: StatusText = {
  text: 'Any other client error: 404 unknown path (`route_not_found`), 405 another method (`method_not_allowed`, with `Allow`), 408 request not received in time (`request_timeout`), 417 an `Expect` other than `100-continue` (`expectation_failed`), 431 headers too large (`headers_too_large`); on a route that takes no body, 415 for a body sent compressed or in a charset other than UTF-8 (`unsupported_media_type`).',
  codes: ['route_not_found', 'method_not_allowed', 'request_timeout', 'expectation_failed', 'headers_too_large', 'unsupported_media_type'],
};

const SERVER_FALLBACK: StatusText = {
  text: 'A fault of the service (500); or 503: the service shutting down, the accounts database out of reach (with `Retry-After`), or a charge the database got to too late. Not charged, but for a charge the database could not confirm, which the message says (docs/http.md).',
  codes: ['internal_error', 'service_unavailable'],
};

function describeStatus({ text, codes }: StatusText): string {
  return `${text} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
}

interface HeaderSchema {
  readonly description: string;
  readonly type: 'string' | 'integer';
  readonly minimum?: number;
  readonly pattern?: string;
  readonly enum?: readonly string[];
}

/** A header entry: its schema and whether the response always carries it. */
interface HeaderEntry extends HeaderSchema {
  readonly required?: true;
}

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

const REQUEST_ID: HeaderEntry = {
  description: 'A server-made UUID; for a billed request also the id of its ledger row.',
  type: 'string',
  pattern: UUID_PATTERN,
  required: true,
};

const NO_STORE: HeaderEntry = { description: 'Venue and balance answers are never cached.', type: 'string', enum: ['no-store'], required: true };
const ERROR_NO_STORE: HeaderEntry = { description: 'No error answer is cached: it held for this request at this instant only.', type: 'string', enum: ['no-store'], required: true };

/** IETF structured-field lists as rateLimitHeaders writes them (rate-limit.ts). */
const POLICY_PATTERN = '^"[a-z]+";q=\\d+;w=\\d+(, "[a-z]+";q=\\d+;w=\\d+)*$';
const RATELIMIT_PATTERN = '^"[a-z]+";r=\\d+;t=\\d+(, "[a-z]+";r=\\d+;t=\\d+)*$';

function rateLimitHeaders(required: boolean): Record<string, HeaderEntry> {
  const entry = (header: HeaderSchema): HeaderEntry => (required ? { ...header, required: true } : header);
  return {
    'X-RateLimit-Limit': entry({ description: 'Quota of the binding window.', type: 'integer', minimum: 0 }),
    'X-RateLimit-Remaining': entry({ description: 'Requests left in the binding window.', type: 'integer', minimum: 0 }),
    'X-RateLimit-Reset': entry({ description: 'Unix time (s) when the binding window resets.', type: 'integer', minimum: 0 }),
    RateLimit: entry({ description: 'IETF RateLimit: per window `r` remaining and `t` seconds to reset.', type: 'string', pattern: RATELIMIT_PATTERN }),
    'RateLimit-Policy': entry({ description: 'IETF RateLimit-Policy: per window `q` quota and `w` seconds.', type: 'string', pattern: POLICY_PATTERN }),
  };
}

const RETRY_AFTER: HeaderEntry = { description: 'Seconds until the full window resets.', type: 'integer', minimum: 1, required: true };
const RETRY_AFTER_UNAVAILABLE: HeaderEntry = { description: 'On a 503 while the accounts database is out of reach: seconds to wait before retrying.', type: 'integer', minimum: 1 };

/** The challenge of every 401 (RFC 9110: a 401 names how to authenticate): API_KEY_CHALLENGE. */
const WWW_AUTHENTICATE: HeaderEntry = { description: 'How to authenticate: the key goes in the `API-Key` header.', type: 'string', enum: [API_KEY_CHALLENGE], required: true };

const ALLOW: HeaderEntry = { description: 'On a 405: the methods this path serves.', type: 'string' };

/** Statuses answered before the guard counted the request: no rate-limit headers. */
const BEFORE_COUNTING = new Set([401, 403]);

function errorHeaders(status: number): Record<string, HeaderEntry> {
  const always = { 'Request-Id': REQUEST_ID, 'Cache-Control': ERROR_NO_STORE };
  if (status === 401) return { ...always, 'WWW-Authenticate': WWW_AUTHENTICATE };
  if (BEFORE_COUNTING.has(status)) return always;
  if (status === 429) return { ...always, ...rateLimitHeaders(true), 'Retry-After': RETRY_AFTER };
  return { ...always, ...rateLimitHeaders(false) };
}

/** The headers of a guarded 200: request id, the rate-limit headers, and `no-store` where asked. */
export function successHeaders(options: { noStore: boolean }): Record<string, HeaderEntry> {
  return { 'Request-Id': REQUEST_ID, ...rateLimitHeaders(true), ...(options.noStore ? { 'Cache-Control': NO_STORE } : {}) };
}

/** Response schema entries for `statuses`: the envelope under each, its headers, and the fallbacks. */
export function errorResponses(...statuses: number[]): Record<string, object> {
  const out: Record<string, object> = {};
  for (const status of statuses) {
    out[String(status)] = { $ref: ERROR_ENVELOPE_REF, description: STATUS_TEXTS[status] === undefined ? 'Error.' : describeStatus(STATUS_TEXTS[status]), headers: errorHeaders(status) };
  }
  out['4xx'] = {
    $ref: ERROR_ENVELOPE_REF,
    description: describeStatus(CLIENT_FALLBACK),
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': ERROR_NO_STORE, Allow: ALLOW },
  };
  out['5xx'] = {
    $ref: ERROR_ENVELOPE_REF,
    description: describeStatus(SERVER_FALLBACK),
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': ERROR_NO_STORE, ...rateLimitHeaders(false), 'Retry-After': RETRY_AFTER_UNAVAILABLE },
  };
  return out;
}
