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
 * (both sides hashed first, so lengths do not leak either).
 */
export function operatorTokenChecker(token: string): (authorization: string | undefined) => 'ok' | 'missing' | 'invalid' {
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined) return 'missing';
    // The scheme's name is case-insensitive (RFC 9110 11.1); one or more spaces before the token.
    const match = /^bearer +(.+)$/i.exec(authorization);
    return match !== null && timingSafeEqual(digest(match[1]!), expected) ? 'ok' : 'invalid';
  };
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
