/**
 * The 200 response schemas of the venue routes, taken from the engine's schema modules (the
 * one source of those shapes): they serialize the answer (no field outside the schema can
 * leak) and document it in the OpenAPI file.
 */
import type { TSchema } from '@sinclair/typebox';
import { plainSchema } from '../plain-schema.js';
import { AdvancedDetailsSchema, BasicDetailsSchema, MenuListSchema } from '../../schema/details.js';
import { FindResponseSchema } from '../../schema/find.js';
import { SearchResponseSchema, SearchVocabularySchema } from '../../schema/search.js';

type ResponseSchemas = Readonly<Record<number, TSchema>>;

export const venueResponseSchemas: Readonly<Record<'search' | 'find' | 'basic' | 'advanced' | 'menus' | 'vocabulary', ResponseSchemas>> = {
  search: { 200: plainSchema(SearchResponseSchema) },
  find: { 200: plainSchema(FindResponseSchema) },
  basic: { 200: plainSchema(BasicDetailsSchema) },
  advanced: { 200: plainSchema(AdvancedDetailsSchema) },
  menus: { 200: plainSchema(MenuListSchema) },
  vocabulary: { 200: plainSchema(SearchVocabularySchema) },
};
