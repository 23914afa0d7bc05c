/**
 * Operator routes for live data (docs/updates.md), mounted under `/admin`, outside `/v1`:
 *   PUT    /admin/venues        NDJSON body, one venue record a line: insert or replace
 *   DELETE /admin/venues/{id}   remove one venue
 *   POST   /admin/compact       fold the pending changes into a new base now
 * They exist only when the service was started with an operator token
 * (`serve --admin-token-file F`), and every request must carry it as
 * `Authorization: Bearer <token>`: customer API keys do not open them. Never billed or
 * rate limited. A batch is acknowledged (200) only after it is in the change log on disk.
 * Errors use the one envelope (http-errors.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { LiveVenues } from '../changelog/live-venues.js';
import { isVenueSearchError } from '../errors.js';
import { HttpError } from './http-errors.js';

export const ADMIN_PREFIX = '/admin';

export interface AdminRoutesOptions {
  readonly live: LiveVenues;
  /** The operator token (at least 16 characters). */
  readonly token: string;
  /** Largest PUT body, bytes (default 32 MiB). */
  readonly bodyLimitBytes?: number;
}

export const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson'];

export function adminRoutes(options: AdminRoutesOptions): FastifyPluginAsync {
  const expected = digest(options.token);
  const { live } = options;
  return async function admin(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      if (header === undefined) throw new HttpError('missing_admin_token', 'admin routes need the operator token: Authorization: Bearer <token>');
      const match = /^Bearer (.+)$/.exec(header);
      if (match === null || !timingSafeEqual(digest(match[1]!), expected)) {
        throw new HttpError('invalid_admin_token', 'the operator token is not valid');
      }
    });
    app.addContentTypeParser(NDJSON_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

    app.put('/venues', { bodyLimit: options.bodyLimitBytes ?? 32 * 1024 * 1024 }, async (request) => {
      if (typeof request.body !== 'string') {
        throw new HttpError('unsupported_media_type', `send venue records as NDJSON (Content-Type: ${NDJSON_TYPES[0]})`);
      }
      const records = parseNdjson(request.body);
      const result = await engineCall(() => live.upsert(records));
      return { ...result, pendingChanges: live.engine.pendingChanges, venues: live.engine.size };
    });

    app.delete('/venues/:id', async (request) => {
      const { id } = request.params as { id: string };
      const result = await live.remove([id]);
      if (result.removed.length === 0) throw new HttpError('venue_not_found', `no venue with id ${JSON.stringify(id)}`, 'id');
      return { removed: id, seq: result.seq, pendingChanges: live.engine.pendingChanges, venues: live.engine.size };
    });

    app.post('/compact', async () => {
      const report = await live.compact();
      return { ...report };
    });
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The records of an NDJSON body; a line that is not JSON is a 400 naming it. Blank lines
 * are skipped and not counted: "line N" (here and in the engine's record errors) is the
 * N-th record of the body.
 */
function parseNdjson(body: string): unknown[] {
  const records: unknown[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch (e) {
      const n = records.length + 1;
      throw new HttpError('invalid_json', `line ${n} is not JSON: ${(e as Error).message}`, `line ${n}`);
    }
  }
  if (records.length === 0) throw new HttpError('invalid_request', 'the body holds no venue records (one JSON record a line)');
  return records;
}

/** Bad records are the client's fault here (400), not the operator's data file (500 elsewhere). */
async function engineCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isVenueSearchError(err) && (err.code === 'invalid_venue' || err.code === 'duplicate_id' || err.code === 'invalid_data')) {
      throw new HttpError(err.code === 'invalid_data' ? 'invalid_request' : err.code, err.message, err.param);
    }
    throw err;
  }
}
