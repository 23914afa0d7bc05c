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

/** The URL without its password, for messages and logs (any scheme). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return `${urlScheme(url) ?? 'postgres://'}(unparseable URL)`;
  }
}
