/**
 * Origin restriction for public keys. An account may list the web origins allowed to use its
 * public key from a browser; an empty list allows any origin. This is a browser-level control
 * (a public key is not a secret): it stops other sites from embedding the widget or calling
 * the API with the key from their pages, since browsers send `Origin` on cross-origin
 * requests and `Referer` on iframe navigations. Requests carrying neither (server to server,
 * curl, a top-level visit) are not restricted by it. Requests from the service's own pages
 * (the widget calling the API) are always allowed.
 */
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Normalises an origin to `scheme://host[:port]` in lower case, without a default port or a
 * trailing slash. Accepts http(s) only; throws RangeError naming the bad value otherwise.
 */
export function normalizeOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new RangeError(`origin must look like https://example.com (scheme, host, optional port); got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError(`origin must use http or https; got ${JSON.stringify(text)}`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new RangeError(`origin must be scheme://host[:port] without a path, query or credentials; got ${JSON.stringify(text)}`);
  }
  return url.origin;
}

/** The origin of a URL string, or undefined when it is not an absolute http(s) URL. */
function originOfUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The browser origin a request came from: the `Origin` header, else the origin of `Referer`.
 * `Origin: null` (sandboxed frames, file pages) is returned as the string `null`, which no
 * allowed list can contain.
 */
export function requestOrigin(headers: IncomingHttpHeaders): string | undefined {
  const origin = firstHeader(headers.origin);
  if (origin !== undefined && origin !== '') return origin === 'null' ? 'null' : (originOfUrl(origin) ?? 'null');
  const referer = firstHeader(headers.referer);
  if (referer !== undefined && referer !== '') return originOfUrl(referer) ?? 'null';
  return undefined;
}

/**
 * True when a request from `origin` may use a public key restricted to `allowed`:
 * no origin, an empty list, a request from the service's own pages (`Sec-Fetch-Site:
 * same-origin`, which pages cannot forge, or an origin whose host is the request's Host
 * header), or an exact match of a listed origin.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[], headers: IncomingHttpHeaders): boolean {
  if (origin === undefined || allowed.length === 0) return true;
  if (firstHeader(headers['sec-fetch-site']) === 'same-origin') return true;
  const host = firstHeader(headers.host);
  if (origin !== 'null' && host !== undefined && sameHost(origin, host)) return true;
  return allowed.includes(origin);
}

/** Whether `origin`'s host and port are the Host header's (a default port written or not). */
function sameHost(origin: string, host: string): boolean {
  try {
    const o = new URL(origin);
    return new URL(`${o.protocol}//${host}`).host === o.host;
  } catch {
    return false;
  }
}
