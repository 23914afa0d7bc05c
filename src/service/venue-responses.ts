/**
 * The 200 response schemas of the venue routes, taken from the engine's schema modules (the
 * one source of those shapes): they serialize the answer (no field outside the schema can
 * leak) and document it in the OpenAPI file. Unions of string literals are written as enums
 * (responseSchema in plain-schema.ts: the same documents, a much cheaper serializer).
 */
import type { TSchema } from '@sinclair/typebox';
import { responseSchema } from '../schema/plain-schema.js';
import { successHeaders } from './openapi-responses.js';
import { AdvancedDetailsSchema, BasicDetailsSchema, MenuListSchema } from '../schema/details.js';
import { FindResponseSchema } from '../schema/find.js';
import { SearchResponseSchema, SearchVocabularySchema } from '../schema/search.js';

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
