/**
 * Billing exactness under concurrency (issue 6 "Done when"): an account holding exactly K
 * finds, 2K concurrent finds -> K successes, K 402s, balance 0, exactly K ledger charges.
 * Oracle: arithmetic on the price list (find = 6000 micros), and the ledger invariant
 * balance = sum of ledger amounts, checked with a SQL sum independent of the store's code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { createFixtureEngine } from './support/fixture-engine.js';
import { createHarness, FakeClock, ledgerRows } from './support/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-billing-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FIND = 6000;

describe('balance of exactly K finds, 2K concurrent finds', () => {
  it('K = 50 on one store: 50 x 200, 50 x 402, final balance 0, exactly 50 ledger charges', async () => {
    const K = 50;
    const h = await createHarness({ dbPath: join(tmp, 'one.sqlite') });
    const acct = await h.open('Enterprise', K * FIND);
    const responses = await Promise.all(
      Array.from({ length: 2 * K }, (_, i) =>
        h.app.inject({ method: 'GET', url: `/v1/find?q=nando`, headers: { 'api-key': i % 2 ? acct.secretKey : acct.publicKey } }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 402);
    expect(ok).toHaveLength(K);
    expect(refused).toHaveLength(K);
    for (const r of refused) expect(r.json()).toMatchObject({ type: 'billing_error', code: 'insufficient_balance' });
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(0);
    const charges = (await ledgerRows(h.accounts, acct.accountId)).filter((r) => r.amount_micros < 0);
    expect(charges).toHaveLength(K);
    // each success's Request-Id has exactly one ledger row
    expect(new Set(charges.map((c) => c.request_id))).toEqual(new Set(ok.map((r) => r.headers['request-id'])));
    // the opening credit and the charges sum to the balance, 0
    expect((await ledgerRows(h.accounts, acct.accountId)).reduce((sum, r) => sum + Number(r.amount_micros), 0)).toBe(0);
    await h.close();
  });

  it('K = 40 split over two stores and apps on one database file (two "processes"): still exactly K served', async () => {
    const K = 40;
    const dbPath = join(tmp, 'shared.sqlite');
    const clock = new FakeClock();
    const a = await createHarness({ dbPath, clock });
    const storeB = new SqliteAccountsStore(dbPath);
    const appB = await buildApp({ engine: await createFixtureEngine(), accounts: storeB, clock: clock.now });
    const acct = await a.open('Enterprise', K * FIND);
    const responses = await Promise.all(
      Array.from({ length: 2 * K }, (_, i) =>
        (i % 2 ? a.app : appB).inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(K);
    expect(responses.filter((r) => r.statusCode === 402)).toHaveLength(K);
    expect(await storeB.balanceMicros(acct.accountId)).toBe(0);
    expect((await ledgerRows(a.store, acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(K);
    await appB.close();
    await storeB.close();
    await a.close();
  });

  it('a failed request (400, 404) between successes is never charged; a top-up restores service', async () => {
    const h = await createHarness();
    const acct = await h.open('Enterprise', FIND);
    const key = { 'api-key': acct.secretKey };
    expect((await h.app.inject({ method: 'GET', url: '/v1/establishments/menus/missing', headers: key })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando&location=Atlantis', headers: key })).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(402);
    expect(await h.accounts.topUp(acct.accountId, 2 * FIND, h.clock.nowMs)).toBe(2 * FIND);
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    const rows = (await ledgerRows(h.accounts, acct.accountId));
    expect(rows.map((r) => [r.kind, r.amount_micros])).toEqual([
      ['credit', FIND],
      ['find', -FIND],
      ['topup', 2 * FIND],
      ['find', -FIND],
    ]);
    await h.close();
  });

  it("a charge carries a deadline before the connection's idle timeout; one the store makes too late is a 503 saying it was not charged (audit 61c)", async () => {
    const h = await createHarness({ extra: { connectionTimeoutMs: 10_000 } });
    const acct = await h.open('Enterprise');
    const key = { 'api-key': acct.secretKey };
    const charge = h.accounts.charge.bind(h.accounts);
    const deadlines: number[] = [];
    h.accounts.charge = (request) => {
      deadlines.push(request.deadlineMs! - Date.now());
      return charge(request);
    };
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    // 10 s less the 2 s kept for the commit and the send
    expect(deadlines[0]).toBeGreaterThan(7000);
    expect(deadlines[0]).toBeLessThanOrEqual(8000);
    // a store that got to the charge after it (here: a deadline already past)
    h.accounts.charge = (request) => charge({ ...request, deadlineMs: Date.now() - 1 });
    const late = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key });
    expect(late.statusCode).toBe(503);
    expect(late.json()).toMatchObject({ code: 'service_unavailable', message: 'the accounts database took too long to charge this request, so it was not charged and not answered; retry it' });
    // as every 503 of the accounts database: when to retry (audit 62a 9)
    expect(late.headers['retry-after']).toBe('5');
    expect((await ledgerRows(h.accounts, acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(1);
    await h.close();
  });

  it('the store refuses a second charge under the same request id', async () => {
    const store = new SqliteAccountsStore(':memory:');
    const { openAccount } = await import('../../src/accounts/accounts.js');
    const acct = await openAccount(store, 'Scale', { nowMs: 0 });
    const request = { accountId: acct.accountId, requestId: 'req-1', kind: 'find' as const, costMicros: FIND, nowMs: 1 };
    const [first, second] = await Promise.all([store.charge(request), store.charge(request)]);
    expect(first).toEqual({ charged: true, balanceMicros: 10_000_000 - FIND });
    expect(second).toMatchObject({ charged: false, reason: 'duplicate_request' });
    expect(await store.balanceMicros(acct.accountId)).toBe(10_000_000 - FIND);
    await store.close();
  });
});
