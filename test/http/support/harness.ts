/** Builds an app over an in-memory (or file) accounts store, a fake clock and the fixture engine. */
import type { FastifyInstance } from 'fastify';
import { openAccount, type OpenedAccount } from '../../../src/accounts/accounts.js';
import { buildApp, type BuildAppOptions } from '../../../src/http/app.js';
import type { PlanName } from '../../../src/accounts/plans.js';
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
  store: SqliteAccountsStore;
  engine: CountingEngine;
  clock: FakeClock;
  open(plan?: PlanName, openingCreditMicros?: number): Promise<OpenedAccount>;
  close(): Promise<void>;
}

export async function createHarness(
  options: { dbPath?: string; clock?: FakeClock; extra?: Partial<BuildAppOptions>; storeOptions?: SqliteAccountsStoreOptions } = {},
): Promise<Harness> {
  const store = new SqliteAccountsStore(options.dbPath ?? ':memory:', options.storeOptions);
  const engine = await createFixtureEngine();
  const clock = options.clock ?? new FakeClock();
  const app = await buildApp({ engine, accounts: store, clock: clock.now, ...options.extra });
  await app.ready();
  return {
    app,
    store,
    engine,
    clock,
    open: (plan = 'Enterprise', openingCreditMicros) =>
      openAccount(store, plan, { nowMs: clock.nowMs, ...(openingCreditMicros === undefined ? {} : { openingCreditMicros }) }),
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export function ledgerRows(store: SqliteAccountsStore, accountId: string): { request_id: string; kind: string; amount_micros: number }[] {
  return store.db
    .prepare('SELECT request_id, kind, amount_micros FROM ledger WHERE account_id = ? ORDER BY seq')
    .all(accountId) as { request_id: string; kind: string; amount_micros: number }[];
}
