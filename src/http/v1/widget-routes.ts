/**
 * GET /v1/widget/: the embeddable search page, its hashed static assets under
 * /v1/widget/assets/ (script, stylesheet, the offline base map) and the place names for the
 * offline base at /v1/widget/places.json (no key: no venue data). Mounted by buildApp beside the v1 plugin (not behind the API-Key guard:
 * an iframe cannot send headers, so the public key travels in the page URL, `?key=pk_...`).
 *
 * The page route checks the key itself and answers a short HTML page with a clear message
 * instead of the widget when the key is a secret key (never echoed), unknown, or used from
 * an origin the account does not allow. Rate limits and billing apply to the API calls the
 * page makes (with the public key in the API-Key header), not to the page itself, which
 * serves no venue data. Headers: a strict Content-Security-Policy (no inline script, API
 * calls to this origin only, framing limited to the allowed origins), `Referrer-Policy:
 * no-referrer` (the key in the URL never leaks to image hosts), `no-store` on the page,
 * a year's `immutable` caching on the content-hashed assets.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsStore } from '../../accounts/accounts-store.js';
import type { EngineLike } from '../engine-like.js';
import { HttpError } from '../http-errors.js';
import { principalOfKey, publicKeyOriginCheck } from '../guard.js';
import { widgetMessageHtml, widgetPageHtml } from '../../widget/page-html.js';
import { NoQuerySchema } from './schemas.js';
import { loadWidgetAssets, widgetAsset, type WidgetAsset } from './widget-assets.js';
import { defaultPlaceLabelsJson } from './widget-map-data.js';

export interface WidgetOptions {
  /** Folder holding the built widget.js and widget.css; default dist/src/widget/assets. */
  readonly assetsDir?: string;
  /**
   * Base-map tiles for the widget's map, an XYZ URL template such as
   * `https://tiles.example.org/{z}/{x}/{y}.png` (`{s}` picks one of the subdomains a, b, c;
   * `{r}` is "@2x" on high-density screens). Default none: the offline base map (coastlines,
   * borders and the gazetteer's place names, served by this service).
   */
  readonly tileUrl?: string;
  /** Credit line shown on the map when tiles are used, plain text (e.g. "© OpenStreetMap contributors"). */
  readonly tileAttribution?: string;
}

export interface WidgetDependencies extends WidgetOptions {
  readonly engine: EngineLike;
  readonly accounts: AccountsStore;
  readonly clock: () => number;
}

export const WIDGET_PREFIX = '/v1/widget';

/** Content-Security-Policy of the page. `frameAncestors` is `*` or the allowed origins. */
export function widgetCsp(options: { tileOrigins?: readonly string[]; frameAncestors: readonly string[] }): string {
  const img = ["'self'", 'data:', 'https:', ...(options.tileOrigins ?? [])];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${[...new Set(img)].join(' ')}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${options.frameAncestors.length === 0 ? '*' : ["'self'", ...options.frameAncestors].join(' ')}`,
  ].join('; ');
}

/** Subdomains a `{s}` in a tile URL template stands for (Leaflet's default). */
export const TILE_SUBDOMAINS = ['a', 'b', 'c'] as const;

/** The origins the page's tiles come from (one per subdomain when the template has `{s}`). */
export function tileOriginsOf(tileUrl: string | undefined): string[] {
  if (tileUrl === undefined) return [];
  const hosts = tileUrl.includes('{s}') ? TILE_SUBDOMAINS : ['a'];
  return [
    ...new Set(
      hosts.map((sub) => {
        let url: URL;
        try {
          url = new URL(tileUrl.replace(/\{s\}/g, sub).replace(/\{r\}/g, '').replace(/\{[a-z]\}/g, '0'));
        } catch {
          throw new RangeError(`tileUrl must be an http(s) URL template; got ${JSON.stringify(tileUrl)}`);
        }
        if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError(`tileUrl must be an http(s) URL template; got ${JSON.stringify(tileUrl)}`);
        return url.origin;
      }),
    ),
  ];
}

/** Path of the place labels under /v1/widget/ (not content-hashed: built on first request). */
export const PLACE_LABELS_PATH = 'places.json';

let labels: WidgetAsset | undefined;
function placeLabelsAsset(): WidgetAsset {
  labels ??= widgetAsset(PLACE_LABELS_PATH, 'application/json; charset=utf-8', defaultPlaceLabelsJson());
  return labels;
}

/** Sends a static asset, gzipped when the browser accepts it. */
function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: WidgetAsset, cacheControl: string): FastifyReply {
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  reply.header('content-type', asset.contentType).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff').header('vary', 'accept-encoding');
  return gzip ? reply.header('content-encoding', 'gzip').send(asset.gzipped()) : reply.send(asset.body);
}

function sendHtml(reply: FastifyReply, status: number, html: string, csp: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', csp)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(html);
}

export function widgetRoutes(deps: WidgetDependencies): FastifyPluginAsync {
  return async function widget(app: FastifyInstance): Promise<void> {
    const tileOrigins = tileOriginsOf(deps.tileUrl);
    const loaded = await loadWidgetAssets(deps.assetsDir);
    const assets = 'unavailable' in loaded ? undefined : loaded;
    const byName = new Map<string, WidgetAsset>();
    for (const a of assets === undefined ? [] : [assets.script, assets.stylesheet, assets.baseMap]) if (a !== undefined) byName.set(a.name, a);
    // the offline base is drawn only when no tiles are configured
    const offline = deps.tileUrl === undefined;
    const baseMapHref = offline && assets?.baseMap !== undefined ? `assets/${assets.baseMap.name}` : null;
    const stylesheetHref = assets === undefined ? undefined : `assets/${assets.stylesheet.name}`;
    const messageCsp = widgetCsp({ frameAncestors: [] });

    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      // the page's asset and API URLs are relative to /v1/widget/: send /v1/widget there first
      const [path = '', search] = request.url.split('?', 2);
      if (!path.endsWith('/')) return reply.code(308).header('location', `${path}/${search === undefined ? '' : `?${search}`}`).send();
      const query = request.query as Record<string, unknown>;
      const raw = query.key;
      const key = typeof raw === 'string' ? raw.trim() : undefined;
      const message = (status: number, title: string, text: string) => sendHtml(reply, status, widgetMessageHtml(title, text, stylesheetHref), messageCsp);
      const unknown = Object.keys(query).find((name) => name !== 'key');
      if (unknown !== undefined) {
        return message(400, 'Unknown parameter', `This page takes only the key parameter (/v1/widget/?key=pk_...); ${JSON.stringify(unknown.slice(0, 50))} is not known.`);
      }
      if (assets === undefined) return message(503, 'Widget unavailable', 'unavailable' in loaded ? loaded.unavailable : 'not built');
      if (key === undefined || key === '') {
        return message(400, 'A public key is needed', 'This widget needs the site\'s public key in its address: /v1/widget/?key=pk_...');
      }
      if (key.startsWith('sk_')) {
        return message(
          403,
          'Secret key refused',
          'A secret key was put in this page\'s address. Secret keys must never appear in a web page: use the account\'s public key (pk_...) here, and rotate the secret key now, since it has been exposed.',
        );
      }
      const principal = await principalOfKey(deps.accounts, key, deps.clock());
      if (principal === undefined || principal.keyKind !== 'public') {
        return message(401, 'Key not valid', 'This widget\'s public key is not valid: it is unknown, revoked or past its rotation grace period. The site owner needs to update it.');
      }
      const { allowed: originOk, origin, allowedOrigins: allowed } = await publicKeyOriginCheck(deps.accounts, principal.accountId, request.headers);
      if (!originOk) {
        return message(403, 'Not allowed on this site', `This widget's key may not be used on ${origin ?? 'this site'}. The site owner can add this site to the key's allowed origins.`);
      }
      const html = widgetPageHtml(
        {
          vocabulary: deps.engine.vocabulary(),
          tileUrl: deps.tileUrl ?? null,
          tileAttribution: deps.tileAttribution ?? null,
          baseMapHref,
          placeLabelsHref: offline ? PLACE_LABELS_PATH : null,
        },
        { scriptHref: `assets/${assets.script.name}`, stylesheetHref: `assets/${assets.stylesheet.name}` },
      );
      return sendHtml(reply, 200, html, widgetCsp({ tileOrigins, frameAncestors: allowed }));
    });

    // the gazetteer's place names for the offline base map; no venue data, so no key needed
    app.get(`/${PLACE_LABELS_PATH}`, { schema: { hide: true } }, async (request, reply) => {
      return sendAsset(request, reply, placeLabelsAsset(), 'public, max-age=86400');
    });

    app.get('/assets/:file', { schema: { hide: true, querystring: NoQuerySchema } }, async (request, reply) => {
      const file = (request.params as { file: string }).file;
      const found = byName.get(file);
      if (found === undefined) {
        throw new HttpError('route_not_found', `no such widget asset: ${file.slice(0, 100)}`);
      }
      return sendAsset(request, reply, found, 'public, max-age=31536000, immutable');
    });
  };
}
