/**
 * Issue 18 "Done when", against real processes: `venue-search serve` processes over the
 * fixtures sharing one PostgreSQL server started by this file.
 * - Exactly-once: an account holds credit for exactly K finds; 2K concurrent requests spread
 *   over two processes -> exactly K answered 200, K refused 402, K charges in the ledger.
 * - Crash: SIGKILL one process in the middle of a burst, 10 times: every answered request's
 *   id is charged exactly once; the balance equals the opening credit minus the charges.
 * - Limits: a Hobbyist key over three processes gets exactly 2 per second (on the wall
 *   clock), and exactly 1,000 per 24 h window and 2 per second (on one clock file the
 *   three processes share: VENUE_SEARCH_CLOCK_FILE, src/cli/service-clock.ts, moved by the test).
 * The ledger is read over a separate connection (the oracle), never through the store.
 * The processes serve a snapshot of the fixtures (17 starts: test/support/fixtures-snapshot.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { priceMicros } from '../../src/accounts/plans.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { runServiceCommand } from '../http/support/run-service-command.js';
import { CLOCK_FILE_ENV } from '../../src/cli/service-clock.js';
import { writeFixturesSnapshot } from '../support/fixtures-snapshot.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { CLI_MAIN } from '../support/cli.js';

const FIND = priceMicros('find');

let server: PostgresServer;
let url: string;
let store: PostgresAccountsStore;
let ledger: pg.Pool;
const children = new Set<ChildProcess>();
const dataDir = mkdtempSync(join(tmpdir(), 'pg-processes-data-'));
const DATA = writeFixturesSnapshot(dataDir);

beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase('service');
  store = await PostgresAccountsStore.open(url);
  ledger = new pg.Pool({ connectionString: url, max: 2 });
  ledger.on('error', () => {});
  ledger.on('connect', (client) => client.on('error', () => {}));
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await ledger?.end();
  await store?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Service {
  readonly child: ChildProcess;
  readonly base: string;
}

async function startService(env: NodeJS.ProcessEnv = process.env): Promise<Service> {
  const child = spawn(process.execPath, [CLI_MAIN, 'serve', '--data', DATA, '--port', '0', '--db', url, '--workers', '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let err = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s: ${err}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += String(chunk);
      const found = /serving .* on (http:\/\/\S+)\/v1\//.exec(err)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, base };
}

async function stopService(service: Service, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill(signal);
  await exited;
}

async function ledgerCharges(accountId: string): Promise<string[]> {
  const { rows } = await ledger.query<{ request_id: string }>('SELECT request_id FROM ledger WHERE account_id = $1 AND amount_micros < 0', [accountId]);
  return rows.map((r) => r.request_id);
}

interface Outcome {
  readonly status: number | 'failed';
  readonly requestId: string | null;
}

async function find(base: string, key: string): Promise<Outcome> {
  try {
    const res = await fetch(`${base}/v1/find?q=nando`, { headers: { 'API-Key': key } });
    await res.arrayBuffer();
    return { status: res.status, requestId: res.headers.get('request-id') };
  } catch {
    return { status: 'failed', requestId: null };
  }
}

describe('the operator commands on PostgreSQL', () => {
  it('accounts create, accounts topup and keys rotate take --db postgres://...; the printed key works in a serve process', async () => {
    const created = (await runServiceCommand('accounts', 'create', '--plan', 'StartUp', '--db', url)) as { accountId: string; secretKey: string; balanceMicros: number };
    expect(created.balanceMicros).toBe(10_000_000);
    const topped = (await runServiceCommand('accounts', 'topup', created.accountId, '2.5', '--db', url)) as { balanceMicros: number };
    expect(topped.balanceMicros).toBe(12_500_000);
    const rotated = (await runServiceCommand('keys', 'rotate', created.accountId, '--only', 'secret', '--grace-hours', '0', '--db', url)) as { secretKey: string };
    const service = await startService();
    try {
      expect((await find(service.base, created.secretKey)).status).toBe(401);
      expect((await find(service.base, rotated.secretKey)).status).toBe(200);
      const { rows } = await ledger.query('SELECT balance_micros::text AS b FROM accounts WHERE id = $1', [created.accountId]);
      expect(Number(rows[0].b)).toBe(12_500_000 - FIND);
    } finally {
      await stopService(service);
    }
  });
});

describe('two service processes on one PostgreSQL', () => {
  let a: Service;
  let b: Service;
  beforeAll(async () => {
    [a, b] = await Promise.all([startService(), startService()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stopService(a), stopService(b)]);
  });

  it('exactly-once: credit for K = 50 finds, 2K concurrent requests over both processes -> K x 200, K x 402, K charges', async () => {
    const K = 50;
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: K * FIND });
    const outcomes = await Promise.all(Array.from({ length: 2 * K }, (_, i) => find(i % 2 === 0 ? a.base : b.base, acct.secretKey)));
    expect(outcomes.filter((o) => o.status === 200).length).toBe(K);
    expect(outcomes.filter((o) => o.status === 402).length).toBe(K);
    const charged = await ledgerCharges(acct.accountId);
    expect(charged.length).toBe(K);
    expect(new Set(charged)).toEqual(new Set(outcomes.filter((o) => o.status === 200).map((o) => o.requestId)));
    // both processes served some of them
    const { rows } = await ledger.query('SELECT balance_micros::text AS b FROM accounts WHERE id = $1', [acct.accountId]);
    expect(Number(rows[0].b)).toBe(0);
  });

  it('limits: a Hobbyist key over three processes gets exactly 2 per second', async () => {
    const c = await startService();
    try {
      const acct = await openAccount(store, 'Hobbyist');
      // one burst inside one wall-clock second: wait for the start of a second
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
      const started = Date.now();
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => find([a, b, c][i % 3]!.base, acct.secretKey)));
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(900); // the burst stayed inside the second
      expect(outcomes.filter((o) => o.status === 200).length).toBe(2);
      expect(outcomes.filter((o) => o.status === 429).length).toBe(10);
    } finally {
      await stopService(c);
    }
  });

  it('crash: SIGKILL one process in the middle of a burst, 10 times: no answered request uncharged, none charged twice', async () => {
    const opening = 400 * FIND;
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: opening });
    const answered: string[] = [];
    let killedMidBurst = 0;
    for (let round = 0; round < 10; round++) {
      const victim = round % 2 === 0 ? a : b;
      const burst = Array.from({ length: 30 }, (_, i) => find(i % 2 === 0 ? a.base : b.base, acct.secretKey));
      await new Promise((resolve) => setTimeout(resolve, 5 + round * 3));
      const inFlight = victim.child.exitCode === null;
      const exited = new Promise((resolve) => victim.child.once('exit', resolve));
      victim.child.kill('SIGKILL');
      const outcomes = await Promise.all(burst);
      if (inFlight && outcomes.some((o) => o.status === 'failed')) killedMidBurst++;
      for (const o of outcomes) if (o.status === 200) answered.push(o.requestId!);
      await exited;
      const restarted = await startService();
      if (victim === a) a = restarted;
      else b = restarted;
    }
    const charged = await ledgerCharges(acct.accountId);
    // none charged twice (the oracle counts rows, the UNIQUE constraint aside)
    expect(new Set(charged).size).toBe(charged.length);
    // every answered request is charged
    const chargedSet = new Set(charged);
    expect(answered.filter((id) => !chargedSet.has(id))).toEqual([]);
    // charged but unanswered: only requests cut off by a kill
    expect(charged.length - answered.length).toBeGreaterThanOrEqual(0);
    const { rows } = await ledger.query('SELECT balance_micros::text AS b FROM accounts WHERE id = $1', [acct.accountId]);
    expect(Number(rows[0].b)).toBe(opening - charged.length * FIND);
    expect(killedMidBurst).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThan(0);
  }, 300_000);
});

describe('three service processes on one PostgreSQL and one clock file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'venue-search-clock-'));
  const clockFile = join(dir, 'now-ms');
  /** Moves the shared clock: a new file renamed over the old, so no process reads half a number. */
  const setClock = (ms: number): void => {
    writeFileSync(`${clockFile}.tmp`, String(ms));
    renameSync(`${clockFile}.tmp`, clockFile);
  };
  const services: Service[] = [];
  beforeAll(async () => {
    setClock(Date.UTC(2030, 0, 1));
    services.push(...(await Promise.all([0, 1, 2].map(() => startService({ ...process.env, [CLOCK_FILE_ENV]: clockFile })))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(services.map((s) => stopService(s)));
    rmSync(dir, { recursive: true, force: true });
  });

  async function ratedFind(base: string, key: string): Promise<{ status: number | 'failed'; code?: string | undefined; message?: string | undefined }> {
    try {
      const res = await fetch(`${base}/v1/find?q=nando`, { headers: { 'API-Key': key } });
      const body = (await res.json()) as { code?: string; message?: string };
      return { status: res.status, code: body.code, message: body.message };
    } catch {
      return { status: 'failed' };
    }
  }

  it('limits: a Hobbyist key gets exactly 2 per second and exactly 1,000 per 24 h, whichever process serves it', async () => {
    const acct = await openAccount(store, 'Hobbyist', { openingCreditMicros: 2000 * FIND });
    // one day window from 00:00 UTC (windows start at multiples of their length since the epoch);
    // in each of 501 seconds of it, 3 concurrent requests, one to each process, the first
    // process of each burst rotating: the second window admits 2 of them
    const day0 = Date.UTC(2030, 0, 2);
    const perSecond: number[] = [];
    let dayRefusals = 0;
    for (let s = 0; s < 501; s++) {
      setClock(day0 + 7 * 3600_000 + s * 1000 + (s % 997));
      const order = [0, 1, 2].map((i) => services[(i + s) % 3]!);
      const outcomes = await Promise.all(order.map((svc) => ratedFind(svc.base, acct.secretKey)));
      perSecond.push(outcomes.filter((o) => o.status === 200).length);
      for (const o of outcomes) {
        if (o.status === 200) continue;
        expect(o.status).toBe(429);
        expect(o.code).toBe('rate_limited');
        if (/1000 requests per 24 hours/.test(o.message ?? '')) dayRefusals++;
        else expect(o.message).toMatch(/2 requests per second/);
      }
    }
    // seconds 0..499: exactly 2 of 3 each (1,000 in all); second 500: the day is full, none
    expect(perSecond.slice(0, 500).every((n) => n === 2)).toBe(true);
    expect(perSecond[500]).toBe(0);
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(1000);
    // the day names the refusals of second 500 (3) and the third request of second 499, when
    // both windows were full and the day frees up last (its reset is the Retry-After)
    expect(dayRefusals).toBe(4);
    // later the same day: still none; the next day window: 2 again
    setClock(day0 + 23 * 3600_000 + 59 * 60_000 + 59_000);
    expect((await Promise.all(services.map((svc) => ratedFind(svc.base, acct.secretKey)))).filter((o) => o.status === 200).length).toBe(0);
    setClock(day0 + 24 * 3600_000);
    expect((await Promise.all(services.map((svc) => ratedFind(svc.base, acct.secretKey)))).filter((o) => o.status === 200).length).toBe(2);
    // the ledger (read over a separate connection) holds exactly the admitted requests' charges
    expect((await ledgerCharges(acct.accountId)).length).toBe(1002);
  }, 300_000);
});
