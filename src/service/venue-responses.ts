/**
 * The 200 response schemas of the venue routes, taken from the engine's schema modules (the
 * one source of those shapes): they serialize the answer (no field outside the schema can
 * leak) and document it in the OpenAPI file. Unions of string literals are written as enums
 * (responseSchema in plain-schema.ts: the same documents, a much cheaper serializer).
 */
import type { TSchema } from '@sinclair/typebox';
import { plainSchema, responseSchema } from '../schema/plain-schema.js';
import { successHeaders } from './openapi-responses.js';
import { AdvancedDetailsSchema, BasicDetailsSchema, MenuListSchema } from '../schema/details.js';
import { FindResponseSchema } from '../schema/find.js';
import { SearchBodySchema, SearchResponseSchema, SearchVocabularySchema } from '../schema/search.js';

type ResponseSchemas = Readonly<Record<number, object>>;

/** The 200 entry: the schema, a description and the headers the answer carries (billed answers are `no-store`). */
function ok(schema: TSchema, description: string, noStore = true): ResponseSchemas {
  return { 200: { ...responseSchema(schema), description, headers: successHeaders({ noStore }) } };
}

export const venueResponseSchemas: Readonly<Record<'search' | 'find' | 'basic' | 'advanced' | 'menus' | 'vocabulary', ResponseSchemas>> = {
  search: ok(SearchResponseSchema, 'One page of the ranked venues.'),
  find: ok(FindResponseSchema, 'One page of the venues whose names match.'),
  basic: ok(BasicDetailsSchema, 'The basic details of the venue.'),
  advanced: ok(AdvancedDetailsSchema, 'The advanced details of the venue.'),
  menus: ok(MenuListSchema, 'The active menus of the venue.'),
  vocabulary: ok(SearchVocabularySchema, 'The accepted filter values.', false),
};

/**
 * The shapes the OpenAPI document names (`SearchResponse`, `SearchEstablishment`, `MatchScore`,
 * `DayName`, ...): every piece of the request and response schemas that carries an `$id`, in
 * both forms the routes inline it (plain for request bodies, with enums for responses), for
 * openapi-document.ts to refer to by name.
 */
export function namedSchemaForms(): Array<{ name: string; forms: object[] }> {
  const found = new Map<string, TSchema>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (value === null || typeof value !== 'object') return;
    const id = (value as { $id?: unknown }).$id;
    if (typeof id === 'string' && !found.has(id)) found.set(id, value as TSchema);
    Object.values(value).forEach(collect);
  };
  for (const root of [SearchBodySchema, SearchResponseSchema, FindResponseSchema, BasicDetailsSchema, AdvancedDetailsSchema, MenuListSchema, SearchVocabularySchema]) collect(root);
  return [...found].map(([name, schema]) => ({ name, forms: [plainSchema(schema), responseSchema(schema)] }));
}
