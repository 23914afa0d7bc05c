/**
 * The error responses each route documents in openapi.json: one entry per status it can
 * answer, all with the one envelope, plus a `4xx`/`5xx` fallback. Serialization is the same
 * for all (the envelope); the entries exist so clients see which statuses to handle and
 * the rate-limit headers of a 429.
 */
import { plainSchema } from '../plain-schema.js';
import { ErrorEnvelopeSchema } from './schemas.js';

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid request: `param` names the field (`invalid_request`, `limit_exceeded`, `unknown_place`, `invalid_json`).',
  401: 'Missing, malformed, unknown or expired API key.',
  402: 'The balance cannot cover this request: not served, not charged (`insufficient_balance`).',
  403: 'A public key on an endpoint outside its permitted list.',
  404: 'Unknown venue id (`venue_not_found`).',
  413: 'Request body over 64 KiB.',
  415: 'Request body is not application/json.',
  429: 'A rate-limit window of the plan is full (`rate_limited`).',
};

const RATE_LIMIT_HEADERS = {
  'Retry-After': { description: 'Seconds until the full window resets.', schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Limit': { description: 'Quota of the binding window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the binding window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (s) when the binding window resets.', schema: { type: 'integer' } },
  RateLimit: { description: 'IETF RateLimit: per window `r` remaining and `t` seconds to reset.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'IETF RateLimit-Policy: per window `q` quota and `w` seconds.', schema: { type: 'string' } },
};

/** Response schema entries for `statuses`, the envelope under each, and the fallbacks. */
export function errorResponses(...statuses: number[]): Record<string, object> {
  const envelope = plainSchema(ErrorEnvelopeSchema);
  const out: Record<string, object> = {};
  for (const status of statuses) {
    out[String(status)] = { ...envelope, description: DESCRIPTIONS[status] ?? 'Error.', ...(status === 429 ? { headers: RATE_LIMIT_HEADERS } : {}) };
  }
  out['4xx'] = { ...envelope, description: 'Any other client error (404 unknown path, 405 wrong method).' };
  out['5xx'] = { ...envelope, description: 'A fault of the service; the request was not charged.' };
  return out;
}
