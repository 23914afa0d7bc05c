/**
 * Request and response schemas the HTTP layer owns (the venue shapes come from src/schema).
 * Each schema validates input, serializes output and feeds the OpenAPI document.
 * Every number has finite bounds; unknown parameters are rejected (`additionalProperties: false`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { BILLABLE_KINDS, PLAN_NAMES } from '../plans.js';

export const ErrorEnvelopeSchema = Type.Object(
  {
    message: Type.String(),
    type: Type.Union(
      ['invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'rate_limit_error', 'api_error'].map((t) =>
        Type.Literal(t),
      ),
    ),
    code: Type.String(),
    param: Type.Optional(Type.String()),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false, description: 'The one error body of every endpoint.' },
);

/** Largest `offset` accepted: paging deeper than this is not a use case of a venue search. */
export const MAX_OFFSET = 10_000;

export const SearchQuerySchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size; billed per started group of 20.' }),
    offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Results skipped.' }),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuerySchema>;

/** Half the Earth's equatorial circumference: no two points are farther apart, metres. */
const MAX_EARTH_DISTANCE_M = 20_037_509;

export const FindQuerySchema = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The name searched (full or partial).' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Alias of q.' })),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    location: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A place name, e.g. "Shoreditch".' })),
    maxDistanceMeters: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_EARTH_DISTANCE_M, description: 'Default 5000.' })),
  },
  { additionalProperties: false },
);
export type FindQuery = Static<typeof FindQuerySchema>;

export const VenueIdParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200, description: 'A venue id from search or find results.' }) },
  { additionalProperties: false },
);
export type VenueIdParams = Static<typeof VenueIdParamsSchema>;

const UsageEntrySchema = Type.Object(
  {
    requests: Type.Integer({ minimum: 0, description: 'Charged (successful) requests.' }),
    costMicros: Type.Integer({ minimum: 0, description: 'Their total cost, micro-GBP.' }),
  },
  { additionalProperties: false },
);

export const BalancesResponseSchema = Type.Object(
  {
    accountId: Type.String(),
    plan: Type.Union(PLAN_NAMES.map((p) => Type.Literal(p))),
    currency: Type.Literal('GBP'),
    balanceMicros: Type.Integer({ minimum: 0, description: '1 GBP = 1,000,000 micros.' }),
    usage: Type.Object(Object.fromEntries(BILLABLE_KINDS.map((k) => [k, UsageEntrySchema])) as Record<(typeof BILLABLE_KINDS)[number], typeof UsageEntrySchema>, {
      additionalProperties: false,
    }),
  },
  { additionalProperties: false },
);
export type BalancesResponse = Static<typeof BalancesResponseSchema>;

export const BalancesRangeSchema = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'Start of the range, inclusive (ISO 8601 with time zone).' }),
    to: Type.String({ format: 'date-time', description: 'End of the range, exclusive.' }),
  },
  { additionalProperties: false },
);
export type BalancesRange = Static<typeof BalancesRangeSchema>;
