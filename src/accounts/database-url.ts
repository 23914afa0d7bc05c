/**
 * What `--db` names: a PostgreSQL server (a `postgres://` or `postgresql://` URL) or an SQLite
 * file. No database client is imported here, so the command line loads `pg` only for a
 * PostgreSQL URL and `better-sqlite3` only for a file (both are optional for the package).
 */

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** The scheme of a URL-like `--db` (`mysql://`), or null for a file path. */
export function urlScheme(db: string): string | null {
  return /^[a-z][a-z0-9+.-]*:\/\//i.exec(db)?.[0] ?? null;
}

/**
 * Where a URL's connection parameters begin: the first `?` followed by `name=` (libpq's
 * parameters are identifiers: `?sslmode=require&application_name=me@laptop`), or -1. A `?`
 * in a raw password is not followed by one, except by a rare chance.
 */
function parametersStart(url: string, from: number): number {
  const match = /\?[A-Za-z_][A-Za-z0-9_]*=/.exec(url.slice(from));
  return match === null ? -1 : from + match.index;
}

/**
 * The part of a URL-like string between `://` and the last `@` before its parameters (user
 * and password), with its offsets; null when it has none. Read on the raw text, so that a
 * password holding a raw `/`, `#` or `@` (which a URL parser takes for the path, fragment or
 * host) is found whole, while an `@` in a parameter's value is not taken for one.
 */
function userInfo(url: string): { readonly start: number; readonly end: number } | null {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (scheme === null) return null;
  const parameters = parametersStart(url, scheme[0].length);
  const end = parameters < 0 ? url.lastIndexOf('@') : url.lastIndexOf('@', parameters);
  return end < scheme[0].length ? null : { start: scheme[0].length, end };
}

/**
 * The URL without its password, for messages and logs (any scheme, parsable or not): the
 * user name kept, the rest of the user info up to the last `@` masked (`postgres://bob:***@host/db`).
 */
export function redactUrl(url: string): string {
  const info = userInfo(url);
  if (info === null) return url;
  const text = url.slice(info.start, info.end);
  const colon = text.indexOf(':');
  return colon < 0 ? url : `${url.slice(0, info.start)}${text.slice(0, colon)}:***${url.slice(info.end)}`;
}

/**
 * Why a database URL cannot be read as its writer meant, or null: a user or password holding
 * a raw `/`, `?`, `#` or `@` (a URL parser ends the user info at the first of them, and then
 * connects to a host made of the password's rest; percent-encoding fixes it), or a
 * `postgres://` URL with a query parameter the driver would ignore (a typo: audit 64b 5).
 */
export function databaseUrlProblem(url: string): string | null {
  const info = userInfo(url);
  if (info !== null && /[/?#@]/.test(url.slice(info.start, info.end))) {
    return `${redactUrl(url)} does not parse: its user or password holds a raw "/", "?", "#" or "@"; percent-encode them (encodeURIComponent(password))`;
  }
  return unknownParameterProblem(url);
}

/**
 * The connection parameters of a `postgres://` URL that node-postgres (pg 8, pg-connection-string 2)
 * acts on. It passes any other name through and ignores it, so a misspelt `?sslmod=require`
 * would connect in clear without a word (libpq refuses it: `invalid URI query parameter`).
 * TLS: docs/deploy.md, "TLS to the database".
 */
export const KNOWN_URL_PARAMETERS: readonly string[] = [
  'sslmode',
  'sslrootcert',
  'sslcert',
  'sslkey',
  'ssl',
  'sslnegotiation',
  'uselibpqcompat',
  'application_name',
  'fallback_application_name',
  'options',
  'client_encoding',
  'statement_timeout',
  'lock_timeout',
  'idle_in_transaction_session_timeout',
  'query_timeout',
  'host',
  'port',
  'user',
  'password',
];

/** A `postgres://` URL's first query parameter this service's driver would ignore, as a refusal; null when none. */
function unknownParameterProblem(url: string): string | null {
  if (!/^postgres(ql)?:\/\//i.test(url)) return null;
  let names: string[];
  try {
    names = [...new URL(url).searchParams.keys()];
  } catch {
    return null; // the driver says why it does not parse
  }
  const unknown = names.find((name) => !KNOWN_URL_PARAMETERS.includes(name));
  if (unknown === undefined) return null;
  return `${redactUrl(url)}: unknown connection parameter ${JSON.stringify(unknown)} (it would be ignored); the known ones are ${KNOWN_URL_PARAMETERS.join(', ')}`;
}
