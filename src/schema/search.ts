import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox';
import { CapitalLatLonSchema } from './common.js';
import { EstablishmentSchema } from './establishment.js';
import { UTC_TIMESTAMP_PATTERN } from './pattern-meanings.js';

/**
 * The search request (interface 4.1: body 2.1-2.3, query `limit`/`offset`) and response
 * (2.6). One schema each: the TypeScript type, the engine's runtime validation
 * (src/search/validate-request.ts) and the OpenAPI document come from here.
 * Limits are stated here and in docs/search.md; exceeding one is `limit_exceeded`.
 */

// The limits live in a module of their own (no TypeBox), so that the widget's page script
// reads the same numbers without bundling the schema library.
import { DEFAULT_LIMIT, MAX_FILTER_VALUES, MAX_LIMIT, MAX_LOCATIONS, MAX_OFFSET, MAX_PATH_DISTANCE_METERS, MAX_POINT_DISTANCE_METERS, MAX_WEIGHT, MIN_POSITIVE_WEIGHT } from './search-limits.js';
import type { Answer } from './answer.js';
export * from './search-limits.js';

/** Preference field names: the values `nonCompromise` may list. */
export const PREFERENCE_FIELDS = [
  'establishmentFilters',
  'catersFilters',
  'openingConditions',
  'vibes',
  'chainPreference',
] as const;
export type PreferenceField = (typeof PREFERENCE_FIELDS)[number];

export const OPENING_STATES = ['OPEN', 'CLOSED'] as const;
export const CHAIN_PREFERENCES = ['PREFER_INDEPENDENT', 'PREFER_CHAIN', 'NO_PREFERENCE'] as const;
export const SEARCH_MODES = ['POINT', 'PATH'] as const;
/** POINT ranking (issue 15): around the centroid, or by what each person must travel. */
export const FAIRNESS_MODES = ['CENTRE', 'MIN_MAX', 'MIN_TOTAL'] as const;
export type Fairness = (typeof FAIRNESS_MODES)[number];
/** A location's way of travelling; the speed model of each is in docs/search.md ("Travel"). */
export const TRAVEL_MODES = ['WALK', 'BICYCLE', 'DRIVE', 'TRANSIT'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];
/** Longest `openingConditions.stayMinutes` (a day). */
export const MAX_STAY_MINUTES = 1440;

/** A union of string literals whose static type is the union of the values. */
function literals<T extends readonly string[]>(values: T): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(values.map((v) => Type.Literal(v as T[number])));
}
/** A filter's values: each must be one GET /v1/vocabulary lists for that filter (the engine checks; the schema cannot). */
const FilterList = () =>
  Type.Array(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'One of the values GET /v1/vocabulary lists for this filter; any other value is a 400 `invalid_request` naming it.',
    }),
    { maxItems: MAX_FILTER_VALUES },
  );

export const LocationInputSchema = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude, degrees (WGS84).' }),
    lon: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude, degrees (WGS84).' }),
    weight: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_WEIGHT,
        description: `POINT: relative weight (default 1): 0, or a number from ${MIN_POSITIVE_WEIGHT} to ${MAX_WEIGHT} (a weight between 0 and ${MIN_POSITIVE_WEIGHT} is refused); at least one > 0.`,
      }),
    ),
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Key of this location in each result\'s `travel`. Unique: it may not equal another location\'s label, nor another location\'s index ("0", "1", ...: the key of an unlabelled location); else a 400 `invalid_request`.',
      }),
    ),
    travelMode: Type.Optional(
      Type.Union(
        TRAVEL_MODES.map((m) => Type.Literal(m)),
        { description: 'How this person travels (speed model in docs/search.md); unset: the fastest of walking, local and long-distance transport.' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type LocationInput = Static<typeof LocationInputSchema>;

export const SearchModeSchema = Type.Object(
  {
    mode: literals(SEARCH_MODES),
    maxDistance: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_POINT_DISTANCE_METERS,
      description: `Metres. POINT: radius (at most ${MAX_POINT_DISTANCE_METERS}); with MIN_MAX / MIN_TOTAL, the farthest any counted person may be from a venue. PATH: distance either side of the route (at most ${MAX_PATH_DISTANCE_METERS}).`,
    }),
    fairness: Type.Optional(
      Type.Union(
        FAIRNESS_MODES.map((m) => Type.Literal(m)),
        { description: 'POINT only. CENTRE (default): around the weighted midpoint. MIN_MAX: least longest weighted trip. MIN_TOTAL: least total weighted travel.' },
      ),
    ),
    quorum: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LOCATIONS,
        description: 'MIN_MAX / MIN_TOTAL only: count the k people with the lowest cost for each venue (1..number of locations; default all).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const OpeningConditionsSchema = Type.Object(
  {
    state: literals(OPENING_STATES),
    atTime: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: UTC_TIMESTAMP_PATTERN,
        description:
          'ISO 8601 UTC timestamp (`2026-11-21T20:00:00Z`) in the years 0100 to 9999: seconds and a fraction of up to 9 digits optional, zone `Z`, `+00:00` or `+0000` (`-00:00` and `-0000`, in RFC 3339 "UTC, local offset unknown", are read as UTC too); a leap second exists only as `23:59:60` and is the start of the next second. Beyond the pattern the server refuses (400) February 29 of a year that is not a leap year and `9999-12-31T23:59:60Z` (it would end in the year 10000). Default: now.',
      }),
    ),
    onArrival: Type.Optional(
      Type.Boolean({
        description: 'true: `atTime` (or now) is the departure; the state is read when the last counted person arrives (PATH: when the traveller reaches the venue).',
      }),
    ),
    stayMinutes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_STAY_MINUTES,
        description: 'With onArrival: the venue must stay open this many minutes after the arrival (default 0).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreferencesSchema = Type.Object(
  {
    establishmentFilters: Type.Optional(FilterList()),
    catersFilters: Type.Optional(FilterList()),
    nonCompromise: Type.Optional(Type.Array(literals(PREFERENCE_FIELDS), { maxItems: PREFERENCE_FIELDS.length * 2 })),
    openingConditions: Type.Optional(OpeningConditionsSchema),
    vibes: Type.Optional(FilterList()),
    chainPreference: Type.Optional(literals(CHAIN_PREFERENCES)),
  },
  { additionalProperties: false },
);
export type Preferences = Static<typeof PreferencesSchema>;

export const SearchBodySchema = Type.Object(
  {
    locations: Type.Array(LocationInputSchema, { minItems: 1, maxItems: MAX_LOCATIONS }),
    mode: SearchModeSchema,
    preferences: Type.Optional(PreferencesSchema),
  },
  { $id: 'SearchBody', additionalProperties: false },
);
export type SearchBody = Static<typeof SearchBodySchema>;

export const SearchQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
  },
  { $id: 'SearchQuery', additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuerySchema>;

/** Each part in [0, 1]; 1 where nothing was asked. Formula: docs/search.md. */
export const MatchScoreSchema = Type.Object(
  {
    genreMatch: Type.Number({ minimum: 0, maximum: 1 }),
    establishmentFiltersMatch: Type.Number({ minimum: 0, maximum: 1 }),
    catersFiltersMatch: Type.Number({ minimum: 0, maximum: 1 }),
    openingMatch: Type.Number({ minimum: 0, maximum: 1 }),
    vibesMatch: Type.Number({ minimum: 0, maximum: 1 }),
    chainMatch: Type.Number({ minimum: 0, maximum: 1 }),
    total: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { $id: 'MatchScore', additionalProperties: false },
);
export type MatchScore = Answer<Static<typeof MatchScoreSchema>>;

export const TravelEstimateSchema = Type.Object(
  {
    /** Straight-line WGS84 metres from the input location to the venue. */
    distanceMeters: Type.Number({ minimum: 0 }),
    /** Estimated minutes by the speed model of docs/search.md. */
    durationMinutes: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type TravelEstimate = Answer<Static<typeof TravelEstimateSchema>>;

/** POINT results: the trips of the people counted for this venue (docs/search.md, "Fair meeting points"). */
export const GroupSummarySchema = Type.Object(
  {
    /** Longest counted trip, minutes (the counted people's `travel[..].durationMinutes`). */
    maxMinutes: Type.Number({ minimum: 0 }),
    /** Sum of the counted trips, minutes. */
    totalMinutes: Type.Number({ minimum: 0 }),
    /** Longest minus shortest counted trip, minutes. */
    spreadMinutes: Type.Number({ minimum: 0 }),
    /** MIN_MAX / MIN_TOTAL: the group cost this venue is ranked by (weighted minutes), to 0.001. */
    cost: Type.Optional(Type.Number({ minimum: 0 })),
    /** Keys (as in `travel`) of the people counted, in input order. */
    counted: Type.Array(Type.String()),
  },
  { $id: 'GroupSummary', additionalProperties: false },
);
export type GroupSummary = Answer<Static<typeof GroupSummarySchema>>;

/** A pattern every string matches, line breaks included (`.` matches none of \n, \r, U+2028, U+2029). */
const ANY_STRING_PATTERN = '^[\\s\\S]*$';

export const SearchEstablishmentSchema = Type.Composite(
  [
    EstablishmentSchema,
    Type.Object({
      matchScore: MatchScoreSchema,
      /** PATH only: metres along the route to the venue's nearest point on it. */
      alongRouteMeters: Type.Optional(Type.Number({ minimum: 0 })),
      /**
       * Per input location, keyed by its `label` or else its index ("0", "1", ...). The key
       * pattern matches every string: TypeBox's default (`^.*$`) misses a label holding a line
       * break, which the response serializer then dropped (audit 60c).
       */
      travel: Type.Record(Type.String({ pattern: ANY_STRING_PATTERN }), TravelEstimateSchema),
      /** Soft preferences this venue does not fully meet (field names of `preferences`). */
      relaxed: Type.Array(literals(PREFERENCE_FIELDS)),
      /** POINT only: the counted people's trips (issue 15). */
      group: Type.Optional(GroupSummarySchema),
    }),
  ],
  { $id: 'SearchEstablishment' },
);
export type SearchEstablishment = Answer<Static<typeof SearchEstablishmentSchema>>;

/**
 * Set only on an empty answer that looks like a mistake: `lat_lon_swapped` when the centre is
 * away from the data and the centre with lat and lon exchanged is near it (docs/search.md,
 * "An empty answer's hint").
 */
export const SearchHintSchema = Type.Object(
  {
    code: Type.Literal('lat_lon_swapped'),
    message: Type.String(),
  },
  { additionalProperties: false, description: 'Why an empty answer may be a mistake in the request.' },
);
export type SearchHint = Answer<Static<typeof SearchHintSchema>>;

export const SearchResponseSchema = Type.Object(
  {
    centerPoint: CapitalLatLonSchema,
    radius: Type.Number({ minimum: 0 }),
    establishments: Type.Array(SearchEstablishmentSchema),
    /** Number of venues matching the request (all pages). */
    totalResults: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
    /**
     * POINT, only when no venue qualifies: the smallest `maxDistance` (metres, rounded up)
     * at which at least one venue passing the hard filters would; absent when none would
     * within the 50,000 m a request may ask.
     */
    smallestFeasibleMaxDistance: Type.Optional(Type.Integer({ minimum: 0 })),
    hint: Type.Optional(SearchHintSchema),
  },
  { $id: 'SearchResponse', additionalProperties: false },
);
export type SearchResponse = Answer<Static<typeof SearchResponseSchema>>;

export const SearchVocabularySchema = Type.Object(
  {
    establishmentFilters: Type.Array(Type.String()),
    catersFilters: Type.Array(Type.String()),
    vibes: Type.Array(Type.String()),
    chainPreference: Type.Array(Type.String()),
    openingStates: Type.Array(Type.String()),
    nonCompromise: Type.Array(Type.String()),
    modes: Type.Array(Type.String()),
  },
  { $id: 'SearchVocabulary', additionalProperties: false },
);
export type SearchVocabulary = Static<typeof SearchVocabularySchema>;
