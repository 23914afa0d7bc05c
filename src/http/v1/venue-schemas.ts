/**
 * The 200 response schemas of the venue routes, from the engine's schema modules (the one
 * source of those shapes). A route whose entry is empty serializes with JSON.stringify and
 * documents no 200 body; every entry is filled once its schema module exists.
 */
import type { TSchema } from '@sinclair/typebox';

type ResponseSchemas = Readonly<Record<number, TSchema>>;

export const venueResponseSchemas: Readonly<Record<'search' | 'find' | 'basic' | 'advanced' | 'menus' | 'vocabulary', ResponseSchemas>> = {
  search: {},
  find: {},
  basic: {},
  advanced: {},
  menus: {},
  vocabulary: {},
};
