/**
 * Request and response schemas the HTTP layer owns: errors, path ids, balances. The venue
 * requests and responses (search, find, details) come from src/schema, their one source.
 * Each schema validates input, serializes output and feeds the OpenAPI document.
 * Every number has finite bounds; unknown parameters are rejected (`additionalProperties: false`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { BILLABLE_KINDS, PLAN_NAMES } from '../accounts/plans.js';

/** The error groups, as Stripe groups them; each catalogue code has one (src/http/http-errors.ts). */
export const ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'rate_limit_error', 'api_error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ErrorEnvelopeSchema = Type.Object(
  {
    message: Type.String(),
    type: Type.Union(ERROR_TYPES.map((t) => Type.Literal(t))),
    code: Type.String(),
    param: Type.Optional(Type.String()),
    suggestions: Type.Optional(
      Type.Array(Type.String(), {
        description: 'unknown_place only: known place names to offer instead, best first (names close in spelling, or the name qualified by each area it is in: "St Ives, Cornwall"); each resolves as `location`.',
      }),
    ),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false, description: 'The one error body of every endpoint.' },
);
/** `{message, type, code}` plus `param` when one request parameter is at fault (CONTRACT "HTTP errors"). */
export interface ErrorEnvelope {
  message: string;
  type: ErrorType;
  code: string;
  param?: string;
  /** unknown_place: the resolver's suggestions (UnknownPlaceError.suggestions). */
  suggestions?: string[];
}

/** How a route's response entry refers to the envelope (buildApp adds it with `addSchema`). */
export const ERROR_ENVELOPE_REF = 'ErrorEnvelope#';

/** The query of a route that takes no query parameter: any parameter is unknown, a 400. */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false });

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
