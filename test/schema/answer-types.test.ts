import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { BasicDetails } from '../../src/schema/details.js';
import type { FindResponse } from '../../src/schema/find.js';
import type { SearchEstablishment } from '../../src/schema/search.js';
import { loadFixtureVenues } from '../search/support.js';

/**
 * The declared response types say what the engine returns: an optional key may be present
 * holding `undefined` (src/schema/answer.ts). The project compiles with
 * `exactOptionalPropertyTypes`, as a strict consumer may, and `npm test` type-checks this file:
 * the assignments below compile only if the types allow `undefined` there. The runtime half
 * shows the keys are really present with `undefined` (the oracle: `in` and the value).
 */
describe('response types: optional keys may hold undefined, as they do at run time', () => {
  const engine = createEngine(loadFixtureVenues());

  it('find without a centre: searchLocation, maxDistanceMeters and resolvedPlace are present and undefined', () => {
    const answer = engine.find({ q: 'red lion' });
    for (const key of ['searchLocation', 'maxDistanceMeters', 'resolvedPlace'] as const) {
      expect(key in answer, key).toBe(true);
      expect(answer[key], key).toBeUndefined();
    }
    const typed: FindResponse = { ...answer, searchLocation: undefined, maxDistanceMeters: undefined, resolvedPlace: undefined };
    expect(typed.establishments).toBe(answer.establishments);
  });

  it('a POINT result: alongRouteMeters present and undefined; a venue without a logo: logo present and undefined', () => {
    const [first] = engine.search({ locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 3000 } }, { limit: 1 }).establishments;
    expect(first).toBeDefined();
    expect('alongRouteMeters' in first!).toBe(true);
    expect(first!.alongRouteMeters).toBeUndefined();
    const typed: SearchEstablishment = { ...first!, alongRouteMeters: undefined, logo: undefined, group: undefined };
    expect(typed.id).toBe(first!.id);
    const withoutLogo = loadFixtureVenues().find((v) => v.logo === undefined)!;
    const basic = engine.basic(withoutLogo.id);
    expect('logo' in basic).toBe(true);
    expect(basic.logo).toBeUndefined();
    const typedBasic: BasicDetails = { ...basic, logo: undefined, description: undefined };
    expect(typedBasic.id).toBe(withoutLogo.id);
  });
});
