import { isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';
import { HttpError } from './http-errors.js';

/**
 * Request bodies are text in UTF-8, the one encoding JSON has between systems (RFC 8259 8.1).
 * A body that says it is in another charset, or whose bytes are not UTF-8, is refused: decoded
 * as UTF-8 regardless, a name in Latin-1 ("Café") would be searched, or stored by the admin
 * routes, with U+FFFD in place of its letters.
 */

/** Charset parameters meaning UTF-8 (US-ASCII is a subset of it), lower-cased. */
const UTF8_CHARSETS: readonly string[] = ['utf-8', 'utf8', 'us-ascii'];

/** The `charset` parameter of a Content-Type header, lower-cased and unquoted; undefined when it has none. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match === null ? undefined : (match[1] ?? match[2] ?? '').toLowerCase();
}

/** A 415 when the Content-Type names a charset other than UTF-8 (checked before the body is read). */
export function checkBodyCharset(contentType: string | undefined): void {
  if (contentType === undefined) return;
  const charset = charsetOf(contentType);
  if (charset !== undefined && !UTF8_CHARSETS.includes(charset)) {
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
 * saying why: empty, not UTF-8, not JSON (V8's message, with the position), or holding a
 * `__proto__` key or a `constructor.prototype` (prototype pollution, secure-json-parse).
 */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) throw new HttpError('invalid_json', 'the body is empty: send a JSON object');
  const text = bodyText(bytes);
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (why.startsWith('Object contains forbidden prototype property')) {
      throw new HttpError('invalid_json', 'the body holds a "__proto__" key or a "constructor" object with a "prototype" key, which are refused (prototype pollution)');
    }
    throw new HttpError('invalid_json', `the body is not valid JSON: ${why}`);
  }
}
