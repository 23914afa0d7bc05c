/**
 * Audit 66a F5: a field of the JSON body of POST /v1/search sent in its query string
 * (`?locations=...`, `?mode=POINT`) was answered "locations is not a known parameter" or
 * "locations is required", with no word that it belongs in the body (balances had that hint
 * by a hand list). Now every POST route with a JSON body says so, the notes derived from the
 * route's schemas. Oracle: the body fields and query parameters of docs/http.md, and the
 * messages written out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './support/harness.js';

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await createHarness();
  key = (await h.open()).secretKey;
});
afterAll(async () => {
  await h.close();
});

const SEARCH_BODY = { locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 500 } };
const inSearchBody = (name: string) =>
  `${name} is not a known parameter; ${name} is a field of the JSON body of POST /v1/search, not a query parameter: send {"locations": ..., "mode": ...} as the body`;

async function refusal(url: string, payload?: object): Promise<{ status: number; code: string; param: string; message: string }> {
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { 'api-key': key, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  const { code, param, message } = res.json() as { code: string; param: string; message: string };
  return { status: res.statusCode, code, param, message };
}

describe('POST /v1/search with body fields in the query string: they belong in the body (audit 66a F5)', () => {
  it('with a valid body: the query name is named and placed', async () => {
    for (const name of ['locations', 'mode', 'preferences']) {
      expect(await refusal(`/v1/search/?${name}=x`, SEARCH_BODY)).toEqual({ status: 400, code: 'invalid_request', param: name, message: inSearchBody(name) });
    }
  });

  it('with an empty object, or no body: the query name, not "locations is required" or "the body is empty"', async () => {
    expect(await refusal('/v1/search/?mode=POINT', {})).toEqual({ status: 400, code: 'invalid_request', param: 'mode', message: inSearchBody('mode') });
    expect(await refusal('/v1/search?locations=51.5,-0.1&mode=POINT')).toEqual({ status: 400, code: 'invalid_request', param: 'locations', message: inSearchBody('locations') });
  });

  it('a name of neither part keeps its plain answer; a body error with a clean query keeps its own', async () => {
    expect(await refusal('/v1/search?colour=red', SEARCH_BODY)).toEqual({ status: 400, code: 'invalid_request', param: 'colour', message: 'colour is not a known parameter' });
    const plain = await refusal('/v1/search?limit=5', {});
    expect(plain.param).toBe('locations');
    expect(plain.message).not.toContain('JSON body');
  });

  it('the reverse, limit and offset in the body, and balances from/to in the query, still say where they belong', async () => {
    expect((await refusal('/v1/search', { ...SEARCH_BODY, offset: 20 })).message).toBe(
      'offset is not a known parameter; offset is a query parameter of POST /v1/search, not a body field: send it in the URL (/v1/search?offset=...)',
    );
    expect(await refusal('/v1/business/balances?from=2026-01-01T00:00:00Z', {})).toMatchObject({
      status: 400,
      param: 'from',
      message: 'from is not a known parameter; from is a field of the JSON body of POST /v1/business/balances, not a query parameter: send {"from": ..., "to": ...} as the body',
    });
  });
});
