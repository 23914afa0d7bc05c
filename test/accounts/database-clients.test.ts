// The accounts stores' database clients, loaded at first use (src/accounts/database-clients.ts):
// a package that is installed is the module `require` gives; one that is not is named, with
// its install line, in a MissingDatabaseClientError (the command line prints that message).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadDatabaseClient, MissingDatabaseClientError, sqliteDatabaseClass } from '../../src/accounts/database-clients.js';
import { pgModule } from '../../src/accounts/pg-client.js';

const require = createRequire(import.meta.url);

describe('database clients', () => {
  it('loads the installed clients: the modules require itself gives', () => {
    expect(sqliteDatabaseClass()).toBe(require('better-sqlite3'));
    expect(pgModule()).toBe(require('pg'));
  });

  it('names a client that is not installed, with its install line', () => {
    let thrown: unknown;
    try {
      loadDatabaseClient('venue-search-no-such-client', 'a test database');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(MissingDatabaseClientError);
    expect((thrown as MissingDatabaseClientError).packageName).toBe('venue-search-no-such-client');
    expect((thrown as Error).message).toBe(
      'a test database needs the optional peer dependency venue-search-no-such-client, which is not installed: npm install venue-search-no-such-client',
    );
  });
});
