/**
 * The one error envelope and the one table from error codes to HTTP statuses.
 *
 * Every error body is `{message, type, code}` plus `param` when one request parameter is at
 * fault (CONTRACT "HTTP errors"). `type` groups errors the way Stripe does; `code` is stable
 * and machine-readable. Anything a client sent maps to a 4xx; only our own faults are 500.
 */
import { ChargeOutcomeUnknownError } from '../accounts/accounts-store.js';
import { isAccountsUnavailable } from '../accounts/accounts-unavailable.js';
import { maskKeys } from '../accounts/keys.js';
import { describeValue, isVenueSearchError, type VenueSearchErrorCode } from '../errors.js';
import { UnknownPlaceError } from '../places/unknown-place-error.js';
import type { ErrorEnvelope, ErrorType } from '../service/api-schemas.js';
import { maximumNote } from '../schema/search-limits.js';
import { patternMeaning } from '../schema/pattern-meanings.js';
import { isPublishedLimit } from '../search/validate-request.js';
import { unknownParameterError } from './unknown-parameter.js';

export type { ErrorEnvelope, ErrorType };

/**
 * The catalogue: every `code` a client can receive, with its status and `type`. A code is
 * stable once shipped (clients branch on it); docs/http.md "Errors" lists them. The engine's
 * codes (VenueSearchError) appear here too, so one table holds every client-facing status.
 */
export const HTTP_ERRORS = {
  // 400
  invalid_request: { status: 400, type: 'invalid_request_error' },
  limit_exceeded: { status: 400, type: 'invalid_request_error' },
  unknown_place: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  invalid_content_length: { status: 400, type: 'invalid_request_error' },
  invalid_url: { status: 400, type: 'invalid_request_error' },
  malformed_request: { status: 400, type: 'invalid_request_error' },
  // a venue record sent to an operator route (/admin: live data); from the data file it is a 500
  invalid_venue: { status: 400, type: 'invalid_request_error' },
  duplicate_id: { status: 400, type: 'invalid_request_error' },
  // 401, 402, 403
  missing_api_key: { status: 401, type: 'authentication_error' },
  invalid_api_key: { status: 401, type: 'authentication_error' },
  conflicting_api_keys: { status: 401, type: 'authentication_error' },
  missing_admin_token: { status: 401, type: 'authentication_error' },
  invalid_admin_token: { status: 401, type: 'authentication_error' },
  insufficient_balance: { status: 402, type: 'billing_error' },
  public_key_not_permitted: { status: 403, type: 'permission_error' },
  origin_not_allowed: { status: 403, type: 'permission_error' },
  // 404 .. 431
  venue_not_found: { status: 404, type: 'invalid_request_error' },
  route_not_found: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  request_timeout: { status: 408, type: 'invalid_request_error' },
  expectation_failed: { status: 417, type: 'invalid_request_error' },
  body_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  headers_too_large: { status: 431, type: 'invalid_request_error' },
  // ours
  internal_error: { status: 500, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error' },
} as const satisfies Readonly<Record<string, { status: number; type: ErrorType }>>;

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** An error the adapter raises itself: a catalogue code (its status and type), a message, the parameter at fault. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = HTTP_ERRORS[code].status;
    this.type = HTTP_ERRORS[code].type;
  }

  /**
   * The status under fastify's name for it: an error handler of the embedding app's own
   * routes (`err.statusCode ?? 500`, fastify's convention) answers our refusals with their
   * status, e.g. 400 for a malformed JSON body, not 500 (audit 74d F1).
   */
  get statusCode(): number {
    return this.status;
  }
}

export function invalidParam(param: string, value: unknown, expected: string): HttpError {
  return new HttpError('invalid_request', `${param} must be ${expected}; got ${describeValue(value)}`, param);
}

/** Engine error codes to catalogue codes. Data-file codes are the operator's fault, never the client's. */
const ENGINE_CODES: Readonly<Record<VenueSearchErrorCode, HttpErrorCode>> = {
  invalid_request: 'invalid_request',
  limit_exceeded: 'limit_exceeded',
  unknown_place: 'unknown_place',
  venue_not_found: 'venue_not_found',
  invalid_venue: 'internal_error',
  invalid_data: 'internal_error',
  duplicate_id: 'internal_error',
};

/** Fastify's own error codes that come from client input. */
const FASTIFY_CODES: Readonly<Record<string, HttpErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_content_length',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
};

export interface ErrorResponse {
  readonly status: number;
  readonly body: ErrorEnvelope;
  readonly headers: Readonly<Record<string, string>>;
}

interface AjvLikeError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

/**
 * The dotted parameter name of a schema validation error (`mode.maxDistance`, `locations.0.lat`);
 * a key that is the empty string is named `""` (`locations.0.""`), as the engine names it.
 */
export function paramOfValidationError(error: AjvLikeError): string {
  const path = error.instancePath ?? '';
  const segments = path === '' ? [] : path.split('/').slice(1);
  const extra = error.params?.['missingProperty'] ?? error.params?.['additionalProperty'];
  if (typeof extra === 'string') segments.push(extra);
  return segments.map((s) => (s === '' ? '""' : s.replace(/~1/g, '/').replace(/~0/g, '~'))).join('.');
}

/**
 * The message of a schema error. `errors` are all ajv reported: a union of literals (`mode`:
 * `POINT` or `PATH`) fails one `const` per literal, and the message lists them all.
 */
function validationMessage(errors: readonly AjvLikeError[], param: string, context: string): string {
  const error = errors[0]!;
  const where = param === '' ? context : param;
  if (error.keyword === 'required') return `${where} is required`;
  if (error.keyword === 'additionalProperties') return `${where} is not a known parameter`;
  const allowed = allowedValues(errors);
  if (allowed !== null) return `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}; got ${describeValue(error.data)}`;
  const meaning = error.keyword === 'pattern' ? patternMeaning(error.params?.['pattern'], error.data) : undefined;
  if (meaning !== undefined) return `${where} must be ${meaning}; got ${describeValue(error.data)}`;
  const note = error.keyword === 'maximum' ? maximumNote(param) : '';
  return `${where} ${error.message ?? 'is invalid'}${note}; got ${describeValue(error.data)}`;
}

/** The values a `const` union or an `enum` at the first error's place accepts, or null. */
function allowedValues(errors: readonly AjvLikeError[]): unknown[] | null {
  const first = errors[0]!;
  if (first.keyword === 'enum' && Array.isArray(first.params?.['allowedValues'])) return first.params['allowedValues'] as unknown[];
  if (first.keyword !== 'const') return null;
  return errors.filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath).map((e) => e.params?.['allowedValue']);
}

/**
 * Fastify's own client errors, reworded with what the request held: the media type it sent
 * (415) and the route's body limit (413). Anything else is returned as it is.
 */
export function withRequestDetails(err: unknown, contentType: string | undefined, bodyLimitBytes: number | undefined): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new HttpError('unsupported_media_type', `send the body as application/json; got Content-Type ${contentType === undefined ? '(none)' : JSON.stringify(contentType)}`);
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyLimitBytes !== undefined) {
    return new HttpError('body_too_large', `the body is over this route's limit of ${bodyLimitBytes} bytes`);
  }
  return err;
}

/**
 * An engine error's field path as the HTTP `param` names it: the engine writes paths the
 * JavaScript way (`locations[1].weight`); the HTTP `param` is dotted (`locations.1.weight`)
 * like the schema errors, so one field has one name on every route.
 */
export function httpParam(enginePath: string | undefined): string | undefined {
  return enginePath?.replace(/\[(\d+)\]/g, '.$1');
}

/**
 * Headers every error answer carries, whichever layer writes it: `Cache-Control: no-store`.
 * An error tells what was true of one request at one instant (a venue not added yet, a
 * balance before its top-up): a shared cache in front must neither keep it (404 and 405 are
 * cacheable by default, RFC 9111 4.2.2) nor answer it to other clients (a cache does not key
 * on `API-Key`). Audit 63b F6; the 200s of the venue and balance routes say the same.
 */
const ERROR_HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-store' };

/**
 * Maps anything thrown while serving a request to a status, an envelope and the headers to
 * send with it (ERROR_HEADERS, then the error's own): whoever writes an error answer sends all
 * of `headers`.
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  const response = errorResponseOf(err);
  return { ...response, headers: { ...ERROR_HEADERS, ...response.headers } };
}

function errorResponseOf(err: unknown): ErrorResponse {
  if (err instanceof ChargeOutcomeUnknownError) return chargeOutcomeUnknown(err.requestId);
  if (isAccountsUnavailable(err)) return accountsUnavailable();
  if (err instanceof HttpError) {
    return { status: err.status, body: envelope(err.message, err.code, err.param), headers: err.headers };
  }
  if (isVenueSearchError(err)) {
    const code = ENGINE_CODES[err.code];
    const { status } = HTTP_ERRORS[code];
    if (status >= 500) return internalError();
    const param = httpParam(err.param);
    // the message names the field as the HTTP param does (`locations.1.weight`, not `locations[1].weight`)
    const message = err.param !== undefined && param !== err.param ? err.message.split(err.param).join(param) : err.message;
    const body = envelope(message, code, param);
    // unknown_place: the names to offer instead, for a client to show (the widget's buttons)
    return { status, body: err instanceof UnknownPlaceError ? { ...body, suggestions: err.suggestions.map(maskKeys) } : body, headers: {} };
  }
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; statusCode?: unknown; validation?: unknown; validationContext?: unknown; message?: unknown };
    if (Array.isArray(e.validation) && e.validation.length > 0) {
      const first = e.validation[0] as AjvLikeError;
      const unknown = unknownParameterError(first);
      if (unknown !== undefined) return { status: 400, body: envelope(unknown.message, 'invalid_request', unknown.param), headers: {} };
      const param = paramOfValidationError(first);
      const context = typeof e.validationContext === 'string' ? e.validationContext : 'request';
      const code = isPublishedLimit(first.keyword, param) ? 'limit_exceeded' : 'invalid_request';
      return {
        status: 400,
        body: envelope(validationMessage(e.validation as AjvLikeError[], param, context), code, param === '' ? context : param),
        headers: {},
      };
    }
    const known = typeof e.code === 'string' ? FASTIFY_CODES[e.code] : undefined;
    const message = typeof e.message === 'string' ? e.message : 'bad request';
    if (known !== undefined) {
      return { status: HTTP_ERRORS[known].status, body: envelope(message, known), headers: {} };
    }
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return { status: e.statusCode, body: envelope(message, 'invalid_request'), headers: {} };
    }
  }
  return internalError();
}

/**
 * A charge the database could not confirm (ChargeOutcomeUnknownError): the only 500 that
 * cannot say "not charged".
 */
function chargeOutcomeUnknown(requestId: string): ErrorResponse {
  const message = `internal error: the database did not confirm whether this request was charged; if it was, the ledger holds its Request-Id ${requestId} (GET /v1/business/balances shows the balance)`;
  return { status: 500, body: envelope(message, 'internal_error'), headers: {} };
}

/** Seconds a client is asked to wait before retrying while the accounts database is out of reach. */
export const ACCOUNTS_RETRY_AFTER_SECONDS = 5;

/** The accounts database out of reach (isAccountsUnavailable): a 503 to retry, not "our fault" (audit 61c). */
function accountsUnavailable(): ErrorResponse {
  return {
    status: 503,
    body: envelope('the accounts database cannot be reached just now; the request was not charged: retry it', 'service_unavailable'),
    headers: { 'retry-after': String(ACCOUNTS_RETRY_AFTER_SECONDS) },
  };
}

function internalError(): ErrorResponse {
  return { status: 500, body: envelope('internal error; the request was not charged', 'internal_error'), headers: {} };
}

/**
 * The envelope of an error. Its message and param never echo an API key (docs/security.md):
 * a key a client put in the wrong place (a path, a parameter's name or value, a body field)
 * is masked here, the one place every error message passes, as the request log masks it.
 */
function envelope(text: string, code: HttpErrorCode, field?: string): ErrorEnvelope {
  const { type } = HTTP_ERRORS[code];
  const message = maskKeys(text);
  if (field === undefined || field === '') return { message, type, code };
  return { message, type, code, param: maskKeys(field) };
}
