import { Type, type Static } from '@sinclair/typebox';
import { CapitalLatLonSchema } from './common.js';
import { EstablishmentSchema } from './establishment.js';
import type { Answer } from './answer.js';

/** Longest accepted search term, characters. */
export const MAX_FIND_QUERY_LENGTH = 200;
/** Default and upper bound of the find radius, metres. */
export const DEFAULT_FIND_DISTANCE_METERS = 5000;
export const MAX_FIND_DISTANCE_METERS = 100_000;
/** Paging of find results (same bounds as search's `limit`). */
export const DEFAULT_FIND_LIMIT = 20;
export const MAX_FIND_LIMIT = 100;
export const MAX_FIND_OFFSET = 10_000;

/**
 * Query of GET /v1/find (interface 4.2). `q` is the term; `name` an alias (both given and
 * different: 400). `lat`/`lon` together, or `location` (a place name), give a centre.
 */
export const FindQuerySchema = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_FIND_QUERY_LENGTH, description: 'The search term: whole or partial names, case- and accent-insensitive, a small typo tolerated. Required, as `q` or its alias `name`, with at least one letter or digit (punctuation and emoji are not words: a 400).', examples: ['red lion'] })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_FIND_QUERY_LENGTH, description: 'Alias of `q`; both given and different is a 400.' })),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Latitude of a centre; requires `lon`, excludes `location`. Results are then within `maxDistanceMeters`, nearest first.' })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Longitude of a centre; requires `lat`, excludes `location`.' })),
    location: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_FIND_QUERY_LENGTH, description: 'A place name or UK postcode district resolved to a centre (`resolvedPlace` in the answer); excludes `lat`/`lon`. Unknown: 400 `unknown_place`.', examples: ['Soho'] })),
    maxDistanceMeters: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_FIND_DISTANCE_METERS, description: `Radius around the centre, metres; ${DEFAULT_FIND_DISTANCE_METERS} when a centre is given and this is not. Ignored without a centre.` })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FIND_LIMIT, default: DEFAULT_FIND_LIMIT, description: 'Page size.' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_FIND_OFFSET, default: 0, description: 'Results skipped.' })),
  },
  { $id: 'FindQuery', additionalProperties: false },
);
export type FindQuery = Static<typeof FindQuerySchema>;

/**
 * A find result: the establishment record (2.4) without `matchScore`; `distanceMeters`
 * is present exactly when the find had a centre (no distance is invented without one).
 */
export const FindEstablishmentSchema = Type.Composite(
  [Type.Omit(EstablishmentSchema, ['distanceMeters']), Type.Object({ distanceMeters: Type.Optional(Type.Number({ minimum: 0 })) })],
  { $id: 'FindEstablishment', additionalProperties: false },
);
export type FindEstablishment = Answer<Static<typeof FindEstablishmentSchema>>;

/** Where a `location` name was resolved to (present only when `location` was given). */
/** The most other places of a name an answer lists (`resolvedPlace.otherPlaces`). */
export const MAX_OTHER_PLACES = 3;

export const ResolvedPlaceSchema = Type.Object(
  {
    name: Type.String(),
    kind: Type.String(),
    Lat: Type.Number(),
    Lon: Type.Number(),
    approximate: Type.Optional(
      Type.Boolean({ description: 'true when the point is an estimate for a postcode district rather than the place\'s own point (docs/find.md, "Place names"); absent otherwise.' }),
    ),
    area: Type.Optional(Type.String({ minLength: 1, description: 'When the name means several places: the area this one is told by ("Wales" for "Newport"); absent otherwise.' })),
    otherPlaces: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: MAX_OTHER_PLACES,
        description: 'When the name means several places: the others (up to 3, the most prominent first), each written so that, given as `location`, it resolves to that place ("Newport, Isle of Wight"); absent otherwise.',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Set only on an empty find without a centre whose `q` holds a place after `near`, `in`,
 * `around`, `by`, `at`, `close to`, `next to` or `nr` ("red lion near Islington"): the request that asks it as the interface
 * does, `q` the words before and `location` the place (docs/find.md, "A place in q").
 */
export const FindHintSchema = Type.Object(
  {
    code: Type.Literal('place_in_query'),
    message: Type.String(),
    q: Type.String({ minLength: 1 }),
    location: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false, description: 'Why an empty answer may be a mistake in the request, and the request to make instead.' },
);
export type FindHint = Answer<Static<typeof FindHintSchema>>;

/**
 * Find response (2.7). `searchLocation` and `maxDistanceMeters` are present exactly when
 * there was a centre; `limit`/`offset` echo the page. In the engine's own answer an absent
 * optional key holds `undefined` (one object shape, src/find/find.ts findResponse), which
 * JSON omits.
 */
export const FindResponseSchema = Type.Object(
  {
    establishments: Type.Array(FindEstablishmentSchema),
    searchQuery: Type.String(),
    totalFound: Type.Integer({ minimum: 0 }),
    searchLocation: Type.Optional(CapitalLatLonSchema),
    maxDistanceMeters: Type.Optional(Type.Number({ minimum: 0 })),
    resolvedPlace: Type.Optional(ResolvedPlaceSchema),
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
    hint: Type.Optional(FindHintSchema),
  },
  { $id: 'FindResponse', additionalProperties: false },
);
export type FindResponse = Answer<Static<typeof FindResponseSchema>>;
