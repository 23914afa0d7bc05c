/**
 * A small engine double for the adapter's tests ONLY (never shipped): it behaves like the
 * real engine at the boundary the adapter sees (synchronous calls, VenueSearchError with
 * codes and params) over a hand-written list of three venues, and counts its calls so tests
 * can prove that a refused request never reached the engine.
 */
import { VenueSearchError } from '../../../src/errors.js';
import type { EngineLike, FindParams } from '../../../src/http/engine-like.js';

export const FAKE_VENUES = [
  { id: 'v-1', name: 'The Lamb', lat: 51.5226, lon: -0.1187 },
  { id: 'v-2', name: 'Lamb and Flag', lat: 51.5119, lon: -0.1262 },
  { id: 'v-3', name: 'Monmouth Coffee', lat: 51.5143, lon: -0.1269 },
] as const;

export interface FakeEngine extends EngineLike {
  readonly calls: { search: number; find: number; basic: number; advanced: number; menus: number; vocabulary: number };
  lastSearchOptions: { limit?: number; offset?: number; now?: number } | undefined;
}

function venue(id: string): (typeof FAKE_VENUES)[number] {
  const found = FAKE_VENUES.find((v) => v.id === id);
  if (found === undefined) throw new VenueSearchError('venue_not_found', `no venue with id ${JSON.stringify(id)}`, { param: 'id', value: id });
  return found;
}

export function createFakeEngine(): FakeEngine {
  const calls = { search: 0, find: 0, basic: 0, advanced: 0, menus: 0, vocabulary: 0 };
  const engine: FakeEngine = {
    calls,
    lastSearchOptions: undefined,
    search(body, options) {
      calls.search++;
      engine.lastSearchOptions = options;
      const b = body as { locations?: unknown; mode?: { maxDistance?: unknown } } | null;
      if (b === null || typeof b !== 'object' || !Array.isArray(b.locations) || b.locations.length === 0) {
        throw new VenueSearchError('invalid_request', 'locations must be a non-empty array', { param: 'locations', value: b?.locations });
      }
      if (typeof b.mode?.maxDistance !== 'number' || b.mode.maxDistance > 50_000) {
        throw new VenueSearchError('limit_exceeded', 'mode.maxDistance must be at most 50000', { param: 'mode.maxDistance', value: b.mode?.maxDistance });
      }
      return {
        centerPoint: { Lat: 51.5, Lon: -0.12 },
        radius: b.mode.maxDistance,
        establishments: FAKE_VENUES.slice(options.offset ?? 0, (options.offset ?? 0) + (options.limit ?? 20)).map((v) => ({ id: v.id, name: v.name })),
      };
    },
    find(params: FindParams) {
      calls.find++;
      if (params.location === 'Atlantis') {
        throw new VenueSearchError('unknown_place', 'location "Atlantis" is not a known place', { param: 'location', value: params.location });
      }
      const term = (params.q ?? params.name ?? '').toLowerCase();
      const hits = FAKE_VENUES.filter((v) => v.name.toLowerCase().includes(term));
      return {
        establishments: hits.map((v) => ({ id: v.id, name: v.name, distanceMeters: 0 })),
        searchQuery: term,
        totalFound: hits.length,
        searchLocation: { Lat: params.lat ?? 51.5, Lon: params.lon ?? -0.12 },
        maxDistanceMeters: params.maxDistanceMeters ?? 5000,
      };
    },
    basic(id) {
      calls.basic++;
      const v = venue(id);
      return { id: v.id, name: v.name };
    },
    advanced(id) {
      calls.advanced++;
      const v = venue(id);
      return { id: v.id, name: v.name, photos: [] };
    },
    menus(id) {
      calls.menus++;
      venue(id);
      return [{ name: 'Lunch', sections: [] }];
    },
    vocabulary() {
      calls.vocabulary++;
      return { establishmentFilters: ['restaurant', 'coffee_shop'], catersFilters: ['vegan'] };
    },
  };
  return engine;
}
