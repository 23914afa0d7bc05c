/**
 * The parts of the operator routes (src/http/admin-routes.ts) that are not HTTP: the
 * operator token check and the NDJSON batch of venue records.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Media types of a venue batch: one JSON record a line. */
export const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson'];

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * A checker of `Authorization` header values against the operator token, in constant time
 * (both sides hashed first, so lengths do not leak either). `not_bearer`: another scheme
 * (`Basic ...`) or none, whatever the token.
 */
export function operatorTokenChecker(token: string): (authorization: string | undefined) => 'ok' | 'missing' | 'not_bearer' | 'invalid' {
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined) return 'missing';
    // The scheme's name is case-insensitive (RFC 9110 11.1); one or more spaces before the token.
    const match = /^bearer +(.+)$/i.exec(authorization);
    if (match === null) return 'not_bearer';
    return timingSafeEqual(digest(match[1]!), expected) ? 'ok' : 'invalid';
  };
}

/**
 * The scheme word of an `Authorization` value that is not Bearer, for a message ("Basic"),
 * or null when its first word cannot be a scheme's name: a token given bare, or a word of 16
 * characters or more (an operator token has at least 16: serve's check), so the credentials
 * are never echoed.
 */
export function authorizationScheme(authorization: string): string | null {
  const word = /^\s*(\S+)\s/.exec(authorization)?.[1];
  return word !== undefined && /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,14}$/.test(word) ? word : null;
}

export type VenueLines =
  | { readonly ok: true; readonly records: unknown[] }
  | { readonly ok: false; readonly code: 'invalid_json' | 'invalid_request'; readonly message: string; readonly param?: string };

/**
 * The records of an NDJSON body; a line that is not JSON is refused naming it. Blank lines
 * are skipped and not counted: "line N" (here and in the engine's record errors) is the
 * N-th record of the body.
 */
export function parseVenueLines(body: string): VenueLines {
  const records: unknown[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch (e) {
      const n = records.length + 1;
      return { ok: false, code: 'invalid_json', message: `line ${n} is not JSON: ${(e as Error).message}`, param: `line ${n}` };
    }
  }
  if (records.length === 0) return { ok: false, code: 'invalid_request', message: 'the body holds no venue records (one JSON record a line)' };
  return { ok: true, records };
}
