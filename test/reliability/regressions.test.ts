/**
 * Failures found by the reliability suite (issue 8), each pinned by a test named after what
 * it was. Oracle: CONTRACT "HTTP errors" (one envelope, `param` names the field) and the
 * schemas' own bounds (VenueIdParamsSchema: id 1..200 characters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedAccount } from '../../src/accounts/accounts.js';
import { createHarness, ledgerRows, type Harness } from '../http/support/harness.js';
import { expectEnvelope } from './support/envelope.js';

let h: Harness;
let acct: OpenedAccount;
beforeAll(async () => {
  h = await createHarness();
  acct = await h.open('Enterprise');
});
afterAll(async () => {
  await h.close();
});

const get = (url: string) => h.app.inject({ method: 'GET', url, headers: { 'API-Key': acct.secretKey } });

describe('regressions', () => {
  it('regression: a venue id of 101..200 characters (valid by the schema) gave fastify\'s own 414 body instead of a 404 envelope', async () => {
    for (const length of [101, 150, 200]) {
      const res = await get(`/v1/establishments/basic/${'x'.repeat(length)}`);
      expect(res.statusCode, `id of ${length} characters`).toBe(404);
      expect(expectEnvelope(res.statusCode, res.payload, `id ${length}`)).toMatchObject({ code: 'venue_not_found', param: 'id' });
    }
  });

  it('regression: a venue id over 200 characters gave a non-envelope 414 echoing the whole path; now 400 naming id', async () => {
    const res = await get(`/v1/establishments/advanced/${'x'.repeat(5000)}`);
    expect(res.statusCode).toBe(400);
    const env = expectEnvelope(res.statusCode, res.payload, 'long id');
    expect(env).toMatchObject({ code: 'invalid_request', param: 'id' });
    expect(env.message.length).toBeLessThan(200);
  });

  it('regression: malformed percent-encoding in a path parameter (%E0%A4%A, %FF) gave fastify\'s {error, statusCode} body; now the envelope', async () => {
    for (const id of ['%E0%A4%A', '%FF', '%C0%AF', 'ok%']) {
      const res = await get(`/v1/establishments/menus/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(expectEnvelope(res.statusCode, res.payload, id).code).toBe('invalid_url');
    }
    expect((await ledgerRows(h.store, acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(0);
  });

  it('regression: 1e400 in locations[1].weight was named "locations[1].weight" (engine style) while schema errors say "locations.1.lat"; one field, one name', async () => {
    const body = '{"locations":[{"lat":53.8,"lon":-1.55},{"lat":53.79,"lon":-1.54,"weight":1e400}],"mode":{"mode":"POINT","maxDistance":1000}}';
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/', headers: { 'API-Key': acct.secretKey, 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode).toBe(400);
    expect(expectEnvelope(res.statusCode, res.payload, 'weight 1e400').param).toBe('locations.1.weight');
    const lat = await h.app.inject({
      method: 'POST',
      url: '/v1/search/',
      headers: { 'API-Key': acct.secretKey, 'content-type': 'application/json' },
      payload: body.replace('"lat":53.79', '"lat":91'),
    });
    expect(expectEnvelope(lat.statusCode, lat.payload, 'lat 91').param).toBe('locations.1.lat');
  });
});
