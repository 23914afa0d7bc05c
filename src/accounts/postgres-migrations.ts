/**
 * The PostgreSQL schema as numbered migrations, applied at store open. Each runs in one
 * transaction holding a transaction-level advisory lock, so service processes starting
 * together apply each migration exactly once; `schema_migrations` records what ran. A new
 * schema change is a new entry at the end, never an edit of an applied one.
 *
 * Tables mirror the SQLite store's (sqlite-accounts-store.ts): money and times are BIGINT
 * (micro-pounds, ms since the epoch); `balance_micros >= 0` is a CHECK constraint.
 */
import type pg from 'pg';

/** Any constant shared by every process of this service: the advisory lock's key. */
const MIGRATION_LOCK_KEY = 0x76656e75; // "venu"

export const MIGRATIONS: readonly { readonly version: number; readonly name: string; readonly sql: string }[] = [
  {
    version: 1,
    name: 'accounts, keys, ledger, rate counters, origins',
    sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  plan TEXT NOT NULL,
  balance_micros BIGINT NOT NULL CHECK (balance_micros >= 0),
  created_at_ms BIGINT NOT NULL
);
CREATE TABLE api_keys (
  digest BYTEA PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('secret', 'public')),
  created_at_ms BIGINT NOT NULL,
  -- NULL while current; after a rotation, the end of the old key's grace period
  expires_at_ms BIGINT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, kind);
CREATE TABLE ledger (
  seq BIGSERIAL PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  request_id TEXT NOT NULL UNIQUE,
  -- a billable kind (search, find, basic, advanced, menus) or 'credit' / 'topup' / 'refund' (refund rows since 2026-11-30)
  kind TEXT NOT NULL,
  -- signed micro-pounds: charges negative, credits positive
  amount_micros BIGINT NOT NULL,
  balance_after_micros BIGINT NOT NULL,
  at_ms BIGINT NOT NULL
);
CREATE INDEX ledger_by_account_time ON ledger (account_id, at_ms);
CREATE TABLE rate_counters (
  account_id TEXT NOT NULL,
  window_name TEXT NOT NULL,
  window_start_ms BIGINT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (account_id, window_name)
);
CREATE TABLE public_key_origins (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  origin TEXT NOT NULL,
  PRIMARY KEY (account_id, origin)
);
`,
  },
];

/** Applies the migrations not yet recorded; returns the versions it applied. */
export async function migratePostgres(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    // created only when missing: PostgreSQL checks the CREATE right even for IF NOT EXISTS, and
    // a role with only row rights must be able to start once the migrations are applied
    const { rows: found } = await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    if (found[0]?.present !== true) {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    } else {
      await refuseForeignMigrationsTable(client);
    }
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      try {
        await client.query(migration.sql);
      } catch (err) {
        throw withOwnSchemaAdvice(err);
      }
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The tables the migrations create, as docs/deploy.md lists them. */
const OWN_TABLES = ['accounts', 'api_keys', 'ledger', 'rate_counters', 'public_key_origins', 'schema_migrations'] as const;

/** The columns of this service's `schema_migrations`; another tool's table of that name lacks some (golang-migrate's holds `version, dirty`). */
const OWN_MIGRATIONS_COLUMNS = ['version', 'name', 'applied_at'] as const;

/** What a database shared with an application's own tables needs (docs/deploy.md, "The accounts database"). */
const OWN_SCHEMA_ADVICE =
  'give the service a schema of its own (CREATE SCHEMA venue_search; then add ?options=-c%20search_path%3Dvenue_search to the URL) or a database of its own';

/**
 * Throws when the `schema_migrations` the search path finds is another tool's: its versions
 * are not this service's, and read as ours they made the store open over a database holding
 * none of its tables, every keyed request then failing (audit 74d F3).
 */
async function refuseForeignMigrationsTable(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ column: string; schema: string }>(
    `SELECT a.attname AS column, n.nspname AS schema
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE a.attrelid = to_regclass('schema_migrations') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
  );
  const columns = rows.map((r) => r.column);
  if (OWN_MIGRATIONS_COLUMNS.every((c) => columns.includes(c))) return;
  const schema = rows[0]?.schema ?? 'public';
  throw new Error(
    `the table ${schema}.schema_migrations is another tool's (its columns: ${columns.join(', ')}; this service's are ${OWN_MIGRATIONS_COLUMNS.join(', ')}): ${OWN_SCHEMA_ADVICE}`,
  );
}

/** PostgreSQL's duplicate_table: a table of one of our names is already there. */
const DUPLICATE_TABLE = '42P07';

/** A migration's error, with the advice when one of our tables' names is taken by another application's table. */
function withOwnSchemaAdvice(err: unknown): unknown {
  if ((err as { code?: unknown }).code !== DUPLICATE_TABLE || !(err instanceof Error)) return err;
  return new Error(`${err.message}, and is not this service's (it creates ${OWN_TABLES.join(', ')}): ${OWN_SCHEMA_ADVICE}`, { cause: err });
}
