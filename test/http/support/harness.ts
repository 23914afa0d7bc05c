/** Builds an app over an in-memory (or file) accounts store, a fake clock and the fixture engine. */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { openAccount, type OpenedAccount } from '../../../src/accounts/accounts.js';
import { buildApp, type BuildAppOptions } from '../../../src/http/app.js';
import type { PlanName } from '../../../src/accounts/plans.js';
import pg from 'pg';
import type { AccountsStore } from '../../../src/accounts/accounts-store.js';
import { PostgresAccountsStore } from '../../../src/accounts/postgres-accounts-store.js';
import { SqliteAccountsStore, type SqliteAccountsStoreOptions } from '../../../src/accounts/sqlite-accounts-store.js';
import { createFixtureEngine, type CountingEngine } from './fixture-engine.js';

/** A hand-driven clock: 2026-03-10T12:00:00.250Z unless told otherwise. */
export class FakeClock {
  constructor(public nowMs = Date.UTC(2026, 2, 10, 12, 0, 0, 250)) {}
  readonly now = (): number => this.nowMs;
  advance(ms: number): void {
    this.nowMs += ms;
  }
}

export interface Harness {
  app: FastifyInstance;
  /** The store the app uses: SQLite, or PostgreSQL when the suite runs on it (below). */
  accounts: AccountsStore;
  /** The SQLite store; throws when the suite runs on PostgreSQL (a test reading SQLite itself). */
  readonly store: SqliteAccountsStore;
  engine: CountingEngine;
  clock: FakeClock;
  open(plan?: PlanName, openingCreditMicros?: number): Promise<OpenedAccount>;
  /** The account's ledger rows in order, read over the store's own database. */
  ledger(accountId: string): Promise<LedgerRow[]>;
  close(): Promise<void>;
}

export interface LedgerRow {
  request_id: string;
  kind: string;
  amount_micros: number;
}

/**
 * Set (to a PostgreSQL server URL) by test/accounts/http-suite-on-postgres.test.ts when it
 * re-runs the accounts and billing files of this folder on PostgreSQL: each harness then gets
 * a fresh database on that server instead of an in-memory SQLite store.
 */
export const POSTGRES_SUITE_ENV = 'VENUE_SEARCH_TEST_POSTGRES_URL';

let databases = 0;

async function freshPostgresStore(serverUrl: string): Promise<PostgresAccountsStore> {
  const name = `harness_${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return PostgresAccountsStore.open(url.toString());
}

/** Starts the harness's app on a free loopback port and returns the port (tests that speak raw HTTP on a socket). */
export async function listenOnLoopback(h: Harness): Promise<number> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return (h.app.server.address() as AddressInfo).port;
}

export async function createHarness(
  options: { dbPath?: string; clock?: FakeClock; extra?: Partial<BuildAppOptions>; storeOptions?: SqliteAccountsStoreOptions } = {},
): Promise<Harness> {
  const postgresUrl = options.dbPath === undefined ? process.env[POSTGRES_SUITE_ENV] : undefined;
  const accounts: AccountsStore =
    postgresUrl !== undefined ? await freshPostgresStore(postgresUrl) : new SqliteAccountsStore(options.dbPath ?? ':memory:', options.storeOptions);
  const engine = await createFixtureEngine();
  const clock = options.clock ?? new FakeClock();
  const app = await buildApp({ engine, accounts, clock: clock.now, ...options.extra });
  await app.ready();
  return {
    app,
    accounts,
    get store(): SqliteAccountsStore {
      if (!(accounts instanceof SqliteAccountsStore)) throw new Error('this test reads the SQLite store itself: it runs on SQLite only');
      return accounts;
    },
    engine,
    clock,
    open: (plan = 'Enterprise', openingCreditMicros) =>
      openAccount(accounts, plan, { nowMs: clock.nowMs, ...(openingCreditMicros === undefined ? {} : { openingCreditMicros }) }),
    ledger: (accountId) => ledgerRows(accounts, accountId),
    close: async () => {
      await app.close();
      await accounts.close();
    },
  };
}

/** An account's ledger rows in order, from either store's database. */
export async function ledgerRows(store: AccountsStore, accountId: string): Promise<LedgerRow[]> {
  if (store instanceof PostgresAccountsStore) {
    const { rows } = await store.pool.query<LedgerRow>('SELECT request_id, kind, amount_micros FROM ledger WHERE account_id = $1 ORDER BY seq', [accountId]);
    return rows;
  }
  if (!(store instanceof SqliteAccountsStore)) throw new Error('ledgerRows: an SQLite or PostgreSQL store');
  return store.db.prepare('SELECT request_id, kind, amount_micros FROM ledger WHERE account_id = ? ORDER BY seq').all(accountId) as LedgerRow[];
}
