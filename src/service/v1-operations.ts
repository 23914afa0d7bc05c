/**
 * The operations of version 1 of the interface as their route schemas: what each validates
 * (query, body, path), how each answer is serialised, and how each is documented in
 * openapi.json (operationId, summary, the error statuses it can answer, its security). The
 * HTTP routes (src/http/v1/routes.ts) mount them; this is their one description.
 */
import { FindQuerySchema } from '../schema/find.js';
import { plainSchema } from '../schema/plain-schema.js';
import { SearchBodySchema, SearchQuerySchema } from '../schema/search.js';
import { BalancesRangeSchema, BalancesResponseSchema, NoQuerySchema, VenueIdParamsSchema } from './api-schemas.js';
import { errorResponses, successHeaders } from './openapi-responses.js';
import { venueResponseSchemas } from './venue-responses.js';

const security = [{ ApiKey: [] }];

/** A route's response entries: status (or `4xx`/`5xx`) to its schema, description and headers. */
type Responses = Readonly<Record<string, object>>;

function responses(...parts: Responses[]): Responses {
  return Object.assign({}, ...parts) as Responses;
}

/** The 200 of the balance routes: the balances shape, its headers (never cached). */
const BALANCES_OK: object = { ...BalancesResponseSchema, description: 'Balance and usage.', headers: successHeaders({ noStore: true }) };

/** The schema of one venue-details operation (`basic`, `advanced`, `menus`). */
function detailsOperation(kind: 'basic' | 'advanced' | 'menus', operationId: string) {
  return {
    operationId,
    summary: `The ${kind} ${kind === 'menus' ? 'of a venue (active menus)' : 'details of a venue'}`,
    params: VenueIdParamsSchema,
    querystring: NoQuerySchema,
    response: responses(venueResponseSchemas[kind], errorResponses(400, 401, 402, 403, 404, 429)),
    security,
  };
}

export const V1_OPERATIONS = {
  search: {
    operationId: 'searchVenues',
    summary: 'Search venues around a group (POINT) or along a route (PATH)',
    querystring: plainSchema(SearchQuerySchema),
    body: plainSchema(SearchBodySchema),
    response: responses(venueResponseSchemas.search, errorResponses(400, 401, 402, 403, 413, 415, 429)),
    security,
  },
  find: {
    operationId: 'findVenues',
    summary: 'Find venues by name, optionally near a point or a named place',
    description:
      'A search term is required (`q`, or its alias `name`). With a centre (`lat` and `lon`, or a `location` name, not both) results lie within `maxDistanceMeters` (default 5000) and come nearest first; without one, best match first. An unknown parameter is a 400 naming it.',
    querystring: plainSchema(FindQuerySchema),
    response: responses(venueResponseSchemas.find, errorResponses(400, 401, 402, 403, 429)),
    security,
  },
  basic: detailsOperation('basic', 'getBasicDetails'),
  advanced: detailsOperation('advanced', 'getAdvancedDetails'),
  menus: detailsOperation('menus', 'getMenus'),
  vocabulary: {
    operationId: 'getVocabulary',
    summary: 'The filter vocabularies search accepts (free of charge)',
    querystring: NoQuerySchema,
    response: responses(venueResponseSchemas.vocabulary, errorResponses(400, 401, 403, 429)),
    security,
  },
  balances: {
    operationId: 'getBalances',
    summary: 'Balance and usage since the account opened (free)',
    querystring: NoQuerySchema,
    response: responses({ 200: BALANCES_OK }, errorResponses(400, 401, 403, 429)),
    security,
  },
  balancesOverRange: {
    operationId: 'getBalancesOverRange',
    summary: 'Balance and usage over [from, to) (free; changes nothing)',
    querystring: NoQuerySchema,
    body: BalancesRangeSchema,
    response: responses({ 200: BALANCES_OK }, errorResponses(400, 401, 403, 413, 415, 429)),
    security,
  },
};
