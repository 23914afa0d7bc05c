/**
 * Version 1 of the public interface, mounted under `/v1`. A future `/v2` is another plugin
 * beside this one; nothing here knows about the prefix except the OpenAPI filter. The
 * operations' schemas (validation, serialisation, documentation): src/service/v1-operations.ts.
 *
 * Every route except the OpenAPI document runs the guard (key, permission, rate limit); a
 * known path asked with another method is a 405 before any key check (method-not-allowed.ts). Venue routes are billed through `serveCharged` (check, serve, charge).
 */
import type {} from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AccountsStore, TimeRange } from '../../accounts/accounts-store.js';
import { balancesOf, type Balances } from '../../accounts/balances.js';
import { priceMicros, type PlanName, type RateWindow } from '../../accounts/plans.js';
import { FindQuerySchema } from '../../schema/find.js';
import { DEFAULT_LIMIT, SearchQuerySchema } from '../../schema/search.js';
import { NoQuerySchema } from '../../service/api-schemas.js';
import type { EngineLike, FindParams } from '../../service/engine-like.js';
import { publishedDocument } from '../../service/openapi-document.js';
import { namedSchemaForms } from '../../service/venue-responses.js';
import { V1_OPERATIONS } from '../../service/v1-operations.js';
import type { PendingWork } from '../../pending-work.js';
import { serveCharged } from '../billing.js';
import { createGuard, principalOf } from '../guard.js';
import { trackedHook } from '../handlers-in-flight.js';
import { HttpError, invalidParam } from '../http-errors.js';
import { finiteQueryNumbers } from '../validation.js';
import { absoluteFormOrigin } from '../request-target.js';

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
  /** The work the service's close waits for (handlers-in-flight.ts): the guard's runs join it. */
  readonly running: PendingWork;
}

export const V1_PREFIX = '/v1';

export function v1Routes(deps: V1Dependencies): FastifyPluginAsync {
  const { engine, accounts, clock } = deps;
  return async function v1(plugin: FastifyInstance): Promise<void> {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', trackedHook(createGuard(accounts, clock, deps.planWindows), deps.running));
    app.post('/search/', { schema: V1_OPERATIONS.search, preValidation: finiteQueryNumbers(SearchQuerySchema) }, async (request, reply) => {
      // ajv fills the schema's defaults in; the fallback only satisfies the optional type
      const { limit = DEFAULT_LIMIT, offset = 0 } = request.query;
      await serveCharged(accounts, clock, request, reply, 'search', priceMicros('search', limit), () => engine.search(request.body, { limit, offset, now: clock() }));
    });

    app.get('/find', { schema: V1_OPERATIONS.find, preValidation: finiteQueryNumbers(FindQuerySchema) }, async (request, reply) => {
      const params: FindParams = {};
      for (const [key, value] of Object.entries(request.query)) {
        if (value !== undefined) (params as Record<string, unknown>)[key] = value;
      }
      await serveCharged(accounts, clock, request, reply, 'find', priceMicros('find'), () => engine.find(params, { now: clock() }));
    });

    for (const kind of ['basic', 'advanced', 'menus'] as const) {
      app.get(`/establishments/${kind}/:id`, { schema: V1_OPERATIONS[kind] }, async (request, reply) => {
        const id = request.params.id;
        await serveCharged(accounts, clock, request, reply, kind, priceMicros(kind), () => (kind === 'menus' ? engine.menus(id) : engine[kind](id, { now: clock() })));
      });
    }

    app.get('/vocabulary', { schema: V1_OPERATIONS.vocabulary }, async (_request, reply) => {
      (reply as FastifyReply).send(await engine.vocabulary());
    });

    const balances = async (accountId: string, range?: TimeRange): Promise<Balances> => {
      const found = await balancesOf(accounts, accountId, range);
      if (found === undefined) throw new HttpError('invalid_api_key', 'the account of this key no longer exists');
      return found;
    };

    app.get('/business/balances', { schema: V1_OPERATIONS.balances }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return balances(principalOf(request).accountId);
    });

    app.post('/business/balances', { schema: V1_OPERATIONS.balancesOverRange }, async (request, reply) => {
      const fromMs = instantMs(request.body.from);
      if (Number.isNaN(fromMs)) throw invalidParam('from', request.body.from, 'an RFC 3339 date-time');
      const toMs = instantMs(request.body.to);
      if (Number.isNaN(toMs)) throw invalidParam('to', request.body.to, 'an RFC 3339 date-time');
      if (!(toMs >= fromMs)) throw invalidParam('to', request.body.to, `an instant not before from (${request.body.from})`);
      reply.header('cache-control', 'no-store');
      return balances(principalOf(request).accountId, { fromMs, toMs });
    });

    // Readiness, for load balancers: 200 while the accounts database answers (within
    // HEALTH_TIMEOUT_MS), else 503 (every billed or keyed request would fail now); no key,
    // never billed or rate limited; not in the OpenAPI document (an operator's route).
    app.get('/health', { config: { public: true }, schema: { hide: true, querystring: NoQuerySchema } }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' })), HEALTH_TIMEOUT_MS);
      });
      try {
        // a database error (or the timeout, ETIMEDOUT) out of reach is the 503 of isAccountsUnavailable
        await Promise.race([deps.accounts.ping(), timeout]);
      } finally {
        clearTimeout(timer);
      }
      return { status: 'ok' };
    });

    let published: Record<string, unknown> | undefined;
    app.get('/openapi.json', { config: { public: true }, schema: { hide: true, querystring: NoQuerySchema } }, async (request, reply) => {
      published ??= publishedDocument(plugin.swagger(), { prefix: V1_PREFIX, named: namedSchemaForms() });
      // the request's own origin only when its Host makes one (an HTTP/1.0 health check sends
      // none); an absolute-form target's scheme and authority instead of Host (RFC 9112 3.2.2, audit 70a F1)
      const target = absoluteFormOrigin(request.raw.url ?? '');
      const serverUrl = deps.publicUrl ?? (target === undefined ? originOf(request.protocol, request.host) : originOf(target.scheme, target.authority)) ?? '/';
      reply.header('cache-control', 'no-cache');
      return { ...published, servers: [{ url: serverUrl, description: 'This service' }] };
    });
  };
}

/** How long GET /v1/health waits for the accounts database, ms. */
const HEALTH_TIMEOUT_MS = 2000;

/** A Host header that names a host: a DNS name or IPv4 address, or a bracketed IPv6 literal, and an optional port. */
const HOST_AND_PORT = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `scheme://host` when `host` is a valid authority (a name or address, an optional port), else undefined. */
function originOf(protocol: string, host: string): string | undefined {
  // a DNS name or IP literal and a port only: WHATWG URL keeps characters such as `"` in a host (audit 60c)
  if (!HOST_AND_PORT.test(host)) return undefined;
  try {
    const url = new URL(`${protocol}://${host}`);
    return url.pathname === '/' && url.username === '' && url.search === '' && url.hash === '' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * ms since the epoch of an RFC 3339 date-time whose form the schema checked. A leap second
 * (`23:59:60`, which the format allows and Date.parse refuses) is counted as the first
 * moment of the next second, as POSIX time counts it.
 */
export function instantMs(dateTime: string): number {
  const ms = Date.parse(dateTime);
  if (!Number.isNaN(ms)) return ms;
  return Date.parse(dateTime.replace(/:60(?=(\.\d+)?(z|[+-]\d\d:\d\d)$)/i, ':59')) + 1000;
}
