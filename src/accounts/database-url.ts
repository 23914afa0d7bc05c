/**
 * What `--db` names: a PostgreSQL server (a `postgres://` or `postgresql://` URL) or an SQLite
 * file. No database client is imported here, so the command line loads `pg` only for a
 * PostgreSQL URL and `better-sqlite3` only for a file (both are optional for the package).
 */

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** The URL without its password, for messages and logs (any scheme). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? 'postgres://';
    return `${scheme}(unparseable URL)`;
  }
}
