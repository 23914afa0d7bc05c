/**
 * "Did you mean" for the names a user of this API most likely confuses (audit 64a F5): find's
 * radius under the search mode's name (`maxDistance`), and names that belong in another part
 * of the same call (`limit` in the search body, `from` in the balances query). Over HTTP and
 * through the library alike; each expected message is written by hand from the documented
 * names (docs/http.md, docs/find.md, docs/search.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createHarness, type Harness } from '../http/support/harness.js';

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await createHarness();
  key = (await h.open()).secretKey;
});
afterAll(async () => {
  await h.close();
});

const searchBody = { locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 500 } };

async function refusal(method: 'GET' | 'POST', url: string, payload?: object): Promise<{ param: string; message: string }> {
  const res = await h.app.inject({ method, url, headers: { 'api-key': key }, ...(payload === undefined ? {} : { payload }) });
  expect(res.statusCode).toBe(400);
  const { code, param, message } = res.json() as { code: string; param: string; message: string };
  expect(code).toBe('invalid_request');
  return { param, message };
}

describe('HTTP: a confused name is answered with the right name or the right place', () => {
  it('GET /v1/find?maxDistance= : did you mean maxDistanceMeters', async () => {
    expect(await refusal('GET', '/v1/find?q=red&maxDistance=100&lat=51.5&lon=-0.1')).toEqual({
      param: 'maxDistance',
      message: 'maxDistance is not a known parameter; did you mean "maxDistanceMeters"?',
    });
  });

  it('GET /v1/find?loc= : did you mean "location" (its abbreviation), not "lon" (one letter away) (audit 65a F5)', async () => {
    expect(await refusal('GET', '/v1/find?q=red&loc=Soho')).toEqual({ param: 'loc', message: 'loc is not a known parameter; did you mean "location"?' });
    // a misspelling that starts no known name is still answered by spelling
    expect((await refusal('GET', '/v1/find?q=red&lng=-0.1&lat=51.5')).message).toContain('did you mean "lon"?');
  });

  it('POST /v1/search with limit or offset in the body: they are query parameters', async () => {
    expect(await refusal('POST', '/v1/search', { ...searchBody, limit: 3 })).toEqual({
      param: 'limit',
      message: 'limit is not a known parameter; limit is a query parameter of POST /v1/search, not a body field: send it in the URL (/v1/search?limit=...)',
    });
    expect((await refusal('POST', '/v1/search/', { ...searchBody, offset: 3 })).message).toBe(
      'offset is not a known parameter; offset is a query parameter of POST /v1/search, not a body field: send it in the URL (/v1/search?offset=...)',
    );
    // the search mode's own radius under find's name
    expect((await refusal('POST', '/v1/search', { ...searchBody, mode: { mode: 'POINT', maxDistanceMeters: 500 } })).message).toBe(
      'mode.maxDistanceMeters is not a known parameter; did you mean "maxDistance"?',
    );
  });

  it('/v1/business/balances?from= (GET or POST): from and to belong in the POST body', async () => {
    const inBody = 'a field of the JSON body of POST /v1/business/balances, not a query parameter: send {"from": ..., "to": ...} as the body';
    expect(await refusal('GET', '/v1/business/balances?from=2026-11-01')).toEqual({ param: 'from', message: `from is not a known parameter; from is ${inBody}` });
    expect(await refusal('POST', '/v1/business/balances?to=2026-11-01', { from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' })).toEqual({
      param: 'to',
      message: `to is not a known parameter; to is ${inBody}`,
    });
  });

  it('POST /v1/business/balances with from/to only in the query: the hint, not "the body is empty" or "from is required" (audit 65a F5)', async () => {
    const inBody = 'a field of the JSON body of POST /v1/business/balances, not a query parameter: send {"from": ..., "to": ...} as the body';
    const url = '/v1/business/balances?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z';
    const expected = { param: 'from', message: `from is not a known parameter; from is ${inBody}` };
    // no body at all, an empty object, half a body
    const empty = await h.app.inject({ method: 'POST', url, headers: { 'api-key': key, 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    expect({ param: empty.json().param, message: empty.json().message }).toEqual(expected);
    expect(await refusal('POST', url, {})).toEqual(expected);
    expect(await refusal('POST', '/v1/business/balances?to=2026-02-01T00:00:00Z', { from: '2026-01-01T00:00:00Z' })).toEqual({
      param: 'to',
      message: `to is not a known parameter; to is ${inBody}`,
    });
    // a body error with no misplaced name in the query keeps its own answer
    const plain = await h.app.inject({ method: 'POST', url: '/v1/business/balances', headers: { 'api-key': key }, payload: {} });
    expect(plain.json().param).toBe('from');
    expect(plain.json().message).not.toContain('query parameter');
  });

  it('a name with no known name near it and no other place keeps the plain answer', async () => {
    expect(await refusal('POST', '/v1/search', { ...searchBody, colour: 'red' })).toEqual({ param: 'colour', message: 'colour is not a known parameter' });
    // limit in a find query is find's own parameter: no note
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=red&limit=1', headers: { 'api-key': key } });
    expect(res.statusCode).toBe(200);
  });
});

describe('library: the same names through engine.find and engine.search', () => {
  const venues: VenueRecord[] = [{ id: 'a', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5, -0.1] }, primaryGenre: 'pub' }];
  const engine = createEngine(venues);
  const loose = <T>(value: unknown): T => value as T;
  const thrown = (run: () => unknown): { code?: string; param?: string; message: string } => {
    try {
      run();
    } catch (err) {
      return err as { code?: string; param?: string; message: string };
    }
    throw new Error('no error');
  };

  it('engine.find({maxDistance}): did you mean maxDistanceMeters', () => {
    expect(thrown(() => engine.find(loose({ q: 'red', maxDistance: 100, lat: 51.5, lon: -0.1 })))).toMatchObject({
      code: 'invalid_request',
      param: 'maxDistance',
      message: expect.stringContaining('maxDistance must be left out: it is not a find parameter; did you mean "maxDistanceMeters"?'),
    });
  });

  it('engine.search({..., limit}): limit is an option of the call', () => {
    expect(thrown(() => engine.search(loose({ ...searchBody, limit: 3 })))).toMatchObject({
      code: 'invalid_request',
      param: 'limit',
      message: 'limit is not a known field; limit is an option of engine.search, not a field of its request: engine.search(request, { limit }) (expected locations, mode, preferences)',
    });
  });

  // the mirror mistake: find takes its paging in its params (audit 66d F4)
  it('engine.find(params, {limit}) / {offset}: each is a parameter of engine.find', () => {
    expect(thrown(() => engine.find({ q: 'red' }, loose({ limit: 1 })))).toMatchObject({
      code: 'invalid_request',
      param: 'options.limit',
      message: 'options.limit is not an option of this call; limit is a parameter of engine.find, not an option of the call: engine.find({ q, limit: ... }) (its options: now); got 1',
    });
    expect(thrown(() => engine.find({ q: 'red' }, loose({ offset: 20 }))).message).toBe(
      'options.offset is not an option of this call; offset is a parameter of engine.find, not an option of the call: engine.find({ q, offset: ... }) (its options: now); got 20',
    );
    // q is named once in the example (audit 67a F7: it read engine.find({ q, q: ... }))
    expect(thrown(() => engine.find(loose({}), loose({ q: 'pub' }))).message).toBe(
      'options.q is not an option of this call; q is a parameter of engine.find, not an option of the call: engine.find({ q: ... }) (its options: now); got "pub"',
    );
    // details calls take `now` alone, and no find parameter: no such hint there
    expect(thrown(() => engine.basic('x', loose({ limit: 1 }))).message).toBe('options.limit is not an option of this call (its options: now); got 1');
  });

  it('engine.search(request, {limt}): did you mean limit', () => {
    expect(thrown(() => engine.search(loose(searchBody), loose({ limt: 3 })))).toMatchObject({
      code: 'invalid_request',
      param: 'options.limt',
      message: 'options.limt is not an option of this call; did you mean "limit"? (its options: now, limit, offset); got 3',
    });
  });
});
