/**
 * Version 1 of the public interface, mounted under `/v1`. A future `/v2` is another plugin
 * beside this one; nothing here knows about the prefix except the OpenAPI filter.
 *
 * Every route except the OpenAPI document and the 405 answers runs the guard (key, permission,
 * rate limit). Venue routes are billed through `serveCharged` (check, serve, charge).
 */
import type {} from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, HTTPMethods } from 'fastify';
import type { AccountsStore } from '../../accounts/accounts-store.js';
import { serveCharged } from '../billing.js';
import type { EngineLike, FindParams } from '../engine-like.js';
import { createGuard, principalOf } from '../guard.js';
import { HttpError, invalidParam } from '../http-errors.js';
import { priceMicros, type PlanName, type RateWindow } from '../../accounts/plans.js';
import { plainSchema } from '../plain-schema.js';
import { finiteQueryNumbers } from '../validation.js';
import { venueResponseSchemas } from './venue-schemas.js';
import { FindQuerySchema } from '../../schema/find.js';
import { DEFAULT_LIMIT, SearchBodySchema, SearchQuerySchema } from '../../schema/search.js';
import { errorResponses, successHeaders } from './error-responses.js';
import { publishedDocument } from './openapi-document.js';
import { BalancesRangeSchema, BalancesResponseSchema, NoQuerySchema, VenueIdParamsSchema, type BalancesResponse } from './schemas.js';

export interface V1Dependencies {
  readonly engine: EngineLike;
  readonly accounts: AccountsStore;
  /** ms since the epoch; drives rate windows, ledger timestamps and the engine's `now`. */
  readonly clock: () => number;
  /** The rate windows of each plan (interface section 8 unless overridden). */
  readonly planWindows: (plan: PlanName) => readonly RateWindow[];
  /**
   * The service's public base URL for the OpenAPI document's `servers` (`https://api.example.com`).
   * Default: the scheme and Host of the request that fetched the document.
   */
  readonly publicUrl?: string | undefined;
}

export const V1_PREFIX = '/v1';

const OPERATION_IDS = { basic: 'getBasicDetails', advanced: 'getAdvancedDetails', menus: 'getMenus' } as const;

const ALL_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const security = [{ ApiKey: [] }];

/** The 200 of the balance routes: the balances shape, its headers (never cached). */
const BALANCES_OK = { ...BalancesResponseSchema, description: 'Balance and usage.', headers: successHeaders({ noStore: true }) };

export function v1Routes(deps: V1Dependencies): FastifyPluginAsync {
  const { engine, accounts, clock } = deps;
  return async function v1(plugin: FastifyInstance): Promise<void> {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', createGuard(accounts, clock, deps.planWindows));
    const methodsByUrl = new Map<string, Set<HTTPMethods>>();
    const track = (method: HTTPMethods, url: string): void => {
      const set = methodsByUrl.get(url) ?? new Set<HTTPMethods>();
      set.add(method);
      methodsByUrl.set(url, set);
    };

    track('POST', '/search/');
    app.post(
      '/search/',
      {
        schema: {
          operationId: 'searchVenues',
          summary: 'Search venues around a group (POINT) or along a route (PATH)',
          querystring: plainSchema(SearchQuerySchema),
          body: plainSchema(SearchBodySchema),
          response: { ...venueResponseSchemas.search, ...errorResponses(400, 401, 402, 403, 413, 415, 429) },
          security,
        },
        preValidation: finiteQueryNumbers(SearchQuerySchema),
      },
      async (request, reply) => {
        // ajv fills the schema's defaults in; the fallback only satisfies the optional type
        const { limit = DEFAULT_LIMIT, offset = 0 } = request.query;
        await serveCharged(accounts, clock, request, reply, 'search', priceMicros('search', limit), () =>
          engine.search(request.body, { limit, offset, now: clock() }),
        );
      },
    );

    track('GET', '/find');
    app.get(
      '/find',
      {
        schema: {
          operationId: 'findVenues',
          summary: 'Find venues by name, optionally near a point or a named place',
          querystring: plainSchema(FindQuerySchema),
          response: { ...venueResponseSchemas.find, ...errorResponses(400, 401, 402, 429) },
          security,
        },
        preValidation: finiteQueryNumbers(FindQuerySchema),
      },
      async (request, reply) => {
        const params: FindParams = {};
        for (const [key, value] of Object.entries(request.query)) {
          if (value !== undefined) (params as Record<string, unknown>)[key] = value;
        }
        await serveCharged(accounts, clock, request, reply, 'find', priceMicros('find'), () => engine.find(params, { now: clock() }));
      },
    );

    for (const kind of ['basic', 'advanced', 'menus'] as const) {
      const url = `/establishments/${kind}/:id`;
      track('GET', url);
      app.get(
        url,
        {
          schema: {
            operationId: OPERATION_IDS[kind],
            summary: `The ${kind} ${kind === 'menus' ? 'of a venue (active menus)' : 'details of a venue'}`,
            params: VenueIdParamsSchema,
            querystring: NoQuerySchema,
            response: { ...venueResponseSchemas[kind], ...errorResponses(400, 401, 402, 404, 429) },
            security,
          },
        },
        async (request, reply) => {
          const id = request.params.id;
          await serveCharged(accounts, clock, request, reply, kind, priceMicros(kind), () =>
            kind === 'menus' ? engine.menus(id) : engine[kind](id, { now: clock() }),
          );
        },
      );
    }

    track('GET', '/vocabulary');
    app.get(
      '/vocabulary',
      {
        schema: {
          operationId: 'getVocabulary',
          summary: 'The filter vocabularies search accepts (free of charge)',
          querystring: NoQuerySchema,
          response: { ...venueResponseSchemas.vocabulary, ...errorResponses(400, 401, 403, 429) },
          security,
        },
      },
      async (_request, reply) => {
        (reply as FastifyReply).send(engine.vocabulary());
      },
    );

    const balances = async (accountId: string, range?: { fromMs: number; toMs: number }): Promise<BalancesResponse> => {
      const account = await accounts.getAccount(accountId);
      if (account === undefined) throw new HttpError('invalid_api_key', 'the account of this key no longer exists');
      const usage = await accounts.usage(accountId, range);
      return { accountId, plan: account.plan, currency: 'GBP', balanceMicros: account.balanceMicros, usage };
    };

    track('GET', '/business/balances');
    app.get(
      '/business/balances',
      {
        schema: {
          operationId: 'getBalances',
          summary: 'Balance and usage since the account opened (free)',
          querystring: NoQuerySchema,
          response: { 200: BALANCES_OK, ...errorResponses(400, 401, 429) },
          security,
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return balances(principalOf(request).accountId);
      },
    );

    track('POST', '/business/balances');
    app.post(
      '/business/balances',
      {
        schema: {
          operationId: 'getBalancesOverRange',
          summary: 'Balance and usage over [from, to) (free; changes nothing)',
          querystring: NoQuerySchema,
          body: BalancesRangeSchema,
          response: { 200: BALANCES_OK, ...errorResponses(400, 401, 413, 415, 429) },
          security,
        },
      },
      async (request, reply) => {
        const fromMs = Date.parse(request.body.from);
        const toMs = Date.parse(request.body.to);
        if (!(toMs >= fromMs)) throw invalidParam('to', request.body.to, `an instant not before from (${request.body.from})`);
        reply.header('cache-control', 'no-store');
        return balances(principalOf(request).accountId, { fromMs, toMs });
      },
    );

    let published: Record<string, unknown> | undefined;
    app.get('/openapi.json', { config: { public: true }, schema: { hide: true, querystring: NoQuerySchema } }, async (request, reply) => {
      published ??= publishedDocument(plugin.swagger(), { prefix: V1_PREFIX });
      const serverUrl = deps.publicUrl ?? `${request.protocol}://${request.host}`;
      reply.header('cache-control', 'no-cache');
      return { ...published, servers: [{ url: serverUrl, description: 'This service' }] };
    });

    // Known path, wrong method: 405 with Allow, before any key check (the path exists for everyone).
    for (const [url, methods] of methodsByUrl) {
      const others = ALL_METHODS.filter((m) => !methods.has(m));
      const allow = [...methods].join(', ');
      app.route({
        method: others,
        url,
        config: { public: true },
        schema: { hide: true },
        handler: async (request) => {
          throw new HttpError('method_not_allowed', `${request.method} is not allowed on this path; allowed: ${allow}`, undefined, {
            allow,
          });
        },
      });
    }
  };
}
