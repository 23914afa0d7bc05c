/**
 * The one error envelope and the one table from error codes to HTTP statuses.
 *
 * Every error body is `{message, type, code}` plus `param` when one request parameter is at
 * fault (CONTRACT "HTTP errors"). `type` groups errors the way Stripe does; `code` is stable
 * and machine-readable. Anything a client sent maps to a 4xx; only our own faults are 500.
 */
import { describeValue, isVenueSearchError, type VenueSearchErrorCode } from '../errors.js';

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'rate_limit_error'
  | 'api_error';

export interface ErrorEnvelope {
  message: string;
  type: ErrorType;
  code: string;
  param?: string;
}

/** An error the adapter raises itself, with its status and envelope fields. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export function invalidParam(param: string, value: unknown, expected: string): HttpError {
  return new HttpError(400, 'invalid_request_error', 'invalid_request', `${param} must be ${expected}; got ${describeValue(value)}`, param);
}

/** Engine error codes to statuses. Data-file codes are the operator's fault, never the client's. */
const ENGINE_STATUS: Readonly<Record<VenueSearchErrorCode, number>> = {
  invalid_request: 400,
  limit_exceeded: 400,
  unknown_place: 400,
  venue_not_found: 404,
  invalid_venue: 500,
  invalid_data: 500,
  duplicate_id: 500,
};

/** Fastify's own error codes that come from client input. */
const FASTIFY_CODES: Readonly<Record<string, { status: number; code: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
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

/** The dotted parameter name of a schema validation error (`mode.maxDistance`, `locations.0.lat`). */
export function paramOfValidationError(error: AjvLikeError): string {
  const segments = (error.instancePath ?? '').split('/').filter((s) => s.length > 0);
  const extra = error.params?.['missingProperty'] ?? error.params?.['additionalProperty'];
  if (typeof extra === 'string') segments.push(extra);
  return segments.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}

function validationMessage(error: AjvLikeError, param: string, context: string): string {
  const where = param === '' ? context : param;
  if (error.keyword === 'required') return `${where} is required`;
  if (error.keyword === 'additionalProperties') return `${where} is not a known parameter`;
  return `${where} ${error.message ?? 'is invalid'}; got ${describeValue(error.data)}`;
}

/** Maps anything thrown while serving a request to a status and an envelope. */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof HttpError) {
    return { status: err.status, body: envelope(err.message, err.type, err.code, err.param), headers: err.headers };
  }
  if (isVenueSearchError(err)) {
    const status = ENGINE_STATUS[err.code];
    if (status >= 500) return internalError();
    const type: ErrorType = 'invalid_request_error';
    // the engine writes paths the JavaScript way (`locations[1].weight`); the HTTP `param` is
    // dotted (`locations.1.weight`) like the schema errors, so one field has one name
    const param = err.param?.replace(/\[(\d+)\]/g, '.$1');
    return { status, body: envelope(err.message, type, err.code, param), headers: {} };
  }
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; statusCode?: unknown; validation?: unknown; validationContext?: unknown; message?: unknown };
    if (Array.isArray(e.validation) && e.validation.length > 0) {
      const first = e.validation[0] as AjvLikeError;
      const param = paramOfValidationError(first);
      const context = typeof e.validationContext === 'string' ? e.validationContext : 'request';
      return {
        status: 400,
        body: envelope(validationMessage(first, param, context), 'invalid_request_error', 'invalid_request', param === '' ? context : param),
        headers: {},
      };
    }
    const known = typeof e.code === 'string' ? FASTIFY_CODES[e.code] : undefined;
    const message = typeof e.message === 'string' ? e.message : 'bad request';
    if (known !== undefined) {
      return { status: known.status, body: envelope(message, 'invalid_request_error', known.code), headers: {} };
    }
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return { status: e.statusCode, body: envelope(message, 'invalid_request_error', 'invalid_request'), headers: {} };
    }
  }
  return internalError();
}

function internalError(): ErrorResponse {
  return { status: 500, body: envelope('internal error; the request was not charged', 'api_error', 'internal_error'), headers: {} };
}

function envelope(message: string, type: ErrorType, code: string, param?: string): ErrorEnvelope {
  return param === undefined || param === '' ? { message, type, code } : { message, type, code, param };
}
