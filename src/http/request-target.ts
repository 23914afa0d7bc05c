/**
 * The request target as the router reads it. Node passes the target of the request line as
 * `request.url` unchanged: origin-form (`/v1/find?q=a`) or absolute-form
 * (`http://host/v1/find?q=a`, RFC 9112 3.2.2, which a server must accept), and the router
 * (find-my-way) matches an absolute-form target on its path. Whatever reads the path or the
 * query of a request itself (the public-key scope, the widget's redirect, the request log)
 * reads it through {@link originForm}, so that both forms of one target behave alike and the
 * authority a client wrote in the target is never used (audit 63b F4), but where RFC 9112
 * 3.2.2 says it replaces `Host`: the `servers` of openapi.json ({@link absoluteFormOrigin}).
 */

/** `http(s)://authority` at the start of an absolute-form target, in any letter case. */
const ABSOLUTE_FORM_PREFIX = /^https?:\/\/[^/?#]*/i;

/** The origin-form of `url` (path and query; `/` when an absolute-form target has no path). */
export function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const prefix = ABSOLUTE_FORM_PREFIX.exec(url);
  if (prefix === null) return url;
  const rest = url.slice(prefix[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The path of `url` (its origin-form up to the query). */
export function targetPath(url: string): string {
  return originForm(url).split('?', 1)[0]!;
}

/** A scheme before `//` at the start of a target (`ftp://`, `HTTP://`). */
const SCHEME_PREFIX = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * What is wrong with a request target that no route can answer for what it says, or
 * undefined (audit 64a F10): a fragment (`#...`: RFC 9112 3.2 has none in a request-target,
 * a client drops it; the router would read `#frag` as part of the path or of a query value),
 * or an absolute-form target whose scheme is not http or https (`ftp://x/v1/find`) or whose
 * port is none (`http://a.example:99999/v1/find`).
 */
export function targetProblem(url: string): string | undefined {
  if (url.includes('#')) {
    return 'the request target holds a fragment ("#..."), which is never sent to a server (RFC 9112 3.2): send the URL without it, and a "#" inside a parameter value as %23';
  }
  const scheme = SCHEME_PREFIX.exec(url)?.[1];
  if (scheme !== undefined && !/^https?$/i.test(scheme)) {
    return `the request target must be a path ("/v1/...") or an http:// or https:// URL; got the scheme ${JSON.stringify(`${scheme}:`)}`;
  }
  const authority = absoluteFormOrigin(url)?.authority;
  if (authority !== undefined && !hasValidPort(authority)) {
    return `the request target's authority ${JSON.stringify(authority)} is not a host and port (a port is a number from 0 to 65535)`;
  }
  return undefined;
}

/** Whether an authority's port, if it has one (after its host: a name, an address or an [IPv6] literal), is 0 to 65535. */
function hasValidPort(authority: string): boolean {
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const colon = hostPort.indexOf(':');
  const afterHost = hostPort.startsWith('[') ? hostPort.slice(hostPort.indexOf(']') + 1) : colon < 0 ? '' : hostPort.slice(colon);
  if (afterHost === '') return true;
  const port = /^:([0-9]{0,5})$/.exec(afterHost)?.[1];
  return port !== undefined && Number(port) <= 65_535;
}

/**
 * The scheme and authority of an absolute-form target (`http://other.example:8080/v1/x` gives
 * `http` and `other.example:8080`), or undefined for any other form. RFC 9112 3.2.2: a server
 * that receives an absolute-form target ignores `Host` and uses the target's authority.
 */
export function absoluteFormOrigin(url: string): { scheme: string; authority: string } | undefined {
  const prefix = ABSOLUTE_FORM_PREFIX.exec(url);
  if (prefix === null) return undefined;
  const [scheme, authority] = prefix[0].split('://') as [string, string];
  return { scheme: scheme.toLowerCase(), authority };
}
