/**
 * The accounts stores' database clients, loaded at first use: better-sqlite3 for an SQLite
 * file, pg for a PostgreSQL server. Both are optional peer dependencies (docs/packaging.md),
 * and a service needs only the one its database uses: a service on PostgreSQL installs no
 * native SQLite build, and importing `venue-search-engine/http` loads neither client. Both
 * packages are CommonJS, so they load synchronously (`createRequire`).
 */
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { moduleUrlOrMissing } from '../package-files.js';

/** `require` from this module, made on first use: bundled whole into CommonJS there is no import.meta.url, and the HTTP entry must still load (audit 68c F2). */
function requireClient(packageName: string): unknown {
  return createRequire(moduleUrlOrMissing(import.meta.url, `database client ${packageName}`, packageName))(packageName);
}

/** A store's database client is not installed; the message names the package and the install line. */
export class MissingDatabaseClientError extends Error {
  override readonly name = 'MissingDatabaseClientError';
  constructor(
    readonly packageName: string,
    database: string,
    cause: unknown,
  ) {
    super(`${database} needs the optional peer dependency ${packageName}, which is not installed: npm install ${packageName}`, { cause });
  }
}

/** `require(packageName)`, or MissingDatabaseClientError when the package itself is not installed. */
export function loadDatabaseClient(packageName: string, database: string): unknown {
  try {
    return requireClient(packageName);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // only the package itself missing; a package that is there but fails to load keeps its own error
    if (code === 'MODULE_NOT_FOUND' && (err as Error).message.includes(`'${packageName}'`)) {
      throw new MissingDatabaseClientError(packageName, database, err);
    }
    throw err;
  }
}

/** better-sqlite3's Database class. */
export function sqliteDatabaseClass(): typeof BetterSqlite3 {
  return loadDatabaseClient('better-sqlite3', 'an SQLite accounts database') as typeof BetterSqlite3;
}

/**
 * Opens the SQLite file at `path` (':memory:' or '' for a private database). A file that does
 * not exist yet is first created empty with mode 0600: it holds key digests, balances and the
 * ledger (or rate counters), and SQLite gives its `-wal` and `-shm` files the database file's
 * mode, so none of them is ever world-readable (SQLite alone creates them 0644 under the usual
 * umask; docs/security.md). An existing file keeps the mode its operator gave it.
 */
export function openSqliteFile(path: string): BetterSqlite3.Database {
  const Database = sqliteDatabaseClass();
  if (path !== ':memory:' && path !== '') {
    try {
      closeSync(openSync(path, 'wx', 0o600));
    } catch {
      // already there (EEXIST): opened as it is; any other problem is new Database's to report
    }
  }
  return new Database(path);
}
