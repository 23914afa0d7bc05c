// A database out of reach is a 503 to retry, logged once in a while, not a 500 with a stack
// trace per request (audit 61c F3, F4). The errors classified are real ones: node-postgres
// connecting to a port nothing listens on, and better-sqlite3 on a file another connection
// holds locked; an engine error or a plain bug stays what it was.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isAccountsUnavailable } from '../../src/accounts/accounts-unavailable.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { VenueSearchError } from '../../src/errors.js';
import { OutageLog } from '../../src/http/outage-log.js';
import { createHarness } from '../http/support/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'accounts-unavailable-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isAccountsUnavailable', () => {
  it('node-postgres refused a connection; SQLite busy past its wait', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await refusedPort(), user: 'x', database: 'x', connectionTimeoutMillis: 2000 });
    const refused = await client.connect().then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).not.toBeNull();
    expect(isAccountsUnavailable(refused)).toBe(true);
    const file = join(tmp, 'busy.sqlite');
    const holder = new Database(file);
    holder.exec('CREATE TABLE t (x)');
    holder.prepare('BEGIN IMMEDIATE').run();
    const other = new Database(file, { timeout: 0 });
    let busy: unknown = null;
    try {
      other.prepare('BEGIN IMMEDIATE').run();
    } catch (err) {
      busy = err;
    }
    holder.prepare('COMMIT').run();
    holder.close();
    other.close();
    expect(isAccountsUnavailable(busy)).toBe(true);
  });

  it('a charge in the ledger thread on a file another connection holds locked past the wait (audit 62a 4)', async () => {
    const file = join(tmp, 'ledger-busy.sqlite');
    const store = new SqliteAccountsStore(file, { busyTimeoutMs: 100 });
    await store.insertAccount({ id: 'acct_busy', plan: 'Enterprise', createdAtMs: 0, openingCreditMicros: 1_000_000, keys: [] });
    const charge = (requestId: string) => store.charge({ accountId: 'acct_busy', requestId, kind: 'find', costMicros: 10, nowMs: 1 });
    // as a sqlite3 shell or a backup tool can hold it (WAL: reads still pass)
    const holder = new Database(file);
    holder.prepare('BEGIN EXCLUSIVE').run();
    const busy = await charge('r1').then(
      () => null,
      (err: unknown) => err,
    );
    holder.prepare('COMMIT').run();
    holder.close();
    expect(busy).not.toBeNull();
    expect(isAccountsUnavailable(busy)).toBe(true);
    expect(await charge('r2')).toEqual({ charged: true, balanceMicros: 999_990 });
    await store.close();
  });

  it('is false for an engine error, a bug, and a PostgreSQL error about the statement itself', () => {
    expect(isAccountsUnavailable(new VenueSearchError('invalid_request', 'limit must be <= 100'))).toBe(false);
    expect(isAccountsUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isAccountsUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isAccountsUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isAccountsUnavailable(Object.assign(new Error('wrapped'), { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBe(true);
  });
});

describe('the service while the accounts database is out of reach', () => {
  it('answers 503 with Retry-After and "not charged"; the log gets one line per 10 s with a count, not one per request', async () => {
    const h = await createHarness();
    const acct = await h.open('Enterprise');
    const key = { 'api-key': acct.secretKey };
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    const precheck = h.accounts.precheckBalance.bind(h.accounts);
    h.accounts.precheckBalance = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const down = await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toEqual({ message: 'the accounts database cannot be reached just now; the request was not charged: retry it', type: 'api_error', code: 'service_unavailable' });
    h.accounts.precheckBalance = precheck;
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    expect((await h.ledger(acct.accountId)).filter((r) => r.amount_micros < 0)).toHaveLength(2);
    await h.close();

    let now = 0;
    const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const log = { warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as never;
    const outage = new OutageLog(() => now);
    const err = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    for (let k = 0; k < 1000; k++) {
      outage.refusedOne(log, err);
      now += 15; // 1000 requests over 15 s
    }
    expect(lines.map((l) => l.fields['refused'])).toEqual([1, 667]);
    expect(lines[1]!.message).toBe('accounts database out of reach: 667 requests refused with 503 since the last such line (connect ECONNREFUSED 127.0.0.1:5432)');
    // the database answers again: the 332 refused after the last line are logged then (audit 64b 2)
    outage.answered(log);
    outage.answered(log); // once per outage
    expect(lines.map((l) => l.fields['refused'])).toEqual([1, 667, 332]);
    expect(lines[2]!.message).toBe('accounts database reachable again: 332 requests refused with 503 since the last such line (the last cause: connect ECONNREFUSED 127.0.0.1:5432)');
    // the next outage starts with a line of its own, its first refusal
    now += 3000;
    outage.refusedOne(log, err);
    expect(lines.map((l) => l.fields['refused'])).toEqual([1, 667, 332, 1]);
  });

  it("the log's counts sum to the 503s the clients got, the last one in a line when the database answers again (audit 64b 2)", async () => {
    const logged: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        logged.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const h = await createHarness({ extra: { logger: { level: 'warn', stream } } });
    const acct = await h.open('Enterprise');
    const key = { 'api-key': acct.secretKey };
    const precheck = h.accounts.precheckBalance.bind(h.accounts);
    h.accounts.precheckBalance = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    let refused = 0;
    for (let k = 0; k < 7; k++) if ((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode === 503) refused++;
    expect(refused).toBe(7);
    h.accounts.precheckBalance = precheck;
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: key })).statusCode).toBe(200);
    await h.close();
    const lines = logged.filter((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('accounts database'));
    // within 10 s: the first refusal's line, then the other six in the line that ends the outage
    expect(lines.map((l) => [l['refused'], String(l['msg']).slice(0, 35)])).toEqual([
      [1, 'accounts database out of reach: 1 r'],
      [6, 'accounts database reachable again: '],
    ]);
    expect(lines.reduce((sum, l) => sum + Number(l['refused']), 0)).toBe(refused);
  });
});

describe('GET /v1/health (readiness)', () => {
  it('200 while the accounts database answers, 503 when it fails or does not answer in 2 s; no key needed, nothing billed', async () => {
    const h = await createHarness();
    const ok = await h.app.inject({ method: 'GET', url: '/v1/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok' });
    const ping = h.accounts.ping.bind(h.accounts);
    h.accounts.ping = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const refused = await h.app.inject({ method: 'GET', url: '/v1/health' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'service_unavailable' });
    h.accounts.ping = () => new Promise(() => {}); // a database that never answers
    const started = Date.now();
    const hung = await h.app.inject({ method: 'GET', url: '/v1/health' });
    expect(hung.statusCode).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    h.accounts.ping = ping;
    expect((await h.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
    // an operator's route: not in the published document
    const doc = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/v1/health');
    await h.close();
  });
});
