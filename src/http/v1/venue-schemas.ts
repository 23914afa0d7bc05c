/**
 * The 200 response schemas of the venue routes, taken from the engine's schema modules (the
 * one source of those shapes): they serialize the answer (no field outside the schema can
 * leak) and document it in the OpenAPI file. Unions of string literals are written as enums
 * (responseSchema in plain-schema.ts: the same documents, a much cheaper serializer).
 */
import type { TSchema } from '@sinclair/typebox';
import { responseSchema } from '../plain-schema.js';
import { AdvancedDetailsSchema, BasicDetailsSchema, MenuListSchema } from '../../schema/details.js';
import { FindResponseSchema } from '../../schema/find.js';
import { SearchResponseSchema, SearchVocabularySchema } from '../../schema/search.js';

type ResponseSchemas = Readonly<Record<number, TSchema>>;

export const venueResponseSchemas: Readonly<Record<'search' | 'find' | 'basic' | 'advanced' | 'menus' | 'vocabulary', ResponseSchemas>> = {
  search: { 200: responseSchema(SearchResponseSchema) },
  find: { 200: responseSchema(FindResponseSchema) },
  basic: { 200: responseSchema(BasicDetailsSchema) },
  advanced: { 200: responseSchema(AdvancedDetailsSchema) },
  menus: { 200: responseSchema(MenuListSchema) },
  vocabulary: { 200: responseSchema(SearchVocabularySchema) },
};
