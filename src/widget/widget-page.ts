/**
 * What the service answers at /v1/widget/ (the routes: src/http/v1/widget-routes.ts): the
 * embeddable search page, or a short HTML page with a clear message instead when the key is
 * a secret key (never echoed), unknown, or used from an origin the account does not allow.
 * Rate limits and billing apply to the API calls the page makes (with the public key in the
 * API-Key header), not to the page itself, which serves no venue data.
 *
 * Headers the answers carry: a strict Content-Security-Policy (no inline script, API calls to
 * this origin only, framing limited to the allowed origins).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AccountsStore } from '../accounts/accounts-store.js';
import { maskKeys } from '../accounts/keys.js';
import { principalOfKey, publicKeyOriginCheck } from '../accounts/admission.js';
import { inLonLatBox, type LonLatBox } from '../geo/bbox.js';
import { DEFAULT_COUNTRIES_BOX } from '../places/gazetteer-countries.js';
import { defaultPlaceLabelsJson, worldPlaceLabelsJson } from './map-data.js';
import { widgetMessageHtml, widgetPageHtml, type WidgetConfig } from './page-html.js';
import { filledTileUrl, tileTemplateProblem } from './tile-template.js';
import { loadWidgetAssets, widgetAsset, type WidgetAsset, type WidgetAssets } from './widget-assets.js';

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

/**
 * Content-Security-Policy of the page. `frameAncestors`: the allowed origins, or none for any
 * page: then the policy names no `frame-ancestors` at all (`*` would not let a page opened
 * from disk, a `file:` URL, embed it in Chromium).
 */
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
    ...(options.frameAncestors.length === 0 ? [] : [`frame-ancestors ${["'self'", ...options.frameAncestors].join(' ')}`]),
  ].join('; ');
}

/** Subdomains a `{s}` in a tile URL template stands for (Leaflet's default). */
export const TILE_SUBDOMAINS = ['a', 'b', 'c'] as const;

/** The origins the page's tiles come from (one per subdomain when the template has `{s}`); a template the rule of tile-template.ts refuses throws. */
export function tileOriginsOf(tileUrl: string | undefined): string[] {
  if (tileUrl === undefined) return [];
  const problem = tileTemplateProblem(tileUrl);
  if (problem !== undefined) throw new RangeError(`tileUrl ${problem}`);
  const hosts = tileUrl.includes('{s}') ? TILE_SUBDOMAINS : ['a'];
  return [...new Set(hosts.map((sub) => filledTileUrl(tileUrl, sub)!.origin))];
}

/** Path of the place labels under /v1/widget/ (not content-hashed: built on first request). */
export const PLACE_LABELS_PATH = 'places.json';

/** The label assets built so far, by the extent they were built for ('' : the British Isles). */
const labelsByExtent = new Map<string, WidgetAsset>();

/**
 * The place names for the offline base map, built on first use: for venues in the British
 * Isles (their extent within the default gazetteer countries' box, or unknown) the default
 * countries' places; for venues elsewhere the world's places around them
 * (map-data.ts worldPlaceLabelsJson), so the map of American data names American towns.
 */
export function placeLabelsAsset(extent: LonLatBox | null): WidgetAsset {
  const british = extent === null || (inLonLatBox(extent.south, extent.west, DEFAULT_COUNTRIES_BOX) && inLonLatBox(extent.north, extent.east, DEFAULT_COUNTRIES_BOX));
  const key = british ? '' : `${extent.south},${extent.west},${extent.north},${extent.east}`;
  let asset = labelsByExtent.get(key);
  if (asset === undefined) {
    asset = widgetAsset(PLACE_LABELS_PATH, 'application/json; charset=utf-8', british ? defaultPlaceLabelsJson() : worldPlaceLabelsJson(extent));
    labelsByExtent.set(key, asset);
  }
  return asset;
}

/** One HTML answer of the page route. */
export interface WidgetHtml {
  readonly status: number;
  readonly html: string;
  readonly csp: string;
}

export interface WidgetSite {
  /** The hashed static assets by file name (script, stylesheet, base map). */
  readonly assetsByName: ReadonlyMap<string, WidgetAsset>;
  /** The page (or a message page) for a request's query and headers. */
  page(query: Readonly<Record<string, unknown>>, headers: IncomingHttpHeaders): Promise<WidgetHtml>;
}

export interface WidgetSiteDependencies extends WidgetOptions {
  readonly accounts: AccountsStore;
  readonly clock: () => number;
  /** The filter vocabularies the page embeds (the engine's `vocabulary()`). */
  readonly vocabulary: () => unknown;
  /** Where most venues are, the map's first view (the engine's `venueExtent()`); null: unknown. */
  readonly venueExtent?: () => unknown;
}

/** Loads the assets once and returns the site that answers page requests. */
export async function createWidgetSite(deps: WidgetSiteDependencies): Promise<WidgetSite> {
  const tileOrigins = tileOriginsOf(deps.tileUrl);
  const loaded = await loadWidgetAssets(deps.assetsDir);
  const assets: WidgetAssets | undefined = 'unavailable' in loaded ? undefined : loaded;
  const assetsByName = new Map<string, WidgetAsset>();
  for (const a of assets === undefined ? [] : [assets.script, assets.stylesheet, assets.baseMap]) if (a !== undefined) assetsByName.set(a.name, a);
  // the offline base is drawn when no tiles are configured, or when the tiles cannot be loaded
  const baseMapHref = assets?.baseMap !== undefined ? `assets/${assets.baseMap.name}` : null;
  const stylesheetHref = assets === undefined ? undefined : `assets/${assets.stylesheet.name}`;
  const messageCsp = widgetCsp({ frameAncestors: [] });
  const message = (status: number, title: string, text: string): WidgetHtml => ({ status, html: widgetMessageHtml(title, text, stylesheetHref), csp: messageCsp });

  async function page(query: Readonly<Record<string, unknown>>, headers: IncomingHttpHeaders): Promise<WidgetHtml> {
    const raw = query['key'];
    const key = typeof raw === 'string' ? raw.trim() : undefined;
    const unknown = Object.keys(query).find((name) => name !== 'key');
    if (unknown !== undefined) {
      // a key pasted without `key=` (`?sk_...`) is named masked, never written into the page
      return message(400, 'Unknown parameter', `This page takes only the key parameter (/v1/widget/?key=pk_...); ${JSON.stringify(maskKeys(unknown.slice(0, 50)))} is not known.`);
    }
    if (assets === undefined) return message(503, 'Widget unavailable', 'unavailable' in loaded ? loaded.unavailable : 'not built');
    // a secret key anywhere in the address is refused first, with the remedy (once or repeated)
    const given: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (given.some((k) => typeof k === 'string' && k.trim().startsWith('sk_'))) {
      return message(
        403,
        'Secret key refused',
        'A secret key was put in this page\'s address. Secret keys must never appear in a web page: use the account\'s public key (pk_...) here, and rotate the secret key now, since it has been exposed (the service\'s operator: venue-search keys rotate <accountId> --only secret).',
      );
    }
    if (Array.isArray(raw)) {
      // an embed template that appends `?key=` to an address already holding one (audit 71e F4: it was "a public key is needed")
      return message(400, 'The key is given more than once', `This page's address gives the key parameter ${raw.length} times: give it once (/v1/widget/?key=pk_...).`);
    }
    if (key === undefined || key === '') {
      return message(400, 'A public key is needed', 'This widget needs the site\'s public key in its address: /v1/widget/?key=pk_...');
    }
    const principal = await principalOfKey(deps.accounts, key, deps.clock());
    if (principal === undefined || principal.keyKind !== 'public') {
      return message(401, 'Key not valid', 'This widget\'s public key is not valid: it is unknown, revoked or past its rotation grace period. The site owner needs to update it.');
    }
    const { allowed: originOk, origin, allowedOrigins: allowed } = await publicKeyOriginCheck(deps.accounts, principal.accountId, headers);
    if (!originOk) {
      return message(403, 'Not allowed on this site', `This widget's key may not be used on ${origin ?? 'this site'}. The site owner can add this site to the key's allowed origins.`);
    }
    const html = widgetPageHtml(
      {
        vocabulary: await deps.vocabulary(),
        venueExtent: ((await deps.venueExtent?.()) ?? null) as WidgetConfig['venueExtent'],
        tileUrl: deps.tileUrl ?? null,
        tileAttribution: deps.tileAttribution ?? null,
        baseMapHref,
        placeLabelsHref: PLACE_LABELS_PATH,
      },
      { scriptHref: `assets/${assets.script.name}`, stylesheetHref: `assets/${assets.stylesheet.name}` },
    );
    return { status: 200, html, csp: widgetCsp({ tileOrigins, frameAncestors: allowed }) };
  }

  return { assetsByName, page };
}
