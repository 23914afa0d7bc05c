/**
 * Limits and abuse (issue 8, item 3). Oracles: the plan table (src/accounts/plans.ts, interface
 * section 8), the price list, and the ledger read back from SQLite; the client's own count
 * of what it sent and what it got.
 * - per-window counts are exact under concurrency: several keys of one account, spread over
 *   two app instances sharing one database file (two services behind a load balancer);
 * - 401 and 403 spend no quota; 400, 402, 404 and 429 are never charged;
 * - a public key cannot reach a secret-only route (`/v1/vocabulary`) by path tricks, checked
 *   both through `app.inject` and as raw bytes on a socket (inject normalises `..`; a real
 *   client need not).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rotateAccountKeys } from '../../src/accounts/accounts.js';
import { priceMicros, SECOND_MS, type RateWindow } from '../../src/accounts/plans.js';
import { createHarness, FakeClock, ledgerRows, type Harness } from '../http/support/harness.js';
import { expectEnvelope } from './support/envelope.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-abuse-'));
const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function harness(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const h = await createHarness(options);
  harnesses.push(h);
  return h;
}

const charges = async (h: Harness, accountId: string) => (await ledgerRows(h.store, accountId)).filter((r) => r.amount_micros < 0);

function balanceEqualsLedger(h: Harness, accountId: string): void {
  const row = h.store.db
    .prepare('SELECT balance_micros AS balance, (SELECT SUM(amount_micros) FROM ledger WHERE account_id = ?) AS sum FROM accounts WHERE id = ?')
    .get(accountId, accountId) as { balance: number; sum: number };
  expect(row.balance).toBe(row.sum);
}

describe('per-window counts under concurrency', () => {
  it('StartUp (5/s): 60 concurrent requests from 4 keys of one account over two app instances on one database file -> exactly 5 served per second, remaining 4..0 each seen once', async () => {
    const dbPath = join(tmp, 'shared-second.sqlite');
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 12, 0, 0, 100));
    const a = await harness({ dbPath, clock });
    const b = await harness({ dbPath, clock });
    const acct = await a.open('StartUp');
    const rotated = await rotateAccountKeys(a.store, acct.accountId, { nowMs: clock.nowMs, graceMs: 3_600_000 }); // old keys still valid for an hour
    const keys = [acct.secretKey, acct.publicKey, rotated.secretKey!, rotated.publicKey!];
    for (let second = 0; second < 3; second++) {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (i % 2 === 0 ? a : b).app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': keys[i % keys.length]! } }),
        ),
      );
      const served = answers.filter((r) => r.statusCode === 200);
      const limited = answers.filter((r) => r.statusCode === 429);
      expect(served.length, `second ${second}`).toBe(5);
      expect(limited.length, `second ${second}`).toBe(55);
      expect(served.map((r) => r.headers['x-ratelimit-remaining']).sort()).toEqual(['0', '1', '2', '3', '4']);
      for (const r of limited) expect(expectEnvelope(r.statusCode, r.payload, '429').code).toBe('rate_limited');
      clock.advance(SECOND_MS);
    }
    expect(await charges(a, acct.accountId)).toHaveLength(15);
    balanceEqualsLedger(a, acct.accountId);
  });

  it('a daily window of 37 (custom plan table): 150 concurrent requests over 5 seconds from 3 keys on two instances -> exactly 37 served in the day', async () => {
    const dbPath = join(tmp, 'shared-day.sqlite');
    const windows: RateWindow[] = [
      { name: 'second', limit: 1000, windowMs: SECOND_MS },
      { name: 'day', limit: 37, windowMs: 86_400_000 },
    ];
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 23, 59, 55, 0));
    const a = await harness({ dbPath, clock, extra: { planWindows: () => windows } });
    const b = await harness({ dbPath, clock, extra: { planWindows: () => windows } });
    const acct = await a.open('Scale');
    const rotated = await rotateAccountKeys(a.store, acct.accountId, { kinds: ['secret'], nowMs: clock.nowMs, graceMs: 3_600_000 });
    const keys = [acct.secretKey, acct.publicKey, rotated.secretKey!];
    let served = 0;
    for (let second = 0; second < 5; second++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? a : b).app.inject({ method: 'GET', url: '/v1/find?q=pizza', headers: { 'API-Key': keys[i % 3]! } })),
      );
      served += answers.filter((r) => r.statusCode === 200).length;
      expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 429)).toBe(true);
      clock.advance(SECOND_MS);
    }
    expect(served).toBe(37);
    expect(await charges(a, acct.accountId)).toHaveLength(37);
    // the next UTC day opens a fresh window (23:59:55 + 5 s = next day)
    const next = await b.app.inject({ method: 'GET', url: '/v1/find?q=pizza', headers: { 'API-Key': acct.secretKey } });
    expect(next.statusCode).toBe(200);
  });
});

describe('what costs quota and money', () => {
  it('401 (unknown, malformed, revoked keys) and 403 (public key on /v1/vocabulary) spend no quota: the Hobbyist 2/s are still there', async () => {
    const h = await harness();
    const acct = await h.open('Hobbyist');
    const revoked = acct.secretKey;
    const fresh = await rotateAccountKeys(h.store, acct.accountId, { kinds: ['secret'], nowMs: h.clock.nowMs, graceMs: 0 });
    const refused = await Promise.all([
      ...Array.from({ length: 10 }, () => h.app.inject({ method: 'GET', url: '/v1/vocabulary', headers: { 'API-Key': acct.publicKey } })),
      ...Array.from({ length: 10 }, () => h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': revoked } })),
      ...Array.from({ length: 5 }, () => h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': 'sk_short' } })),
      ...Array.from({ length: 5 }, () => h.app.inject({ method: 'GET', url: '/v1/find?q=nando' })),
    ]);
    expect(refused.filter((r) => r.statusCode === 403)).toHaveLength(10);
    expect(refused.filter((r) => r.statusCode === 401)).toHaveLength(20);
    for (const r of refused) expectEnvelope(r.statusCode, r.payload, 'refused');
    const ok = await Promise.all([0, 1, 2].map(() => h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'API-Key': fresh.secretKey! } })));
    expect(ok.map((r) => r.statusCode).sort()).toEqual([200, 200, 429]);
    expect(ok.find((r) => r.statusCode === 200)!.headers['x-ratelimit-remaining']).toMatch(/^[01]$/);
    expect(await charges(h, acct.accountId)).toHaveLength(2);
  });

  it('400, 402, 404 and 429 are never charged and never reach the engine for 402; every served request is charged exactly its price', async () => {
    const h = await harness();
    const rich = await h.open('Builder'); // 1/s, 300/day
    const poor = await h.open('Enterprise', priceMicros('find') - 1);
    const ask = (url: string, key: string, payload?: object) =>
      h.app.inject({ method: payload === undefined ? 'GET' : 'POST', url, headers: { 'API-Key': key }, ...(payload === undefined ? {} : { payload }) });
    const statuses: number[] = [];
    let expectedCost = 0;
    for (let s = 0; s < 6; s++) {
      // each fake second: one 200 (the 1/s allowance), then 400, 404 and 429
      const first = s % 2 === 0 ? await ask('/v1/find?q=nando', rich.secretKey) : await ask('/v1/search/?limit=35', rich.secretKey, { locations: [{ lat: 53.8, lon: -1.55 }], mode: { mode: 'POINT', maxDistance: 1000 } });
      expect(first.statusCode, first.payload).toBe(200);
      expectedCost += s % 2 === 0 ? priceMicros('find') : priceMicros('search', 35);
      statuses.push((await ask('/v1/find?q=nando', rich.secretKey)).statusCode);
      h.clock.advance(SECOND_MS);
      statuses.push((await ask('/v1/find?lat=91&q=x', rich.secretKey)).statusCode);
      h.clock.advance(SECOND_MS);
      statuses.push((await ask('/v1/establishments/basic/no-such-venue', rich.secretKey)).statusCode);
      h.clock.advance(SECOND_MS);
    }
    expect(statuses.filter((x) => x === 429)).toHaveLength(6);
    expect(statuses.filter((x) => x === 400)).toHaveLength(6);
    expect(statuses.filter((x) => x === 404)).toHaveLength(6);
    const richCharges = await charges(h, rich.accountId);
    expect(richCharges).toHaveLength(6);
    expect(-richCharges.reduce((sum, r) => sum + r.amount_micros, 0)).toBe(expectedCost);

    h.engine.resetCalls();
    for (let i = 0; i < 5; i++) {
      const res = await ask('/v1/find?q=nando', poor.secretKey);
      expect(res.statusCode).toBe(402);
      expect(expectEnvelope(res.statusCode, res.payload, '402').code).toBe('insufficient_balance');
      h.clock.advance(SECOND_MS);
    }
    expect(h.engine.calls.find).toBe(0);
    expect(await charges(h, poor.accountId)).toHaveLength(0);
    balanceEqualsLedger(h, rich.accountId);
    balanceEqualsLedger(h, poor.accountId);
  });
});

/** Path variants aimed at GET /v1/vocabulary (secret keys only) with a public key. */
const TRICKS = [
  '/v1/vocabulary',
  '/v1/vocabulary/',
  '/v1/vocabulary//',
  '/v1//vocabulary',
  '//v1/vocabulary',
  '/v1/./vocabulary',
  '/v1/VOCABULARY',
  '/V1/vocabulary',
  '/v1/Vocabulary',
  '/v1/%76ocabulary',
  '/v1/%76%6F%63%61%62%75%6C%61%72%79',
  '/v1/vocabulary%2F',
  '/v1/vocabulary%00',
  '/v1/vocabulary;x',
  '/v1/vocabulary?x=/v1/find',
  '/v1/vocabulary#/v1/find',
  '/v1/find/../vocabulary',
  '/v1/find/..%2Fvocabulary',
  '/v1/find%2F..%2Fvocabulary',
  '/v1/find/%2e%2e/vocabulary',
  '/v1/find/%2E%2E%2Fvocabulary',
  '/v1/search/../vocabulary',
  '/v1/search/..;/vocabulary',
  '/v1/search/%2e%2e/vocabulary',
  '/v1/widget/../vocabulary',
  '/v1/widget/..%2F..%2Fv1%2Fvocabulary',
  '/v1/business/balances/../../v1/vocabulary',
  '/v1/establishments/basic/..%2F..%2Fvocabulary',
  '/v1/find\\..\\vocabulary',
  '/v1/find/..\\vocabulary',
  '/v1/find/../../v1/vocabulary',
];

function looksLikeVocabulary(status: number, body: string): boolean {
  return status === 200 || body.includes('establishmentFilters');
}

/** One raw HTTP/1.1 request over a socket, request target sent byte for byte. */
function rawGet(port: number, target: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAPI-Key: ${key}\r\nConnection: close\r\n\r\n`);
  });
}

describe('a public key cannot reach a secret-only route by path tricks', () => {
  it('the secret key does reach /v1/vocabulary (so a refusal below is the permission check, not a missing route)', async () => {
    const h = await harness();
    const acct = await h.open('Enterprise');
    for (const path of ['/v1/vocabulary', '/v1/vocabulary/']) {
      expect((await h.app.inject({ method: 'GET', url: path, headers: { 'API-Key': acct.secretKey } })).statusCode).toBe(200);
    }
  });

  it(`${TRICKS.length} path variants (trailing and double slashes, case, percent-encoding, .., backslashes) through app.inject: never served`, async () => {
    const h = await harness();
    const acct = await h.open('Enterprise');
    for (const path of TRICKS) {
      const res = await h.app.inject({ method: 'GET', url: path, headers: { 'API-Key': acct.publicKey } });
      expect(looksLikeVocabulary(res.statusCode, res.payload), `${path} -> ${res.statusCode}`).toBe(false);
      expect(res.statusCode, path).toBeLessThan(500);
      expectEnvelope(res.statusCode, res.payload, path);
    }
  });

  it('the same variants as raw request targets on a listening loopback server (no client-side normalisation), plus absolute-form targets: never served', async () => {
    const h = await harness();
    const acct = await h.open('Enterprise');
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const targets = [...TRICKS.filter((t) => !t.includes('#')), 'http://127.0.0.1/v1/vocabulary', 'http://127.0.0.1/v1/find/../vocabulary', '*'];
    const secretOk = await rawGet(address.port, '/v1/vocabulary', acct.secretKey);
    expect(secretOk.status).toBe(200);
    for (const target of targets) {
      const res = await rawGet(address.port, target, acct.publicKey);
      expect(looksLikeVocabulary(res.status, res.body), `${target} -> ${res.status}`).toBe(false);
      expect(res.status, `${target}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${target}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});
