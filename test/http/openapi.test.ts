/**
 * Issue 14 item 4: the served OpenAPI document is accepted by strict tools and matches the
 * service.
 * - Lint: Redocly CLI (`redocly lint`, recommended rules, test/http/redocly.yaml) over the
 *   document as served; any error fails.
 * - Replay: a realistic request set over every route, successes and errors (200, 400, 401,
 *   402, 403, 404, 405, 413, 415, 429), each response checked against the document with a
 *   JSON Schema 2020-12 validator (support/openapi-check.ts): status, body, headers.
 * - The README's `POST /v1/search/?limit=5` request validates against the document.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiChecker } from './support/openapi-check.js';
import { createHarness, type Harness } from './support/harness.js';

const run = promisify(execFile);
const PUBLIC_URL = 'https://venues.api.test';

let h: Harness;
let document: Record<string, unknown>;
beforeAll(async () => {
  h = await createHarness({ extra: { publicUrl: PUBLIC_URL } });
  const res = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(async () => {
  await h.close();
});

describe('the document', () => {
  it('passes redocly lint (recommended rules) with zero errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(document, null, 2));
      const cli = join(process.cwd(), 'node_modules/@redocly/cli/bin/cli.js');
      const config = join(process.cwd(), 'test/http/redocly.yaml');
      // exit code 1 when there are errors: read the report either way
      const out = await run(process.execPath, [cli, 'lint', file, '--config', config, '--format', 'json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string }[] };
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
      expect(report.problems.map((p) => p.ruleId)).not.toContain('struct');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is OpenAPI 3.1 whose every schema compiles in a strict JSON Schema 2020-12 validator', () => {
    const checker = new OpenApiChecker(document);
    expect(checker.compileAll()).toBeGreaterThan(100);
    expect(document['openapi']).toBe('3.1.0');
  });

  it('states servers, an operationId on every operation, optional paging, single-wrapped headers, 2020-12 tuples, one $ref-ed envelope', () => {
    expect(document['servers']).toEqual([{ url: PUBLIC_URL, description: 'This service' }]);
    const paths = document['paths'] as Record<string, Record<string, { operationId?: string; parameters?: { name: string; required: boolean }[]; responses: Record<string, { headers?: Record<string, { schema: Record<string, unknown> }>; content?: Record<string, { schema: unknown }> }> }>>;
    const ids: string[] = [];
    for (const item of Object.values(paths)) for (const op of Object.values(item)) ids.push(op.operationId ?? '(none)');
    expect(ids).not.toContain('(none)');
    expect(new Set(ids).size).toBe(ids.length);
    expect(paths['/v1/search']!['post']!.operationId).toBe('searchVenuesWithoutSlash');
    const search = paths['/v1/search/']!['post']!;
    expect(search.parameters!.map((p) => [p.name, p.required])).toEqual([
      ['limit', false],
      ['offset', false],
    ]);
    for (const header of Object.values(search.responses['429']!.headers!)) expect(header.schema).not.toHaveProperty('schema');
    const text = JSON.stringify(document);
    expect(text).not.toContain('additionalItems');
    const published = JSON.parse(text);
    // the answers' shapes are named components, referred to where they appear (audit 60c: five anonymous copies of a venue)
    expect(published.paths['/v1/establishments/basic/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/BasicDetails' });
    expect(published.paths['/v1/search/'].post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchResponse' });
    expect(published.paths['/v1/search/'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchBody' });
    expect(published.components.schemas.SearchResponse.properties.establishments.items).toEqual({ $ref: '#/components/schemas/SearchEstablishment' });
    expect(Object.keys(published.components.schemas).sort()).toEqual(
      ['AdvancedDetails', 'BasicDetails', 'DayName', 'ErrorEnvelope', 'FindEstablishment', 'FindResponse', 'GroupSummary', 'MatchScore', 'Menu', 'MenuList', 'SearchBody', 'SearchEstablishment', 'SearchResponse', 'SearchVocabulary'].sort(),
    );
    const location = published.components.schemas.BasicDetails.properties.location;
    expect(location.properties.coordinates).toMatchObject({ type: 'array', items: false, minItems: 2, maxItems: 2 });
    expect(location.properties.coordinates.prefixItems).toHaveLength(2);
    // every error status of every operation is the one component
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (status.startsWith('2')) continue;
          expect(response.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        }
      }
    }
  });

  it('states the rules a schema cannot (audit 65c F3, F5): filter values from /v1/vocabulary, unique labels, [latitude, longitude]', async () => {
    const schemas = (document['components'] as { schemas: Record<string, any> }).schemas; // eslint-disable-line @typescript-eslint/no-explicit-any
    const preferences = schemas['SearchBody'].properties.preferences.properties;
    for (const filter of ['establishmentFilters', 'catersFilters', 'vibes']) expect([filter, preferences[filter].items.description]).toEqual([filter, expect.stringContaining('GET /v1/vocabulary')]);
    const label: string = schemas['SearchBody'].properties.locations.items.properties.label.description;
    expect(label).toContain("another location's label");
    expect(label).toContain("another location's index");
    const coordinates = schemas['BasicDetails'].properties.location.properties.coordinates;
    expect(coordinates.description).toMatch(/^\[latitude, longitude\]: latitude FIRST, unlike GeoJSON/);
    // and it is what the service sends: the fixture venue fx-00000 is in Leeds, 53.82 N 1.56 W
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/establishments/basic/fx-00000', headers: { 'api-key': acct.secretKey } });
    const [first, second] = (res.json() as { location: { coordinates: [number, number] } }).location.coordinates;
    expect(first).toBeCloseTo(53.82, 2);
    expect(second).toBeCloseTo(-1.56, 2);
  });

  it('the routes outside the document are routes of the service, absent from it, and named in docs/http.md (audit 65c F4)', async () => {
    const paths = Object.keys(document['paths'] as object);
    const docs = await readFile('docs/http.md', 'utf8');
    const outside = docs.slice(docs.indexOf('the document describes the JSON API only'), docs.indexOf('A gateway that routes by the document'));
    for (const [route, probe] of [
      ['/v1/openapi.json', '/v1/openapi.json'],
      ['/v1/health', '/v1/health'],
      ['/v1/widget/', '/v1/widget/'],
      ['/v1/widget/places.json', '/v1/widget/places.json'],
      ['/v1/widget/assets/{file}', '/v1/widget/assets/none.js'],
    ] as const) {
      expect([route, paths.includes(route)]).toEqual([route, false]);
      expect([route, outside.includes(`\`GET ${route}\``)]).toEqual([route, true]);
      // a route of the service: another method is its 405 (an unknown path is a 404)
      expect([route, (await h.app.inject({ method: 'DELETE', url: probe })).statusCode]).toEqual([route, 405]);
    }
  });

  it("the README's POST /v1/search/?limit=5 request validates against the document and is answered 200", async () => {
    const readme = await readFile('README.md', 'utf8');
    const at = readme.indexOf('/v1/search/?limit=5');
    expect(at).toBeGreaterThan(0);
    const url = /"(?:https?:\/\/[^/"]+|\$B)(\/v1\/search\/\?limit=5)"/.exec(readme.slice(at - 60, at + 40))![1]!;
    const bodyText = /-d '([^']*)'/.exec(readme.slice(at))![1]!;
    const body: unknown = JSON.parse(bodyText);
    const checker = new OpenApiChecker(document);
    expect(checker.checkRequest('POST', url, body)).toBe('/v1/search/');
    const acct = await h.open();
    const res = await h.app.inject({ method: 'POST', url, headers: { 'api-key': acct.secretKey }, payload: body as object });
    expect(res.statusCode).toBe(200);
    checker.checkResponse('POST', url, res);
  });

  it("the document's examples (audit 73f F1: it had none) each validate against their schema and are answered 200; the README's search body is the first", async () => {
    const checker = new OpenApiChecker(document);
    type Operation = { requestBody: { content: Record<string, { examples?: Record<string, { value: unknown }> }> } };
    const searchOperation = (document as { paths: Record<string, { post: Operation }> }).paths['/v1/search/']!.post;
    const bodies = Object.values(searchOperation.requestBody.content['application/json']?.examples ?? {}).map((e) => e.value);
    expect(bodies.map((b) => (b as { mode: { mode: string } }).mode.mode)).toEqual(['POINT', 'PATH']);
    // the twin without the slash shows them too
    const twin = (document as { paths: Record<string, { post: Operation }> }).paths['/v1/search']!.post;
    expect(Object.values(twin.requestBody.content['application/json']?.examples ?? {}).map((e) => e.value)).toEqual(bodies);
    const readme = await readFile('README.md', 'utf8');
    const at = readme.indexOf('/v1/search/?limit=5');
    expect(JSON.parse(/-d '([^']*)'/.exec(readme.slice(at))![1]!)).toEqual(bodies[0]);
    const acct = await h.open();
    for (const body of bodies) {
      expect(checker.checkRequest('POST', '/v1/search/?limit=5', body)).toBe('/v1/search/');
      const res = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=5', headers: { 'api-key': acct.secretKey }, payload: body as object });
      expect(res.statusCode, res.body).toBe(200);
      checker.checkResponse('POST', '/v1/search/?limit=5', res);
    }
    // a query parameter's example is the parameter's own `example` (@fastify/swagger moves the schema's `examples` there)
    const find = (document as { paths: Record<string, { get: { parameters: { name: string; example?: string }[] } }> }).paths['/v1/find']!.get.parameters;
    const example = (name: string) => find.find((p) => p.name === name)?.example;
    expect([example('q'), example('location')]).toEqual(['red lion', 'Soho']);
    const url = `/v1/find?q=${encodeURIComponent(example('q')!)}&location=${encodeURIComponent(example('location')!)}`;
    expect(checker.checkRequest('GET', url, undefined)).toBe('/v1/find');
    const res = await h.app.inject({ method: 'GET', url, headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode, res.body).toBe(200);
    checker.checkResponse('GET', url, res);
  });

  it('atTime: a strict client and the service agree on which timestamps are valid, and a refused one is named in words', async () => {
    const checker = new OpenApiChecker(document);
    const acct = await h.open();
    // [atTime, the document lets it through, the service answers 200]: RFC 3339's lower case
    // and leap second are accepted; a dated zone, a date without a time or a word are
    // refused by both; the pattern knows each month's days but not leap years, so only
    // February 29 of a common year and the leap second ending 9999 pass it and are refused by
    // the service, as its description says (audit 65c F2).
    const cases: Array<[string, boolean, boolean]> = [
      ['2026-11-27T20:00:00Z', true, true],
      ['2026-11-27t20:00:00z', true, true],
      ['2016-12-31T23:59:60Z', true, true],
      ['2026-11-27T20:00+00:00', true, true],
      ['2026-11-27T20:00:00.123456789Z', true, true],
      ['2026-11-27T20:00:00+01:00', false, false],
      ['2026-11-27', false, false],
      ['tonight', false, false],
      ['2026-11-27T20:00:00.1234567890Z', false, false],
      ['2026-02-30T20:00:00Z', false, false],
      ['2026-02-29T20:00:00Z', true, false],
      ['2024-02-29T20:00:00Z', true, true],
      ['2026-11-27T12:00:60Z', false, false],
      // the years 100 to 9999 (docs/hours.md): the leap second ending 9999 is the first instant of 10000 (audit 62a 2)
      ['9999-12-31T23:59:59Z', true, true],
      ['9999-12-31T23:59:60Z', true, false],
      ['0099-12-31T23:59:59Z', false, false],
      ['0100-01-01T00:00:00Z', true, true],
    ];
    for (const [atTime, documented, served] of cases) {
      const body = { ...POINT, preferences: { openingConditions: { state: 'OPEN', atTime } } };
      let accepted = true;
      try {
        checker.checkRequest('POST', '/v1/search/', body);
      } catch {
        accepted = false;
      }
      expect(accepted, atTime).toBe(documented);
      const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'api-key': acct.secretKey }, payload: body });
      expect(res.statusCode, atTime).toBe(served ? 200 : 400);
      if (!served) {
        expect(res.json().param, atTime).toBe('preferences.openingConditions.atTime');
        // an offset other than UTC's is also told the instant in UTC (audit 70g F4): 20:00 at +01:00 is 19:00Z
        // and a date that does not exist, why (audit 71c): 2026 is no leap year
        const why: Record<string, string> = {
          '2026-11-27T20:00:00+01:00': ' (offsets other than UTC are refused: that instant is "2026-11-27T19:00:00Z")',
          '2026-02-30T20:00:00Z': ' (no such date: February 2026 has 28 days)',
          '2026-02-29T20:00:00Z': ' (no such date: February 2026 has 28 days)',
        };
        expect(res.json().message, atTime).toBe(`preferences.openingConditions.atTime must be an ISO 8601 UTC timestamp in the years 100 to 9999, such as "2026-11-21T20:00:00Z"${why[atTime] ?? ''}; got ${JSON.stringify(atTime)}`);
      }
    }
  });
});

interface Replayed {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  readonly url: string;
  readonly key?: 'secret' | 'public' | 'broke' | 'hobbyist' | 'bogus' | 'restricted';
  /** An `Origin` header (a public key of an account that allows only https://app.example.com). */
  readonly origin?: string;
  readonly body?: unknown;
  readonly raw?: { payload: string; contentType: string };
  readonly status: number;
}

// around the fixture venue fx-00000 (Call Lane, Leeds)
const POINT = { locations: [{ lat: 53.8220597, lon: -1.5576415, label: 'ana' }, { lat: 53.7960, lon: -1.5400, label: 'ben' }], mode: { mode: 'POINT', maxDistance: 2000 } };
const PATH = {
  locations: [{ lat: 53.7960, lon: -1.5491 }, { lat: 53.8008, lon: -1.5400 }, { lat: 53.8220597, lon: -1.5576415 }],
  mode: { mode: 'PATH', maxDistance: 500 },
  preferences: { establishmentFilters: ['pub'], openingConditions: { state: 'OPEN', atTime: '2026-03-13T20:00:00Z' }, chainPreference: 'PREFER_INDEPENDENT' },
};

const REQUESTS: readonly Replayed[] = [
  // successes, every route
  { method: 'POST', url: '/v1/search/?limit=5', body: POINT, status: 200 },
  { method: 'POST', url: '/v1/search/', body: { ...POINT, preferences: { catersFilters: ['vegan'], nonCompromise: ['catersFilters'] } }, status: 200 },
  { method: 'POST', url: '/v1/search?limit=3&offset=1', body: PATH, status: 200 },
  { method: 'POST', url: '/v1/search/?limit=2', key: 'public', body: POINT, status: 200 },
  { method: 'POST', url: '/v1/search/', body: { locations: [{ lat: -1.5576, lon: 53.822 }], mode: { mode: 'POINT', maxDistance: 1000 } }, status: 200 },
  { method: 'GET', url: '/v1/find?q=nando&location=Leeds&limit=2', status: 200 },
  { method: 'GET', url: '/v1/find?q=coffee&lat=53.8&lon=-1.55&maxDistanceMeters=3000', status: 200 },
  { method: 'GET', url: '/v1/find?name=zzzzqqq', status: 200 },
  { method: 'GET', url: '/v1/establishments/basic/fx-00000', status: 200 },
  { method: 'GET', url: '/v1/establishments/advanced/fx-00000', status: 200 },
  { method: 'GET', url: '/v1/establishments/menus/fx-00000', status: 200 },
  { method: 'GET', url: '/v1/establishments/basic/fx-00001', key: 'public', status: 200 },
  { method: 'GET', url: '/v1/vocabulary', status: 200 },
  { method: 'GET', url: '/v1/business/balances', status: 200 },
  { method: 'POST', url: '/v1/business/balances', body: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }, status: 200 },
  // 400
  { method: 'POST', url: '/v1/search/', body: { locations: [{ lat: 95, lon: 0 }], mode: { mode: 'POINT', maxDistance: 1000 } }, status: 400 },
  { method: 'POST', url: '/v1/search/?limit=0', body: POINT, status: 400 },
  { method: 'POST', url: '/v1/search/?colour=red', body: POINT, status: 400 },
  { method: 'POST', url: '/v1/search/', body: { ...PATH, mode: { mode: 'PATH', maxDistance: 20_000 } }, status: 400 },
  { method: 'POST', url: '/v1/search/', raw: { payload: '{"locations": [', contentType: 'application/json' }, status: 400 },
  { method: 'GET', url: '/v1/find?q=pub&lat=53.8', status: 400 },
  { method: 'GET', url: '/v1/find?q=pub&location=Nowhereville%20Upon%20Zzz', status: 400 },
  { method: 'GET', url: '/v1/find?q=pub&colour=red', status: 400 },
  { method: 'GET', url: '/v1/establishments/basic/fx-00000?verbose=1', status: 400 },
  { method: 'GET', url: '/v1/establishments/advanced/%E0%A4%A', status: 400 },
  { method: 'GET', url: '/v1/vocabulary?x=1', status: 400 },
  { method: 'GET', url: '/v1/business/balances?x=1', status: 400 },
  { method: 'POST', url: '/v1/business/balances', body: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, status: 400 },
  { method: 'POST', url: '/v1/business/balances', body: { from: 'yesterday', to: '2026-01-01T00:00:00Z' }, status: 400 },
  // 401
  { method: 'POST', url: '/v1/search/', key: 'bogus', body: POINT, status: 401 },
  { method: 'GET', url: '/v1/find?q=pub', key: 'bogus', status: 401 },
  { method: 'GET', url: '/v1/business/balances', key: 'bogus', status: 401 },
  // 402
  { method: 'POST', url: '/v1/search/', key: 'broke', body: POINT, status: 402 },
  { method: 'GET', url: '/v1/find?q=pub', key: 'broke', status: 402 },
  { method: 'GET', url: '/v1/establishments/menus/fx-00000', key: 'broke', status: 402 },
  // 403
  { method: 'GET', url: '/v1/vocabulary', key: 'public', status: 403 },
  // 403 origin_not_allowed: every route a public key may call
  { method: 'GET', url: '/v1/find?q=pub', key: 'restricted', origin: 'https://evil.example', status: 403 },
  { method: 'POST', url: '/v1/search/', key: 'restricted', origin: 'https://evil.example', body: POINT, status: 403 },
  { method: 'GET', url: '/v1/establishments/basic/fx-00000', key: 'restricted', origin: 'https://evil.example', status: 403 },
  { method: 'GET', url: '/v1/establishments/advanced/fx-00000', key: 'restricted', origin: 'https://evil.example', status: 403 },
  { method: 'GET', url: '/v1/establishments/menus/fx-00000', key: 'restricted', origin: 'https://evil.example', status: 403 },
  { method: 'GET', url: '/v1/business/balances', key: 'restricted', origin: 'https://evil.example', status: 403 },
  { method: 'POST', url: '/v1/business/balances', key: 'restricted', origin: 'https://evil.example', body: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }, status: 403 },
  { method: 'GET', url: '/v1/find?q=pub', key: 'restricted', origin: 'https://app.example.com', status: 200 },
  // 404
  { method: 'GET', url: '/v1/establishments/basic/no-such-venue', status: 404 },
  { method: 'GET', url: '/v1/establishments/menus/no-such-venue', status: 404 },
  { method: 'GET', url: '/v1/nowhere', status: 404 },
  { method: 'GET', url: '/v2/search/', status: 404 },
  // 405
  { method: 'GET', url: '/v1/search/', status: 405 },
  { method: 'DELETE', url: '/v1/find', status: 405 },
  { method: 'PUT', url: '/v1/business/balances', status: 405 },
  // 413, 415
  { method: 'POST', url: '/v1/search/', body: { ...POINT, pad: 'x'.repeat(70 * 1024) }, status: 413 },
  { method: 'POST', url: '/v1/search/', raw: { payload: 'lat=1', contentType: 'text/plain' }, status: 415 },
  { method: 'POST', url: '/v1/business/balances', raw: { payload: 'x', contentType: 'application/x-www-form-urlencoded' }, status: 415 },
  // 429: the Hobbyist plan allows 2 per second; the fake clock stands still
  { method: 'GET', url: '/v1/find?q=pub', key: 'hobbyist', status: 200 },
  { method: 'GET', url: '/v1/business/balances', key: 'hobbyist', status: 200 },
  { method: 'GET', url: '/v1/find?q=pub', key: 'hobbyist', status: 429 },
  { method: 'POST', url: '/v1/search/', key: 'hobbyist', body: POINT, status: 429 },
];

describe('replay: every response matches the document', () => {
  it(`${REQUESTS.length} requests over every route: status, body and headers`, async () => {
    const checker = new OpenApiChecker(document);
    const main = await h.open('Enterprise');
    const broke = await h.open('Enterprise', 1000);
    const hobbyist = await h.open('Hobbyist');
    const restricted = await h.open('Enterprise');
    await h.accounts.setAllowedOrigins(restricted.accountId, ['https://app.example.com']);
    const keys = { secret: main.secretKey, public: main.publicKey, broke: broke.secretKey, hobbyist: hobbyist.secretKey, bogus: `sk_${'0'.repeat(40)}`, restricted: restricted.publicKey };
    const statuses = new Set<number>();
    for (const r of REQUESTS) {
      const headers: Record<string, string> = { 'api-key': keys[r.key ?? 'secret'], ...(r.origin === undefined ? {} : { origin: r.origin }) };
      const payload = r.raw?.payload ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
      if (payload !== undefined) headers['content-type'] = r.raw?.contentType ?? 'application/json';
      const res = await h.app.inject({ method: r.method, url: r.url, headers, ...(payload === undefined ? {} : { payload }) });
      expect({ request: `${r.method} ${r.url}`, status: res.statusCode, body: res.statusCode === r.status ? '' : res.body }).toEqual({ request: `${r.method} ${r.url}`, status: r.status, body: '' });
      checker.checkResponse(r.method, r.url, res);
      if (r.status === 200 && r.body !== undefined) checker.checkRequest(r.method, r.url, r.body);
      statuses.add(res.statusCode);
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 402, 403, 404, 405, 413, 415, 429]);
    // every documented operation was exercised, with a success
    const operations = Object.values(document['paths'] as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    for (const id of operations) expect({ id, ok: checker.seen.get(id)?.has(200) ?? false }).toEqual({ id, ok: true });
  });

  it('a response the document does not allow is caught (the checker can fail)', async () => {
    const checker = new OpenApiChecker(document);
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': acct.secretKey } });
    const tampered = { ...res, body: JSON.stringify({ ...res.json(), balanceMicros: -1 }) };
    expect(() => checker.checkResponse('GET', '/v1/business/balances', tampered)).toThrow(/balanceMicros/);
    const noHeader = { ...res, headers: { ...res.headers, 'x-ratelimit-limit': undefined } };
    expect(() => checker.checkResponse('GET', '/v1/business/balances', noHeader)).toThrow(/X-RateLimit-Limit/);
    const badHeader = { ...res, headers: { ...res.headers, 'request-id': 'not-a-uuid' } };
    expect(() => checker.checkResponse('GET', '/v1/business/balances', badHeader)).toThrow(/Request-Id/);
    expect(() => checker.checkRequest('POST', '/v1/search/?limit=5&extra=1', POINT)).toThrow(/extra/);
    expect(() => checker.checkRequest('POST', '/v1/search/?limit=500', POINT)).toThrow(/limit/);
  });
});
