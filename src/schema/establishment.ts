import { Type, type Static } from '@sinclair/typebox';
import { LatLonPointSchema, WeeklyHoursSchema } from './common.js';
import type { Answer } from './answer.js';

/**
 * The establishment record of search and find results (interface 2.4). Built per result
 * from the stored venue; `isOpen` and `distanceMeters` are computed for the query.
 * `matchScore` and the other search-only parts are added by the search response schema.
 */
export const EstablishmentSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    displayName: Type.String(),
    formattedAddress: Type.Optional(Type.String()),
    location: LatLonPointSchema,
    websiteUri: Type.Optional(Type.String()),
    contactEmail: Type.Optional(Type.String()),
    contactNumber: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    primaryGenre: Type.Optional(Type.String()),
    additionalGenres: Type.Array(Type.String()),
    wordOnTheStreet: Type.Optional(Type.String()),
    /** Unknown hours give `false` here; see docs/search.md for the "unknown" rule. */
    isOpen: Type.Boolean(),
    isChain: Type.Boolean(),
    regularOpeningHours: WeeklyHoursSchema,
    mainImageUrl: Type.Optional(Type.String()),
    logo: Type.Optional(Type.String()),
    establishmentFlags: Type.Array(Type.String()),
    catersFlags: Type.Array(Type.String()),
    /** Metres from the search centre (POINT), the route (PATH) or the find centre. */
    distanceMeters: Type.Number({ minimum: 0 }),
  },
  { $id: 'Establishment' },
);
export type Establishment = Answer<Static<typeof EstablishmentSchema>>;
