/**
 * Operator routes for live data (docs/updates.md), mounted under `/admin`, outside `/v1`:
 *   PUT    /admin/venues        NDJSON body, one venue record a line: add or replace
 *   DELETE /admin/venues/{id}   remove one venue (no body)
 *   POST   /admin/compact       fold the pending changes into a new base now (no body)
 * They exist only when the service was started with an operator token
 * (`serve --admin-token-file F`), and every request must carry it as
 * `Authorization: Bearer <token>`: customer API keys do not open them. Never billed or
 * rate limited. A batch is acknowledged (200) only after it is in the change log on disk; one
 * the log could not take (a full disk) is a 503 naming the cause, and nothing of it is kept.
 * Errors use the one envelope (http-errors.ts).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ChangeLogWriteError } from '../changelog/change-log.js';
import { LiveDirLockLostError } from '../changelog/live-dir-lock.js';
import { CompactionFailedError } from '../changelog/compactor.js';
import type { LiveVenues } from '../changelog/live-venues.js';
import { NDJSON_TYPES, authorizationScheme, operatorTokenChecker, parseVenueLines } from '../changelog/operator-requests.js';
import { isVenueSearchError } from '../errors.js';
import { NoQuerySchema } from '../service/api-schemas.js';
import { HttpError, httpParam } from './http-errors.js';
import { bodyText, hasBody } from './body-text.js';

export const ADMIN_PREFIX = '/admin';

/** The admin routes take no query parameter: one is refused (400, naming it), as under /v1. Not in openapi.json. */
const NO_QUERY = { hide: true, querystring: NoQuerySchema };

export interface AdminRoutesOptions {
  readonly live: LiveVenues;
  /** The operator token (at least 16 characters). */
  readonly token: string;
  /** Largest PUT body, bytes (default 32 MiB). */
  readonly bodyLimitBytes?: number;
}

export function adminRoutes(options: AdminRoutesOptions): FastifyPluginAsync {
  const checkToken = operatorTokenChecker(options.token);
  const { live } = options;
  return async function admin(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const check = checkToken(request.headers.authorization);
      // A 401 names the scheme it wants (RFC 9110 11.6.1).
      if (check !== 'ok') void reply.header('www-authenticate', 'Bearer realm="venue-search admin"');
      if (check === 'missing') throw new HttpError('missing_admin_token', 'admin routes need the operator token: Authorization: Bearer <token>');
      if (check === 'not_bearer') {
        // the scheme, never the credentials (audit 75b F4: a right token sent as Basic was "not valid")
        const scheme = authorizationScheme(request.headers.authorization!);
        throw new HttpError('invalid_admin_token', `the operator token goes in the Bearer scheme: Authorization: Bearer <token> (${scheme !== null ? `got the ${JSON.stringify(scheme)} scheme` : 'got no scheme'})`);
      }
      if (check === 'invalid') throw new HttpError('invalid_admin_token', 'the operator token is not valid');
    });
    app.addContentTypeParser(NDJSON_TYPES, { parseAs: 'buffer' }, (_request, body, done) => {
      try {
        done(null, bodyText(body as Buffer));
      } catch (err) {
        done(err as Error, undefined);
      }
    });

    const notNdjson = () => new HttpError('unsupported_media_type', `send venue records as NDJSON (Content-Type: ${NDJSON_TYPES[0]})`);
    app.put(
      '/venues',
      {
        schema: NO_QUERY,
        bodyLimit: options.bodyLimitBytes ?? 32 * 1024 * 1024,
        // Before any body parser runs: a JSON body would otherwise be parsed (and refused as
        // invalid JSON, 400) instead of being refused for its type (415).
        onRequest: async (request) => {
          const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
          if (!NDJSON_TYPES.includes(type)) throw notNdjson();
        },
      },
      async (request) => {
        if (typeof request.body !== 'string') throw notNdjson();
        const lines = parseVenueLines(request.body);
        if (!lines.ok) throw new HttpError(lines.code, lines.message, lines.param);
        const result = await recordsCall(() => live.upsert(lines.records));
        const answer = { ...result, pendingChanges: live.engine.pendingChanges, venues: live.engine.size };
        request.log.info(answer, 'venues upserted');
        return answer;
      },
    );

    app.delete('/venues/:id', { schema: NO_QUERY, onRequest: refuseBody('DELETE /admin/venues/{id}') }, async (request) => {
      const { id } = request.params as { id: string };
      const result = await recordsCall(() => live.remove([id]));
      if (result.removed.length === 0) throw new HttpError('venue_not_found', `no venue with id ${JSON.stringify(id)}`, 'id');
      const answer = { removed: id, seq: result.seq, pendingChanges: live.engine.pendingChanges, venues: live.engine.size };
      request.log.info(answer, 'venue removed');
      return answer;
    });

    app.post(
      '/compact',
      { schema: NO_QUERY, onRequest: refuseBody('POST /admin/compact') },
      async () => ({ ...(await recordsCall(() => live.compact())) }),
    );
  };
}

/**
 * The one rule of the admin routes that take no body (DELETE /admin/venues/{id}, POST
 * /admin/compact), as their route-level `onRequest` hook, after the token check: a body is
 * refused as a query parameter is (400 `invalid_request` naming `route`), before any parser
 * or body check could answer for a body the route would ignore (audit 63b F5: a 415 or an
 * invalid_json 400 for a body nobody reads; audit 69b F4: DELETE asked for JSON, or removed
 * the path's venue while the body named another). The body is not parsed (Node discards one
 * within the route's limit; a larger or chunked one closes the connection: body-text.ts
 * refusalClosesConnection).
 * No body (none, or Content-Length: 0): whatever Content-Type says of it, there is nothing to
 * parse. Fastify would still run the type's parser (invalid_json "the body is empty") or
 * refuse the type (415): the header goes, so the request is bodiless as it is without one
 * (audit 64a F8: scripts that send `Content-Type: application/json` on every call).
 */
function refuseBody(route: string): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    if (hasBody(request.headers)) throw new HttpError('invalid_request', `${route} takes no body: send it without one`);
    delete request.raw.headers['content-type'];
  };
}

/**
 * Bad records are the client's fault here (400), not the operator's data file (500 elsewhere).
 * A batch the change log could not take (a full disk) and a failed compaction are 503s that
 * say why: the client is the operator, and the same request succeeds once the cause is fixed.
 */
async function recordsCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isVenueSearchError(err) && (err.code === 'invalid_venue' || err.code === 'duplicate_id' || err.code === 'invalid_data')) {
      throw new HttpError(err.code === 'invalid_data' ? 'invalid_request' : err.code, err.message, httpParam(err.param));
    }
    if (err instanceof ChangeLogWriteError || err instanceof CompactionFailedError || err instanceof LiveDirLockLostError) throw new HttpError('service_unavailable', err.message);
    throw err;
  }
}
