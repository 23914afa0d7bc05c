/**
 * The engine the adapter tests run against: the project's real engine (`createEngine`) over
 * the bundled fixtures (fixtures/venues.ndjson), wrapped with call counters so a test can
 * prove that a refused request never reached the engine. Loaded once per test file.
 */
import { readVenues } from '../../../src/data/read-venues.js';
import { createEngine } from '../../../src/engine.js';
import type { EngineLike } from '../../../src/service/engine-like.js';
import type { VenueRecord } from '../../../src/schema/venue.js';

export const FIXTURES = 'fixtures/venues.ndjson';

export interface CountingEngine extends EngineLike {
  readonly calls: { search: number; find: number; basic: number; advanced: number; menus: number; vocabulary: number };
  readonly venues: readonly VenueRecord[];
  /** The options of the last search call, as the adapter passed them. */
  lastSearchOptions: { limit?: number; offset?: number; now?: number } | undefined;
  lastNow: number | undefined;
  /** Sets every call counter back to zero (between tests sharing one app). */
  resetCalls(): void;
}

interface Services {
  venues: VenueRecord[];
  engine: EngineLike;
}

let loaded: Promise<Services> | undefined;

async function load(): Promise<Services> {
  const { venues } = await readVenues(FIXTURES);
  return { venues, engine: createEngine(venues, { validate: false }).warm() };
}

/** A fresh counting wrapper over the shared fixture services. */
export async function createFixtureEngine(): Promise<CountingEngine> {
  loaded ??= load();
  const { venues, engine } = await loaded;
  const calls = { search: 0, find: 0, basic: 0, advanced: 0, menus: 0, vocabulary: 0 };
  const counting: CountingEngine = {
    calls,
    venues,
    lastSearchOptions: undefined,
    lastNow: undefined,
    resetCalls() {
      for (const key of Object.keys(calls) as (keyof typeof calls)[]) calls[key] = 0;
    },
    search(body, options) {
      calls.search++;
      counting.lastSearchOptions = options;
      return engine.search(body, options);
    },
    find(params, options) {
      calls.find++;
      counting.lastNow = options?.now;
      return engine.find(params, options);
    },
    basic(id, options) {
      calls.basic++;
      counting.lastNow = options?.now;
      return engine.basic(id, options);
    },
    advanced(id, options) {
      calls.advanced++;
      counting.lastNow = options?.now;
      return engine.advanced(id, options);
    },
    menus(id) {
      calls.menus++;
      return engine.menus(id);
    },
    vocabulary() {
      calls.vocabulary++;
      return engine.vocabulary();
    },
    venueExtent() {
      return engine.venueExtent?.();
    },
  };
  return counting;
}
