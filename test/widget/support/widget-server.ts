/**
 * The real service for the widget tests: the real engine over fixtures/venues.ndjson, an
 * in-memory accounts store, listening on 127.0.0.1 on a free port. One plan (Builder) gets a
 * tiny daily window so a test can drive a key over its limit; the others keep interface
 * section 8's windows.
 */
import type { FastifyInstance } from 'fastify';
import { readVenues } from '../../../src/data/read-venues.js';
import { createEngine, type Engine } from '../../../src/engine.js';
import { openAccount, type OpenedAccount } from '../../../src/accounts/accounts.js';
import { buildApp } from '../../../src/http/app.js';
import type { WidgetOptions } from '../../../src/widget/widget-page.js';
import type { VenueRecord } from '../../../src/schema/venue.js';
import { DAY_MS, planWindows, type PlanName } from '../../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../../src/accounts/sqlite-accounts-store.js';

export const FIXTURES = 'fixtures/venues.ndjson';
/** Requests per day a Builder key gets in these tests. */
export const TEST_BUILDER_DAILY_LIMIT = 2;

export interface WidgetServer {
  readonly base: string;
  readonly app: FastifyInstance;
  readonly engine: Engine;
  readonly store: SqliteAccountsStore;
  open(plan: PlanName): Promise<OpenedAccount>;
  close(): Promise<void>;
}

export interface WidgetServerOptions {
  readonly widget?: WidgetOptions;
  /** The venues file served (default FIXTURES). */
  readonly file?: string;
  /** Serve just the venues it keeps (a dataset elsewhere than Britain). */
  readonly only?: (venue: VenueRecord) => boolean;
  /** Serve each venue as it returns (a dataset that records less, e.g. an OpenStreetMap import). */
  readonly adapt?: (venue: VenueRecord) => VenueRecord;
  /** Every plan with its real windows (Builder: 1 a second, 300 a day), for the rate-limit tests. */
  readonly realPlanWindows?: boolean;
}

export async function startWidgetServer(options: WidgetServerOptions = {}): Promise<WidgetServer> {
  const { venues: all } = await readVenues(options.file ?? FIXTURES);
  const kept = options.only === undefined ? all : all.filter(options.only);
  const venues = options.adapt === undefined ? kept : kept.map(options.adapt);
  const engine = createEngine(venues, { validate: false }).warm();
  const store = new SqliteAccountsStore(':memory:');
  const app = await buildApp({
    engine,
    accounts: store,
    ...(options.widget === undefined ? {} : { widget: options.widget }),
    planWindows: (plan) => (plan === 'Builder' && options.realPlanWindows !== true ? [{ name: 'day', limit: TEST_BUILDER_DAILY_LIMIT, windowMs: DAY_MS }] : planWindows(plan)),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    base: `http://127.0.0.1:${address.port}`,
    app,
    engine,
    store,
    open: (plan) => openAccount(store, plan),
    async close() {
      await app.close();
      await store.close();
    },
  };
}
