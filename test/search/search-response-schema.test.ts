// Responses conform to the one response schema (what the HTTP adapter serialises with), for
// POINT and PATH, with and without preferences, labelled and unlabelled locations.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { SearchResponseSchema, SearchVocabularySchema } from '../../src/schema/search.js';
import { createSearchService } from '../../src/search/index.js';
import { loadFixtureVenues } from './support.js';

const venues = loadFixtureVenues();
const engine = createEngine(venues);
const service = createSearchService(engine.store, engine.spatial);
const check = TypeCompiler.Compile(SearchResponseSchema);
const NOW = Date.UTC(2026, 10, 21, 19, 0);
const soho = { lat: 51.5136, lon: -0.1365 };
const bodies = [
  { locations: [soho], mode: { mode: 'POINT', maxDistance: 800 } },
  {
    locations: [{ ...soho, label: 'amy', weight: 2 }, { lat: 51.5265, lon: -0.0787 }],
    mode: { mode: 'POINT', maxDistance: 3000 },
    preferences: { establishmentFilters: ['restaurant', 'freeWifi'], catersFilters: ['vegan'], vibes: ['romantic'], chainPreference: 'PREFER_INDEPENDENT', openingConditions: { state: 'OPEN' } },
  },
  {
    locations: [soho, { lat: 51.5117, lon: -0.124 }, { lat: 51.5265, lon: -0.0787 }],
    mode: { mode: 'PATH', maxDistance: 300 },
    preferences: { catersFilters: ['vegetarian'], nonCompromise: ['catersFilters'] },
  },
];

describe('search response schema', () => {
  it.each(bodies.map((b, k) => [k, b] as const))('response %i conforms to SearchResponseSchema', (_k, body) => {
    const res = service.search(body, { limit: 50, now: NOW });
    expect(res.establishments.length).toBeGreaterThan(0);
    const first = check.Errors(res).First();
    expect(first && `${first.path}: ${first.message}`).toBeUndefined();
  });

  it('PATH results carry alongRouteMeters, POINT results do not', () => {
    const point = service.search(bodies[0]!, { now: NOW });
    const path = service.search(bodies[2]!, { now: NOW });
    expect(point.establishments.every((e) => e.alongRouteMeters === undefined)).toBe(true);
    expect(path.establishments.every((e) => typeof e.alongRouteMeters === 'number')).toBe(true);
  });

  it('the vocabulary conforms to SearchVocabularySchema', () => {
    expect(TypeCompiler.Compile(SearchVocabularySchema).Check(service.vocabulary())).toBe(true);
  });
});
