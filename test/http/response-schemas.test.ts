/**
 * responseSchema (plain-schema.ts) rewrites unions of string literals as enums for the
 * response serializers. Oracles: fast-json-stringify over the unrewritten plain schema (the
 * same bytes for real engine answers on the fixtures), and ajv over the unrewritten schema
 * (the same documents accepted and refused).
 */
import { Ajv } from 'ajv';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { plainSchema, responseSchema } from '../../src/schema/plain-schema.js';
import { AdvancedDetailsSchema } from '../../src/schema/details.js';
import { SearchResponseSchema, type SearchResponse } from '../../src/schema/search.js';
import { createFixtureEngine } from './support/fixture-engine.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

describe('responseSchema: unions of string literals as enums', () => {
  it('serializes 40 real POINT answers (opening hours with weekday unions, relaxed fields) to the same bytes as the unrewritten schema', async () => {
    const engine = await createFixtureEngine();
    const original = fastJson(plainSchema(SearchResponseSchema) as object);
    const rewritten = fastJson(responseSchema(SearchResponseSchema) as object);
    const ids = <SearchResponse>engine.search({ locations: [{ lat: 53.48, lon: -2.24 }], mode: { mode: 'POINT', maxDistance: 50_000 } }, { limit: 40, offset: 0, now: NOW });
    expect(ids.establishments.length).toBe(40);
    let withHours = 0;
    for (const venue of ids.establishments) {
      const [lat, lon] = venue.location.coordinates;
      const answer = <SearchResponse>engine.search(
        { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 1000 }, preferences: { openingConditions: { state: 'OPEN' }, vibes: ['cosy'] } },
        { limit: 20, offset: 0, now: NOW },
      );
      withHours += answer.establishments.filter((e) => e.regularOpeningHours.length > 0).length;
      expect(rewritten(answer)).toBe(original(answer));
    }
    expect(withHours).toBeGreaterThan(0);
  });

  it('accepts and refuses the same documents as the unrewritten schema (weekday "Mon" vs "Monday", relaxed field names)', async () => {
    const engine = await createFixtureEngine();
    const ajv = new Ajv({ strict: false });
    const originalCheck = ajv.compile(plainSchema(AdvancedDetailsSchema) as object);
    const rewrittenCheck = ajv.compile(responseSchema(AdvancedDetailsSchema) as object);
    const good = engine.advanced('fx-00000', { now: NOW }) as { regularOpeningHours: { days: string[] }[] };
    expect(good.regularOpeningHours.length).toBeGreaterThan(0);
    const bad = structuredClone(good);
    bad.regularOpeningHours[0]!.days[0] = 'Monday';
    for (const doc of [good, bad]) expect(rewrittenCheck(doc)).toBe(originalCheck(doc));
    expect(originalCheck(good)).toBe(true);
    expect(originalCheck(bad)).toBe(false);
    // no anyOf is left for the serializer to try branch by branch
    expect(JSON.stringify(responseSchema(SearchResponseSchema))).not.toMatch(/"anyOf"/);
    expect(JSON.stringify(plainSchema(SearchResponseSchema))).toMatch(/"anyOf"/);
  });
});
