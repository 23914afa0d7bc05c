/**
 * A charge whose database connection breaks (a network cut, a failover): the client must
 * learn what really happened, never "not charged" for a committed charge. A TCP proxy between
 * the store and a real PostgreSQL cuts the connection that carries the charge statement,
 * either before the server received it or right after the server answered it (committed).
 * The oracle is the ledger and the balance, read over a separate direct connection.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChargeOutcomeUnknownError } from '../../src/accounts/accounts-store.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { priceMicros } from '../../src/accounts/plans.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { toErrorResponse } from '../../src/http/http-errors.js';
import { pgbouncerAvailable, startPgBouncer, type Pooler } from '../support/pgbouncer.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

/**
 * Where the next charge statement's connection is cut; `...-then-down`: every connection is cut
 * and new ones refused (the database host gone); `while-it-waits`: 300 ms after the statement
 * went on to the server, before any answer (it then waits for the account's row lock).
 */
type Cut = 'none' | 'before-the-server' | 'after-the-answer' | 'after-the-answer-then-down' | 'while-it-waits';

/** A proxy to `target` that cuts the connection carrying the next charge statement as `mode` says; `refuse` refuses new connections. */
class CuttingProxy {
  mode: Cut = 'none';
  refuse = false;
  cuts = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(private readonly targetPort: number) {
    this.server = createServer((client) => this.relay(client));
  }

  /** Listening on a free loopback port; its port. */
  static async start(targetPort: number): Promise<{ proxy: CuttingProxy; port: number }> {
    const proxy = new CuttingProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const address = proxy.server.address();
    return { proxy, port: typeof address === 'object' && address !== null ? address.port : 0 };
  }

  private relay(client: Socket): void {
    if (this.refuse) {
      client.destroy();
      return;
    }
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    let charging = false;
    const cut = () => {
      this.cuts++;
      if (this.mode === 'after-the-answer-then-down') {
        this.refuse = true;
        for (const s of this.sockets) s.destroy();
      }
      this.mode = 'none';
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (d: Buffer) => {
      if (this.mode !== 'none' && d.includes('WITH debit AS')) {
        if (this.mode === 'before-the-server') return cut();
        if (this.mode === 'while-it-waits') setTimeout(cut, 300);
        else charging = true;
      }
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (charging) return cut();
      client.write(d);
    });
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => {
        b.destroy();
        this.sockets.delete(a);
      });
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let server: PostgresServer;
let proxy: CuttingProxy;
let directUrl: string;
let store: PostgresAccountsStore;
const poolers: Pooler[] = [];
const stores: PostgresAccountsStore[] = [];
const proxies: CuttingProxy[] = [];

beforeAll(async () => {
  server = await startPostgres();
  directUrl = await server.createDatabase('broken_charges');
  const port = Number(new URL(directUrl).port);
  const started = await CuttingProxy.start(port);
  proxy = started.proxy;
  const viaProxy = new URL(directUrl);
  viaProxy.port = String(started.port);
  store = await PostgresAccountsStore.open(viaProxy.toString(), { maxConnections: 4 });
}, 60_000);
afterAll(async () => {
  await store?.close().catch(() => {});
  for (const s of stores) await s.close().catch(() => {});
  await proxy?.close();
  for (const p of proxies) await p.close();
  for (const p of poolers) await p.stop();
  await server?.stop();
});

/** The ledger rows of a request and the account's balance, over a direct connection (to the first test database unless `url` says another). */
async function truth(accountId: string, requestId: string, url = directUrl): Promise<{ rows: number; balance: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query('SELECT 1 FROM ledger WHERE request_id = $1', [requestId])).rowCount ?? 0;
    const balance = Number((await client.query('SELECT balance_micros::text AS b FROM accounts WHERE id = $1', [accountId])).rows[0].b);
    return { rows, balance };
  } finally {
    await client.end();
  }
}

const FIND = priceMicros('find');

describe('a charge whose connection breaks (real PostgreSQL behind a cutting proxy)', () => {
  it('cut right after the server answered (committed): charge() says charged, and the ledger and balance agree', async () => {
    const acct = await openAccount(store, 'Scale', { nowMs: 0, openingCreditMicros: 10 * FIND });
    proxy.mode = 'after-the-answer';
    const result = await store.charge({ accountId: acct.accountId, costMicros: FIND, requestId: 'req-after-answer', kind: 'find', nowMs: 1 });
    expect(proxy.cuts).toBe(1);
    expect(result).toEqual({ charged: true, balanceMicros: 9 * FIND });
    expect(await truth(acct.accountId, 'req-after-answer')).toEqual({ rows: 1, balance: 9 * FIND });
  });

  it('cut before the server received the statement: charge() fails with the connection error, nothing is charged', async () => {
    const acct = await openAccount(store, 'Scale', { nowMs: 0, openingCreditMicros: 10 * FIND });
    proxy.mode = 'before-the-server';
    const cutsBefore = proxy.cuts;
    const error = await store.charge({ accountId: acct.accountId, costMicros: FIND, requestId: 'req-before-server', kind: 'find', nowMs: 1 }).catch((e: unknown) => e);
    expect(proxy.cuts).toBe(cutsBefore + 1);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ChargeOutcomeUnknownError);
    expect(await truth(acct.accountId, 'req-before-server')).toEqual({ rows: 0, balance: 10 * FIND });
    // the store goes on charging over new connections
    expect(await store.charge({ accountId: acct.accountId, costMicros: FIND, requestId: 'req-next', kind: 'find', nowMs: 2 })).toEqual({ charged: true, balanceMicros: 9 * FIND });
  });

  it('cut after the answer with the database then unreachable: ChargeOutcomeUnknownError, whose 500 never says "not charged"', async () => {
    const acct = await openAccount(store, 'Scale', { nowMs: 0, openingCreditMicros: 10 * FIND });
    proxy.mode = 'after-the-answer-then-down';
    const error = await store.charge({ accountId: acct.accountId, costMicros: FIND, requestId: 'req-unknown', kind: 'find', nowMs: 1 }).catch((e: unknown) => e);
    proxy.refuse = false;
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect((error as ChargeOutcomeUnknownError).requestId).toBe('req-unknown');
    // it did commit: the ledger holds it, as the message says it may
    expect(await truth(acct.accountId, 'req-unknown')).toEqual({ rows: 1, balance: 9 * FIND });
    const response = toErrorResponse(error);
    expect(response.status).toBe(500);
    expect(response.body.message).not.toMatch(/not charged/);
    expect(response.body.message).toContain('req-unknown');
  });
});

// audit 64b finding 0: a charge waiting for the account's row lock (another instance charging
// the same account) whose client connection breaks still commits on the server once the lock
// is free. Through a pooler the store read the ledger at once and said "not charged".
describe.skipIf(!pgbouncerAvailable && process.env['CI'] === undefined)('a charge cut while it waits for the account\'s row lock', () => {
  for (const through of ['PostgreSQL directly', 'PgBouncer in transaction mode'] as const) {
    it(`${through}: charge() waits for the statement, and says charged once it committed, as the ledger does`, async () => {
      const database = `lock_wait_${through === 'PostgreSQL directly' ? 'direct' : 'pooled'}`;
      const direct = await server.createDatabase(database);
      let target = direct;
      if (through !== 'PostgreSQL directly') {
        const pooler = await startPgBouncer(direct);
        poolers.push(pooler);
        target = pooler.url;
      }
      const started = await CuttingProxy.start(Number(new URL(target).port));
      proxies.push(started.proxy);
      const viaProxy = new URL(target);
      viaProxy.port = String(started.port);
      const cutStore = await PostgresAccountsStore.open(viaProxy.toString(), { maxConnections: 4 });
      stores.push(cutStore);
      const acct = await openAccount(cutStore, 'Scale', { nowMs: 0, openingCreditMicros: 10 * FIND });
      // another charge of the same account holds its row lock (over a direct connection)
      const holder = new pg.Client({ connectionString: direct });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [acct.accountId]);
      started.proxy.mode = 'while-it-waits';
      const charged = cutStore.charge({ accountId: acct.accountId, costMicros: FIND, requestId: `req-wait-${database}`, kind: 'find', nowMs: 1 }).catch((e: unknown) => e);
      // the cut comes 300 ms after the statement reached the server; the lock is held until then
      // (a fixed 1.5 s hold was a race on a busy machine: the statement could reach the proxy later)
      await expect.poll(() => started.proxy.cuts, { timeout: 20_000, interval: 50 }).toBe(1);
      await holder.query('COMMIT');
      await holder.end();
      const result = await charged;
      const ledger = await truth(acct.accountId, `req-wait-${database}`, direct);
      // the statement committed after the cut: the ledger holds it, and the answer says so
      expect(ledger).toEqual({ rows: 1, balance: 9 * FIND });
      expect(result).toEqual({ charged: true, balanceMicros: 9 * FIND });
    }, 60_000);
  }
});
