/**
 * Audit 74d F3: in a database shared with an application's own tables, the store took another
 * tool's `schema_migrations` (golang-migrate's: version, dirty) holding version 1 for its own
 * record, opened over a database holding none of its tables, and every keyed request was a
 * 500 while /v1/health said 200. Now that table is refused, naming it, and a name of ours taken
 * by the application's table gets the same advice: a schema of the service's own, set by the
 * URL as docs/deploy.md shows, which is checked to work. On a real PostgreSQL; the oracle: the
 * catalogue's own tables (information_schema), and the application's rows read back.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const ADVICE = 'give the service a schema of its own (CREATE SCHEMA venue_search; then add ?options=-c%20search_path%3Dvenue_search to the URL) or a database of its own';

/** The tables of `schema`, by name, from the catalogue. */
async function tablesOf(client: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
  return rows.map((r) => r.table_name);
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe('the accounts store in a database shared with an application (audit 74d F3)', () => {
  it("another tool's schema_migrations is refused, naming it, and nothing is created", async () => {
    const url = await server.createDatabase('shared_golang_migrate');
    await withClient(url, (c) => c.query('CREATE TABLE schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL); INSERT INTO schema_migrations VALUES (1, false)'));
    await expect(PostgresAccountsStore.open(url)).rejects.toThrow(
      `the table public.schema_migrations is another tool's (its columns: version, dirty; this service's are version, name, applied_at): ${ADVICE}`,
    );
    await withClient(url, async (c) => {
      expect(await tablesOf(c, 'public')).toEqual(['schema_migrations']);
      expect((await c.query('SELECT version, dirty FROM schema_migrations')).rows).toEqual([{ version: '1', dirty: false }]);
    });
  });

  it("an application's table named as one of ours is refused with the same advice, and its rows are untouched", async () => {
    const url = await server.createDatabase('shared_accounts_name');
    await withClient(url, (c) => c.query("CREATE TABLE accounts (id serial PRIMARY KEY, email text); INSERT INTO accounts (email) VALUES ('a@example.com')"));
    await expect(PostgresAccountsStore.open(url)).rejects.toThrow(
      `relation "accounts" already exists, and is not this service's (it creates accounts, api_keys, ledger, rate_counters, public_key_origins, schema_migrations): ${ADVICE}`,
    );
    await withClient(url, async (c) => {
      expect(await tablesOf(c, 'public')).toEqual(['accounts']);
      expect((await c.query('SELECT email FROM accounts')).rows).toEqual([{ email: 'a@example.com' }]);
    });
  });

  it('with the advised schema in the URL, the store opens beside both, its tables in that schema', async () => {
    const url = await server.createDatabase('shared_own_schema');
    await withClient(url, (c) =>
      c.query("CREATE TABLE schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL); CREATE TABLE accounts (id serial PRIMARY KEY, email text); CREATE SCHEMA venue_search"),
    );
    const store = await PostgresAccountsStore.open(`${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3Dvenue_search`);
    try {
      const acct = await openAccount(store, 'Scale', { nowMs: 0 });
      expect(await store.balanceMicros(acct.accountId)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
    await withClient(url, async (c) => {
      expect(await tablesOf(c, 'venue_search')).toEqual(['accounts', 'api_keys', 'ledger', 'public_key_origins', 'rate_counters', 'schema_migrations']);
      expect(await tablesOf(c, 'public')).toEqual(['accounts', 'schema_migrations']);
    });
  });
});
