/**
 * Every TypeBox schema the engine entry exports compiles in ajv (the package's own peer
 * dependency) once passed through the exported `plainSchema`, and the engine's real answers
 * on the bundled fixtures validate against them (audit 68c F3). As exported, the response
 * schemas carry nested `$id`s that ajv refuses ("reference "DayName" resolves to more than one
 * schema"). ajv is the oracle: an independent validator of the JSON the engine answers.
 */
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import * as entry from '../../src/index.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const KIND = Symbol.for('TypeBox.Kind');
/** The entry's exports that are TypeBox schemas, by name. */
const schemas = (Object.entries(entry) as [string, unknown][]).filter((pair): pair is [string, TSchema] => typeof pair[1] === 'object' && pair[1] !== null && KIND in pair[1]);
const { plainSchema } = entry;

// `strict: false` (TypeBox and OpenAPI annotations, as the service's own ajv) and ajv's defaults (strict).
const OPTIONS: readonly Options[] = [{ strict: false }, {}];

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('the exported schemas in ajv', () => {
  it('every exported schema compiles, alone and all in one ajv instance, with and without strict mode', () => {
    expect(schemas.map(([name]) => name)).toEqual(expect.arrayContaining(['SearchResponseSchema', 'FindResponseSchema', 'BasicDetailsSchema', 'AdvancedDetailsSchema', 'VenueRecordSchema', 'MenusResponseSchema']));
    for (const options of OPTIONS) {
      const shared = addFormats(new Ajv(options));
      for (const [name, schema] of schemas) {
        expect(() => addFormats(new Ajv(options)).compile(plainSchema(schema)), name).not.toThrow();
        expect(() => shared.compile(plainSchema(schema)), name).not.toThrow();
      }
    }
  });

  it("the engine's answers on the fixtures validate; a damaged answer does not", async () => {
    const { venues } = await entry.readVenues(fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url)));
    const engine = entry.createEngine(venues);
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const validator = (schema: TSchema) => ajv.compile(plainSchema(schema) as object);
    const check = (schema: TSchema, value: unknown): unknown => {
      const validate = validator(schema);
      return validate(json(value)) ? 'valid' : validate.errors;
    };

    const isVenue = validator(entry.VenueRecordSchema);
    expect(venues.filter((v) => !isVenue(json(v))).map((v) => v.id)).toEqual([]);

    const now = Date.parse('2026-11-27T20:00:00Z');
    const [lat, lon] = venues[0]!.location.coordinates;
    const search = engine.search({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 3000 } }, { now, limit: 20 });
    expect(search.establishments.length).toBeGreaterThan(0);
    expect(check(entry.SearchResponseSchema, search)).toBe('valid');
    const find = engine.find({ q: venues[0]!.name }, { now });
    expect(find.establishments.length).toBeGreaterThan(0);
    expect(check(entry.FindResponseSchema, find)).toBe('valid');
    for (const { id } of search.establishments.slice(0, 10)) {
      expect(check(entry.BasicDetailsSchema, engine.basic(id, { now })), id).toBe('valid');
      expect(check(entry.AdvancedDetailsSchema, engine.advanced(id, { now })), id).toBe('valid');
      expect(check(entry.MenusResponseSchema, engine.menus(id)), id).toBe('valid');
    }
    expect(check(entry.SearchVocabularySchema, engine.vocabulary())).toBe('valid');

    // the validators can fail: an answer missing a required key, or a wrong type, is refused
    const damaged = json(search) as { establishments: Record<string, unknown>[] };
    delete damaged.establishments[0]!.name;
    expect(check(entry.SearchResponseSchema, damaged)).not.toBe('valid');
    expect(isVenue({ ...json(venues[0]) as object, name: 42 })).toBe(false);
  });
});
