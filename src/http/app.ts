/**
 * `buildApp`: the fastify application of the HTTP service. It never listens by itself; tests
 * call `app.inject`, the `serve` command calls `app.listen`.
 *
 * Fastify defaults changed here, and why:
 * - validation: own ajv instances (validation.ts): bodies are not coerced, unknown parameters
 *   are rejected rather than stripped, query numbers must be finite JSON numbers;
 * - only `application/json` bodies are parsed (the default `text/plain` parser is removed),
 *   so anything else is a 415; the body limit is small (64 KiB default) and a 413 above it;
 * - trailing slashes are ignored (`/v1/search` and `/v1/search/` are the same route); no
 *   automatic HEAD routes (HEAD is a 405 like any other method a path does not serve);
 * - request ids are generated server-side (a client-sent id header is ignored);
 * - request logs carry method, path and status, never headers, and any key-shaped token in a
 *   URL is masked (src/http/request-log.ts).
 */
import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { ChargeOutcomeUnknownError, type AccountsStore } from '../accounts/accounts-store.js';
import { ADMIN_PREFIX, adminRoutes, type AdminRoutesOptions } from './admin-routes.js';
import type { EngineLike } from '../service/engine-like.js';
import { maskKeys } from '../accounts/keys.js';
import { OPENAPI_HEAD } from '../service/openapi-document.js';
import { requestLogOptions } from './request-log.js';
import { targetPath, targetProblem } from './request-target.js';
import { planWindows, type PlanName, type RateWindow } from '../accounts/plans.js';
import { clientErrorResponse, connectResponse, continueResponse, expectationResponse, queueResponse } from './client-errors.js';
import { isAccountsUnavailable } from '../accounts/accounts-unavailable.js';
import { checkBodyCharset, hasBody, parseJsonBody, refusalClosesConnection } from './body-text.js';
import { OutageLog } from './outage-log.js';
import { trackConnections } from './unused-connections.js';
import { drainConnectionsOnClose } from './connection-draining.js';
import { wasAdmitted } from './guard.js';
import { HttpError, toErrorResponse, withRequestDetails } from './http-errors.js';
import { misplacedNameError } from './unknown-parameter.js';
import type { RouteSchemas } from '../schema/unknown-name.js';
import { addMethodNotAllowedRoutes, collectMethods, methodNotAllowed, type MethodNotAllowedConfig } from './method-not-allowed.js';
import { sharedRefSerializers } from './serializers.js';
import { createValidatorCompiler, malformedQueryParam } from './validation.js';
import { quotedHeaderValue } from './header-text.js';
import { V1_PREFIX, v1Routes } from './v1/routes.js';
import { waitForHandlersOnClose } from './handlers-in-flight.js';
import { ErrorEnvelopeSchema } from '../service/api-schemas.js';
import { WIDGET_PREFIX, widgetRoutes, type WidgetOptions } from './v1/widget-routes.js';

export interface BuildAppOptions {
  readonly engine: EngineLike;
  readonly accounts: AccountsStore;
  /** Milliseconds since the epoch. Default `Date.now`; tests inject a fake clock. */
  readonly clock?: () => number;
  /** pino options (`true` for defaults, a `{level, stream}` object, ...). Default: no logging. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Largest accepted request body, bytes. Default 64 KiB. */
  readonly bodyLimitBytes?: number;
  /** Time allowed to receive a whole request, headers and body, ms. Default 15 s. */
  readonly requestTimeoutMs?: number;
  /**
   * How often Node checks the requests being received against requestTimeoutMs, ms. Default
   * 30 s (Node's): a request too slow is answered 408 up to this long after its time ran out.
   */
  readonly timeoutCheckIntervalMs?: number;
  /** A socket silent this long while a request is read or answered is closed, ms. Default 30 s. */
  readonly connectionTimeoutMs?: number;
  /**
   * A connection idle between requests is kept this long, ms. Default 72 s (fastify's): above
   * the 60 s idle timeout of common load balancers, so that the balancer, not the server,
   * closes an idle connection (a server closing first races the balancer's next request).
   */
  readonly keepAliveTimeoutMs?: number;
  /**
   * The rate windows of each plan. Default: interface section 8 (`planWindows` in plans.ts).
   * An operator with custom contracts, or a load bench, can override it.
   */
  readonly planWindows?: (plan: PlanName) => readonly RateWindow[];
  /** The embeddable widget at /v1/widget/ (assets folder, optional base-map tiles): docs/widget.md. */
  readonly widget?: WidgetOptions;
  /**
   * The public base URL (`https://api.example.com`) the OpenAPI document names in `servers`.
   * Default: the scheme and Host of the request that fetches the document.
   */
  readonly publicUrl?: string | undefined;
  /** Operator routes for live data at /admin (admin-routes.ts); absent unless given. */
  readonly admin?: AdminRoutesOptions;
}

/**
 * Longest path parameter the router takes, characters: above any venue id (VenueIdParamsSchema's
 * maxLength, 200), so that a longer id reaches the routes' checks in their order (404/405, key,
 * rate limit, then the 400 of the schema: audit 60c) and only what no URL within Node's 16 KiB
 * header limit would hold is refused by the router itself.
 */
const MAX_PATH_PARAM_LENGTH = 16 * 1024;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? Date.now;
  const requestTimeout = options.requestTimeoutMs ?? 15_000;
  const app = Fastify({
    // Once a request's headers are in, Node enforces the larger of requestTimeout and
    // headersTimeout (60 s by default, which fastify leaves): set both, so that a body
    // trickled byte by byte is bounded as the headers are.
    // requireHostHeader off: a request without Host is answered by the onRequest hook below,
    // in the envelope with a Request-Id, not by Node's bare 400
    http: {
      headersTimeout: requestTimeout,
      requireHostHeader: false,
      ...(options.timeoutCheckIntervalMs === undefined ? {} : { connectionsCheckingInterval: options.timeoutCheckIntervalMs }),
    },
    logger: requestLogOptions(options.logger, options.admin?.token),
    bodyLimit: options.bodyLimitBytes ?? 64 * 1024,
    requestTimeout,
    connectionTimeout: options.connectionTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 72_000,
    // maxParamLength: the router's default of 100 answered longer ids with its own non-envelope 414
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_LENGTH },
    // URLs the router itself refuses (bad percent-encoding, a path parameter over the limit)
    // get the envelope too, not fastify's `{error, statusCode}` body echoing the whole path
    frameworkErrors: (err, request, reply) => {
      const error =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new HttpError('invalid_request', `id must be at most ${MAX_PATH_PARAM_LENGTH} characters`, 'id')
          : new HttpError('invalid_url', targetProblem(request.url) ?? 'the request path is not valid percent-encoded UTF-8');
      const response = toErrorResponse(error);
      void (reply as FastifyReply).code(response.status).headers(response.headers).header('request-id', request.id).send(response.body);
    },
    // errors Node's HTTP parser meets before there is a request (headers or URL over the
    // size limit, a malformed request line, a request that took too long): the envelope too
    clientErrorHandler: clientErrorResponse,
    // no automatic HEAD twins: a HEAD on a billed route would run the engine and charge for no body
    exposeHeadRoutes: false,
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    // fastify's own 503 while closing has its own body; ours (below) answers the envelope
    return503OnClosing: false,
    // one compiled serializer for all the error entries that are the envelope's $ref alone
    schemaController: { compilersFactory: { buildSerializer: sharedRefSerializers() } },
  });
  // the answers Node has queued on each connection, for clientErrorResponse to send before
  // a pipelined malformed request's error (prepended: before any listener answers)
  for (const event of ['request', 'checkContinue', 'checkExpectation']) app.server.prependListener(event, queueResponse);
  // what Node would answer itself, outside the envelope (a CONNECT: nothing at all)
  app.server.on('connect', connectResponse);
  app.server.on('checkExpectation', expectationResponse);
  app.server.on('checkContinue', continueResponse);
  // before any route: every handler registered below is tracked, and a close waits for them
  const running = waitForHandlersOnClose(app);
  let closing = false;
  const connections = trackConnections(app.server);
  drainConnectionsOnClose(app.server, connections.open);
  app.addHook('preClose', async () => {
    closing = true;
    // A request whose bytes reached the machine before the close is read first, and answered
    // (the closing service's 503 below): until the event loop's next poll phase, its
    // connection looks as if it had sent nothing, and was destroyed, a reset the client could
    // not tell from a lost charge (audit 74d F2: a close called from a timer while cold
    // searches held the loop reset 20 of 30 such requests). Two turns: one poll accepts a
    // connection waiting to be, the next reads its request.
    await loopTurn();
    await loopTurn();
    connections.closeUnused();
  });
  app.setValidatorCompiler(createValidatorCompiler());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
    // RFC 9112 3.2: an HTTP/1.1 request without Host, or any request with more than one, is a 400
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      throw new HttpError('malformed_request', 'an HTTP/1.1 request needs a Host header');
    }
    if (hostLines(request.raw.rawHeaders) > 1) {
      reply.header('connection', 'close');
      throw new HttpError('malformed_request', 'a request has one Host header; this one has several');
    }
    // ... and one whose Host is not `host[:port]` (RFC 9112 3.2: "an invalid field value"; a
    // list `a, b` on one line is not one host)
    if (request.headers.host !== undefined && !HOST_FIELD.test(request.headers.host.trim())) {
      reply.header('connection', 'close');
      throw new HttpError('malformed_request', `the Host header must be one host name or address, with an optional port; got ${quotedHeaderValue(request.headers.host, 100)}`);
    }
    if (closing) {
      reply.header('connection', 'close');
      // the operator routes are never billed: no word of charges there
      const billed = !targetPath(request.url).startsWith(`${ADMIN_PREFIX}/`);
      throw new HttpError('service_unavailable', `the service is shutting down; retry the request${billed ? ' (it was not charged)' : ''}`);
    }
    const problem = targetProblem(request.url);
    if (problem !== undefined) throw new HttpError('invalid_url', problem);
    const malformed = malformedQueryParam(request.url);
    if (malformed !== undefined) throw new HttpError('invalid_url', `query parameter ${JSON.stringify(malformed)} is not valid percent-encoded UTF-8`, malformed);
  });
  // Before a body is read: an unknown path (404) and another method (405) are answered without
  // reading it (a body they cannot parse is no 400); a compressed or transfer-coded body is refused after the
  // key, the permission and the rate window (the guard's onRequest), as docs/http.md orders
  // the checks; a request without a body (a GET) is not refused for the header.
  app.addHook('preParsing', async (request) => {
    // an unknown path is a 404 before its body is read (a body it cannot parse is no 400)
    if (request.is404) throw routeNotFound(request);
    const allowed = (request.routeOptions.config as MethodNotAllowedConfig).allowedMethods;
    if (allowed !== undefined) throw methodNotAllowed(request.method, allowed);
    if (!hasBody(request.headers)) return;
    // a transfer coding other than chunked (`gzip, chunked`): Node de-chunks the body and
    // ignores the rest, so the bytes would be read as if they were not coded (audit 63b F1;
    // RFC 9112 6.1 suggests 501: a 415 like Content-Encoding's, one code for "not this body")
    // (empty list elements, `,chunked`, are no coding: RFC 9110 5.6.1 has recipients ignore them)
    const transfer = request.headers['transfer-encoding'];
    if (transfer !== undefined && transfer.split(',').some((coding) => coding.trim() !== '' && coding.trim().toLowerCase() !== 'chunked')) {
      throw new HttpError('unsupported_media_type', `Transfer-Encoding ${JSON.stringify(transfer.slice(0, 100))} is not supported; send the body with chunked or a Content-Length`);
    }
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new HttpError('unsupported_media_type', `Content-Encoding ${JSON.stringify(encoding)} is not supported; send the body uncompressed`);
    }
    checkBodyCharset(request.headers['content-type']);
  });
  // The one rule for answers sent before the body was read (body-text.ts
  // refusalClosesConnection): a body over the route's limit, or of no stated length, is not
  // read to its end (audit 69b F2). And while the service closes, every answer closes its
  // connection: a kept-alive one held the close until the drain limit (audit 69h F4).
  app.addHook('onSend', async (request, reply) => {
    if (closing || refusalClosesConnection(request.raw, request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0)) reply.header('connection', 'close');
  });
  app.removeContentTypeParser('text/plain');
  // fastify's own JSON parser answers every refusal "Body is not valid JSON": this one says why
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  const outage = new OutageLog();
  // an admitted request answered below 500: the accounts database answered it (its outage, if any, ended)
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode < 500 && wasAdmitted(request)) outage.answered(request.log);
  });
  app.setErrorHandler((err, request, reply) => {
    const response = toErrorResponse(misplacedQueryFirst(withRequestDetails(err, request.headers['content-type'], request.routeOptions.bodyLimit), request));
    // a charge that may have committed is a 500, not a refused 503 (its cause is often a lost
    // connection): its own error line, naming the request id to reconcile against the ledger,
    // and not counted in the outage log's 503s (until 2026-11-30 it was, audit 66c F2)
    if (err instanceof ChargeOutcomeUnknownError) request.log.error({ err, requestId: err.requestId }, `charge outcome unknown: request ${err.requestId} may have been charged`);
    else if (isAccountsUnavailable(err)) outage.refusedOne(request.log, err);
    // a 503 the service means (shutting down, a change log that cannot take a batch) is no fault: no stack trace
    else if (err instanceof HttpError && err.code === 'service_unavailable') request.log.warn({ code: err.code }, err.message);
    else if (response.status >= 500) request.log.error({ err }, 'request failed');
    void reply.code(response.status).headers(response.headers).send(response.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const response = toErrorResponse(routeNotFound(request));
    void reply.code(response.status).headers(response.headers).send(response.body);
  });

  await app.register(fastifySwagger, {
    // shared schemas keep their $id as the component name (ErrorEnvelope, not def-0)
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: OPENAPI_HEAD,
  });
  app.addSchema(ErrorEnvelopeSchema);
  const v1Methods = collectMethods(app, V1_PREFIX);
  const adminMethods = collectMethods(app, ADMIN_PREFIX);
  const vocabulary = () => options.engine.vocabulary();
  const venueExtent = () => options.engine.venueExtent?.() ?? null;
  await app.register(widgetRoutes({ ...options.widget, vocabulary, venueExtent, accounts: options.accounts, clock }), { prefix: WIDGET_PREFIX });
  if (options.admin !== undefined) await app.register(adminRoutes(options.admin), { prefix: ADMIN_PREFIX });
  await app.register(v1Routes({ engine: options.engine, accounts: options.accounts, clock, planWindows: options.planWindows ?? planWindows, publicUrl: options.publicUrl, running }), {
    prefix: V1_PREFIX,
  });
  addMethodNotAllowedRoutes(app, v1Methods);
  addMethodNotAllowedRoutes(app, adminMethods);
  return app;
}

/**
 * A 400 for a name sent in the wrong part of the call (src/http/unknown-parameter.ts
 * misplacedNameError: a body field in the query, a query parameter in the body; audit 65a F5,
 * 66a F5) answered as that name; any other error as it is.
 */
function misplacedQueryFirst(err: unknown, request: FastifyRequest): unknown {
  const e = err as { validationContext?: unknown; validation?: unknown };
  const part = typeof e.validationContext === 'string' ? e.validationContext : undefined;
  const first = Array.isArray(e.validation) ? (e.validation[0] as Parameters<typeof misplacedNameError>[0]['first']) : undefined;
  const bodyRefused = part === 'body' || toErrorResponse(err).body.code === 'invalid_json';
  const route = { method: request.method, url: request.routeOptions.url, schemas: (request.routeOptions.schema ?? {}) as RouteSchemas };
  const misplaced = misplacedNameError({ part, first, bodyRefused }, request.query, route);
  return misplaced === undefined ? err : new HttpError('invalid_request', misplaced.message, misplaced.param);
}

/** Resolves in the event loop's check phase, after its next poll phase (the one that reads sockets). */
function loopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The 404 of an unknown path, naming it (keys masked, at most 200 characters). */
function routeNotFound(request: FastifyRequest): HttpError {
  const raw = maskKeys(targetPath(request.url));
  const path = raw.length > 200 ? `${raw.slice(0, 197)}...` : raw;
  return new HttpError('route_not_found', `no such path: ${request.method} ${path}`);
}

/**
 * A Host field's syntax (RFC 9112 3.2, RFC 3986 3.2.2): an IP literal in brackets, or a
 * registered name or IPv4 address (unreserved characters, percent-escapes, sub-delimiters;
 * possibly empty), then an optional `:port`.
 */
const HOST_FIELD = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** How many Host lines a request's raw headers hold (name, value, name, value, ...; Node keeps only the first). */
function hostLines(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}
