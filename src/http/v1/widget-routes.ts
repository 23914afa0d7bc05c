/**
 * GET /v1/widget/: the embeddable search page (src/widget/widget-page.ts decides what it
 * shows), its hashed static assets under /v1/widget/assets/ (script, stylesheet, the offline
 * base map) and the place names for the offline base at /v1/widget/places.json (no key: no
 * venue data). Mounted by buildApp beside the v1 plugin, not behind the API-Key guard: an
 * iframe cannot send headers, so the public key travels in the page URL, `?key=pk_...`.
 * Headers: the page's Content-Security-Policy, `Referrer-Policy: no-referrer` (the key in
 * the URL never leaks to image hosts), `no-store` on the page, a year's `immutable` caching
 * on the content-hashed assets.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createWidgetSite, PLACE_LABELS_PATH, placeLabelsAsset, type WidgetSiteDependencies } from '../../widget/widget-page.js';
import type { WidgetAsset } from '../../widget/widget-assets.js';
import { HttpError } from '../http-errors.js';
import { originForm } from '../request-target.js';
import type { LonLatBox } from '../../geo/bbox.js';
import { NoQuerySchema } from '../../service/api-schemas.js';

export type { WidgetOptions } from '../../widget/widget-page.js';

export const WIDGET_PREFIX = '/v1/widget';

/** Sends a static asset, gzipped when the browser accepts it. */
function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: WidgetAsset, cacheControl: string): FastifyReply {
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  reply.header('content-type', asset.contentType).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff').header('vary', 'accept-encoding');
  return gzip ? reply.header('content-encoding', 'gzip').send(asset.gzipped()) : reply.send(asset.body);
}

export function widgetRoutes(deps: WidgetSiteDependencies): FastifyPluginAsync {
  return async function widget(app: FastifyInstance): Promise<void> {
    const site = await createWidgetSite(deps);

    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      // the page's asset and API URLs are relative to /v1/widget/: send /v1/widget there first.
      // The Location is a path (relative to the Host's origin), never the authority of an
      // absolute-form target (`GET http://elsewhere/v1/widget`)
      const [path = '', search] = originForm(request.url).split('?', 2);
      if (!path.endsWith('/')) return reply.code(308).header('location', `${path}/${search === undefined ? '' : `?${search}`}`).send();
      const answer = await site.page(request.query as Record<string, unknown>, request.headers);
      return reply
        .code(answer.status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', answer.csp)
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(answer.html);
    });

    // the gazetteer's place names around the venues for the offline base map; no venue data, so no key needed
    app.get(`/${PLACE_LABELS_PATH}`, { schema: { hide: true, querystring: NoQuerySchema } }, async (request, reply) =>
      sendAsset(request, reply, placeLabelsAsset(((await deps.venueExtent?.()) ?? null) as LonLatBox | null), 'public, max-age=86400'),
    );

    app.get('/assets/:file', { schema: { hide: true, querystring: NoQuerySchema } }, async (request, reply) => {
      const file = (request.params as { file: string }).file;
      const found = site.assetsByName.get(file);
      if (found === undefined) throw new HttpError('route_not_found', `no such widget asset: ${file.slice(0, 100)}`);
      return sendAsset(request, reply, found, 'public, max-age=31536000, immutable');
    });
  };
}
