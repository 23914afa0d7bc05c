// The operator routes of live data, in-process: authentication (security test), the NDJSON
// batch, removals, errors in the envelope, durability through the change log, compaction.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { FIXTURES_PATH, loadFixtureVenues } from '../search/support.js';

const TOKEN = 'operator-token-0123456789abcdef';
const tmp = mkdtempSync(join(tmpdir(), 'live-admin-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixtures = loadFixtureVenues();
const load = async (path: string) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine;
const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');
const venue = (id: string, name: string): VenueRecord => ({ id, name, location: { type: 'Point', coordinates: [51.5, -0.12] }, primaryGenre: 'pub' });

async function service(dir: string, admin: boolean) {
  const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir, compactAfter: 0, load });
  const accounts = new SqliteAccountsStore(':memory:');
  const app = await buildApp({ engine: live.engine, accounts, ...(admin ? { admin: { live, token: TOKEN, bodyLimitBytes: 1 << 20 } } : {}) });
  await app.ready();
  const customer = await openAccount(accounts, 'Enterprise');
  return { live, app, accounts, customer, close: async () => (await app.close(), await accounts.close(), await live.close()) };
}

const put = (app: FastifyInstance, body: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  app.inject({ method: 'PUT', url: '/admin/venues', headers: { 'content-type': 'application/x-ndjson', ...headers }, payload: body });

describe('admin routes: security', () => {
  let s: Awaited<ReturnType<typeof service>>;
  let plain: Awaited<ReturnType<typeof service>>;
  beforeAll(async () => {
    s = await service(join(tmp, 'sec'), true);
    plain = await service(join(tmp, 'plain'), false);
  });
  afterAll(async () => {
    await s.close();
    await plain.close();
  });

  it('refuses no token, a wrong token and a customer key with 401 in the envelope, changing nothing', async () => {
    const body = ndjson([venue('intruder', 'Intruder Arms')]);
    const attempts = [
      {},
      { authorization: 'Bearer not-the-token-at-all' },
      { authorization: `Bearer ${s.customer.secretKey}` },
      { 'api-key': s.customer.secretKey },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      for (const res of [
        await put(s.app, body, headers),
        await s.app.inject({ method: 'DELETE', url: `/admin/venues/${fixtures[0]!.id}`, headers }),
        await s.app.inject({ method: 'POST', url: '/admin/compact', headers }),
      ]) {
        expect(res.statusCode, JSON.stringify(headers)).toBe(401);
        expect(res.json()).toMatchObject({ type: 'authentication_error', code: expect.stringMatching(/admin_token/), message: expect.any(String) });
        expect(res.headers['www-authenticate']).toBe('Bearer realm="venue-search admin"');
      }
    }
    // The right token in another scheme, or bare: the message names the scheme wanted and the
    // one sent, never the token (audit 75b F4: "the operator token is not valid").
    const basic = `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`;
    for (const [authorization, got] of [[basic, 'got the "Basic" scheme'], [TOKEN, 'got no scheme'], [`Token ${TOKEN}`, 'got the "Token" scheme'], [`${TOKEN} x`, 'got no scheme']] as const) {
      const res = await s.app.inject({ method: 'DELETE', url: `/admin/venues/${fixtures[0]!.id}`, headers: { authorization } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'invalid_admin_token', message: `the operator token goes in the Bearer scheme: Authorization: Bearer <token> (${got})` });
      expect(res.body).not.toContain(TOKEN);
    }
    // A query parameter is refused, naming it, as under /v1; nothing done.
    const withQuery = await s.app.inject({ method: 'DELETE', url: `/admin/venues/${fixtures[0]!.id}?force=1`, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withQuery.statusCode).toBe(400);
    expect(withQuery.json()).toMatchObject({ type: 'invalid_request_error', param: 'force' });
    expect(s.live.engine.has(fixtures[0]!.id)).toBe(true);
    // The scheme's name in any case (RFC 9110 11.1): the token opens the routes.
    for (const scheme of ['bearer', 'BEARER']) {
      const res = await s.app.inject({ method: 'DELETE', url: '/admin/venues/no-such-venue', headers: { authorization: `${scheme} ${TOKEN}` } });
      expect(res.statusCode, scheme).toBe(404);
      expect(res.json()).toMatchObject({ code: 'venue_not_found' });
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    expect(s.live.engine.has('intruder')).toBe(false);
    expect(s.live.engine.has(fixtures[0]!.id)).toBe(true);
    expect(s.live.engine.pendingChanges).toBe(0);
    expect(readFileSync(join(tmp, 'sec', 'changes.log'), 'utf8')).toBe('');
  });

  it('has no admin routes without an operator token: 404 in the envelope, even with a customer key', async () => {
    for (const headers of [{}, { 'api-key': plain.customer.secretKey }, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await put(plain.app, ndjson([venue('intruder', 'Intruder Arms')]), headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ type: 'invalid_request_error', code: 'route_not_found' });
      const del = await plain.app.inject({ method: 'DELETE', url: `/admin/venues/${fixtures[0]!.id}`, headers });
      expect(del.statusCode).toBe(404);
    }
    expect(plain.live.engine.has('intruder')).toBe(false);
    expect(plain.live.engine.has(fixtures[0]!.id)).toBe(true);
    // another method on an admin path: 404 there too (the paths do not exist)
    expect((await plain.app.inject({ method: 'GET', url: '/admin/venues' })).statusCode).toBe(404);
  });

  it('another method on an admin path is a 405 naming the methods it serves, as under /v1 (audit 60a: a 404), and changes nothing', async () => {
    for (const [method, url, allow] of [
      ['GET', '/admin/venues', 'PUT'],
      ['POST', '/admin/venues', 'PUT'],
      ['GET', `/admin/venues/${fixtures[0]!.id}`, 'DELETE'],
      ['PUT', '/admin/compact', 'POST'],
    ] as const) {
      const res = await s.app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers['allow']).toBe(allow);
      expect(res.json()).toMatchObject({ code: 'method_not_allowed' });
    }
    expect(s.live.engine.has(fixtures[0]!.id)).toBe(true);
  });

  it('POST /admin/compact takes no body: any body, whatever its type or coding, is a 400 invalid_request before it is read, and compacts nothing (audit 63b F5)', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const bodies: [Record<string, string>, string][] = [
      [{ 'content-type': 'text/plain' }, 'x'],
      [{ 'content-type': 'application/json' }, '{"x":'],
      [{ 'content-type': 'application/json' }, '{}'],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'zz'],
    ];
    const seq = s.live.engine.pendingChanges;
    for (const [headers, payload] of bodies) {
      const res = await s.app.inject({ method: 'POST', url: '/admin/compact', headers: { ...auth, ...headers }, payload });
      expect({ status: res.statusCode, code: res.json().code, message: res.json().message }).toEqual({ status: 400, code: 'invalid_request', message: 'POST /admin/compact takes no body: send it without one' });
    }
    expect(s.live.engine.pendingChanges).toBe(seq);
    // the token is checked first: without it, a 401 whatever the body
    expect((await s.app.inject({ method: 'POST', url: '/admin/compact', headers: { 'content-type': 'text/plain' }, payload: 'x' })).statusCode).toBe(401);
  });

  it('never bills: the customer balance is untouched by admin calls', async () => {
    const before = (await s.accounts.getAccount(s.customer.accountId))!.balanceMicros;
    await put(s.app, ndjson([venue('billing-check', 'Free Lunch')]));
    expect((await s.accounts.getAccount(s.customer.accountId))!.balanceMicros).toBe(before);
  });
});

describe('admin routes: changes', () => {
  it('upserts, refuses a bad batch whole, removes, survives a restart and a compaction', async () => {
    const dir = join(tmp, 'changes');
    let s = await service(dir, true);
    const ok = await put(s.app, ndjson([venue('new-1', 'The Live Wire'), { ...fixtures[1]!, name: 'Renamed Venue' }]));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ inserted: 1, replaced: 1, seq: 1 });

    const twice = await put(s.app, ndjson([venue('dup', 'One'), venue('other', 'Other'), venue('dup', 'Two')]));
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'duplicate_id', param: 'id', message: 'line 3: duplicate venue id "dup" in one batch (first at line 1)' });
    const bad = await put(s.app, ndjson([venue('new-2', 'Fine'), { ...venue('new-3', 'Broken'), location: { type: 'Point', coordinates: [0, 999] } }]));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'invalid_request_error', code: 'invalid_venue', message: expect.stringContaining('line 2') });
    expect(bad.json().message).toContain('new-3');
    expect(s.live.engine.has('new-2')).toBe(false);

    const notJson = await put(s.app, '{"id": "x",\n');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ code: 'invalid_json', param: 'line 1' });
    const plainText = await s.app.inject({ method: 'PUT', url: '/admin/venues', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' }, payload: 'x' });
    expect(plainText.statusCode).toBe(415);
    // a JSON body is refused for its type, before anyone tries to parse it
    const json = await s.app.inject({ method: 'PUT', url: '/admin/venues', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: ndjson([venue('j1', 'Json'), venue('j2', 'Json')]) });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('application/x-ndjson') });
    expect(s.live.engine.has('j1')).toBe(false);
    // the media type's case and parameters do not matter: this body is read as NDJSON (and refused as such)
    const withCharset = await s.app.inject({ method: 'PUT', url: '/admin/venues', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'Application/X-NDJSON; charset=utf-8' }, payload: '{"id": "x",\n' });
    expect(withCharset.statusCode).toBe(400);
    expect(withCharset.json()).toMatchObject({ code: 'invalid_json', param: 'line 1' });
    // a name in Latin-1 bytes would be stored with U+FFFD in place of its letters: refused, nothing changed
    const latin1 = Buffer.from(ndjson([venue('latin-1', 'Café Rouge')]), 'latin1');
    const notUtf8 = await s.app.inject({ method: 'PUT', url: '/admin/venues', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' }, payload: latin1 });
    expect(notUtf8.statusCode).toBe(400);
    expect(notUtf8.json()).toMatchObject({ code: 'invalid_json', message: 'the body is not valid UTF-8: send JSON text in UTF-8' });
    const saysLatin1 = await s.app.inject({ method: 'PUT', url: '/admin/venues', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson; charset=latin1' }, payload: latin1 });
    expect(saysLatin1.statusCode).toBe(415);
    expect(s.live.engine.has('latin-1')).toBe(false);
    const utf8 = await put(s.app, ndjson([venue('utf-8', 'Café Rouge')]));
    expect(utf8.statusCode).toBe(200);
    expect(s.live.engine.basic('utf-8').name).toBe('Café Rouge');
    const tooBig = await put(s.app, ndjson(Array.from({ length: 3000 }, (_, k) => venue(`big-${k}`, 'x'.repeat(400)))));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 'body_too_large' });

    const del = await s.app.inject({ method: 'DELETE', url: `/admin/venues/${fixtures[2]!.id}`, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(del.statusCode).toBe(200);
    const again = await s.app.inject({ method: 'DELETE', url: `/admin/venues/${fixtures[2]!.id}`, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'venue_not_found', param: 'id' });

    const expected = new Map(fixtures.map((r) => [r.id, r]));
    expected.set('new-1', venue('new-1', 'The Live Wire'));
    expected.set(fixtures[1]!.id, { ...fixtures[1]!, name: 'Renamed Venue' });
    expected.delete(fixtures[2]!.id);
    expected.set('utf-8', venue('utf-8', 'Café Rouge'));
    const check = (engine: typeof s.live.engine) => {
      expect(engine.size).toBe(expected.size);
      expect(engine.basic('new-1').name).toBe('The Live Wire');
      expect(engine.basic(fixtures[1]!.id).name).toBe('Renamed Venue');
      expect(engine.has(fixtures[2]!.id)).toBe(false);
    };
    check(s.live.engine);
    await s.close();

    s = await service(dir, true); // replay of the log
    check(s.live.engine);
    expect(s.live.engine.pendingChanges).toBe(5); // 2 base venues hidden + 3 in the delta (new-1, the renamed venue, utf-8)
    const compacted = await s.app.inject({ method: 'POST', url: '/admin/compact', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(compacted.statusCode).toBe(200);
    expect(compacted.json()).toMatchObject({ venues: expected.size, upToSeq: 3 }); // the first upsert, utf-8's, the removal
    expect(s.live.engine.pendingChanges).toBe(0);
    expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe('');
    check(s.live.engine);
    await put(s.app, ndjson([venue('after-compaction', 'Late Entry')]));
    expected.set('after-compaction', venue('after-compaction', 'Late Entry'));
    await s.close();

    s = await service(dir, true); // base.snapshot + the log after it
    check(s.live.engine);
    expect(s.live.engine.basic('after-compaction').name).toBe('Late Entry');
    expect(s.live.engine.pendingChanges).toBe(1);
    await s.close();
  }, 60_000);

  it('refuses what a build would refuse (a time zone, opening hours) naming the line and venue, logs nothing, and still compacts and restarts', async () => {
    const dir = join(tmp, 'build-rules');
    let s = await service(dir, true);
    expect((await put(s.app, ndjson([venue('kept', 'The Kept Arms')]))).statusCode).toBe(200);
    const log = readFileSync(join(dir, 'changes.log'), 'utf8');
    const longNight = [{ days: ['Fri'], timeSlots: [{ open: '20:00', close: '22:00', isClosed: false, closeNextDay: true }] }];
    const refusals = [
      { record: { ...venue('mars', 'Red Planet'), timeZone: 'Mars/Olympus_Mons' }, param: 'timeZone' },
      { record: { ...venue('late', 'Late Kitchen'), kitchenOpeningHours: longNight }, param: 'kitchenOpeningHours.0.timeSlots.0.close' },
    ];
    for (const { record, param } of refusals) {
      const res = await put(s.app, ndjson([venue('fine', 'Fine'), record]));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_request_error', code: 'invalid_venue', param });
      expect(res.json().message).toMatch(new RegExp(`^line 2, venue "${record.id}", field `));
      expect(s.live.engine.has('fine')).toBe(false);
      expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe(log);
    }
    // A build that fails after validation (fault injected: nothing real fails there today) is
    // not logged either: the batch is built before it is logged.
    const engine = s.live.engine;
    const realPrepare = engine.prepareUpsert.bind(engine);
    engine.prepareUpsert = () => {
      throw new RangeError('simulated build failure');
    };
    const failed = await put(s.app, ndjson([venue('doomed', 'Doomed')]));
    engine.prepareUpsert = realPrepare;
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(readFileSync(join(dir, 'changes.log'), 'utf8')).toBe(log);
    expect(engine.has('doomed')).toBe(false);
    const compacted = await s.app.inject({ method: 'POST', url: '/admin/compact', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(compacted.statusCode).toBe(200);
    expect((await put(s.app, ndjson([venue('later', 'Later Inn')]))).statusCode).toBe(200);
    await s.close();
    s = await service(dir, true); // the snapshot and the log after it load
    expect(s.live.engine.basic('kept').name).toBe('The Kept Arms');
    expect(s.live.engine.basic('later').name).toBe('Later Inn');
    expect(s.live.engine.has('mars')).toBe(false);
    await s.close();
  }, 60_000);
});
