/**
 * A charge that commits after its client's connection closed is refunded (audit 71e F3: a
 * client half-closing 1 to 3 ms after its request was often charged and sent nothing). The
 * client leaves during the commit: the store's charge is wrapped so that the client closes
 * (a FIN, or a reset) once the real charge has committed, before the service sees the result.
 * A close of the service during that commit waits for the refund (audit 72a F2: the store was
 * closed under it, and the charge stood). Runs on SQLite and, through
 * http-suite-on-postgres.test.ts, on PostgreSQL.
 * Oracles: the ledger rows read with plain SQL over the store's database (harness.ledger),
 * hand-computed amounts (a find costs 6000 micro-GBP), the bytes the client received.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountsStore } from '../../src/accounts/accounts-store.js';
import { createHarness, listenOnLoopback, type Harness } from './support/harness.js';
import { logRecords } from './support/log-records.js';

const FIND = 6000;
const OPENING = 10_000_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/**
 * A service whose charges call `afterCommit` once they have committed and then take 300 ms
 * more (as a slow fsync would), an account, and a find sent over a raw socket.
 */
async function setUp(afterCommit: (client: Socket) => void) {
  const { lines, stream } = logRecords();
  const h = await createHarness({ extra: { logger: { level: 'info', stream } } });
  harness = h;
  const port = await listenOnLoopback(h);
  const acct = await h.open();
  const client = connect(port, '127.0.0.1');
  const charge = h.accounts.charge.bind(h.accounts);
  h.accounts.charge = async (request, options) => {
    const result = await charge(request, options);
    afterCommit(client);
    await sleep(300);
    return result;
  };
  const chunks: Buffer[] = [];
  client.on('data', (chunk: Buffer) => chunks.push(chunk));
  client.on('error', () => {});
  const received = new Promise<string>((resolve) => client.once('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
  client.write(`GET /v1/find?q=nando&lat=53.8&lon=-1.55&limit=1 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${acct.secretKey}\r\nConnection: close\r\n\r\n`);
  /** The log lines with `code`, once one has appeared (up to 10 s: a loaded machine). */
  const logged = async (code: string) => {
    for (let waited = 0; waited < 10_000 && !lines.some((l) => l['code'] === code); waited += 50) await sleep(50);
    return lines.filter((l) => l['code'] === code);
  };
  const usage = async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': acct.secretKey } });
    return res.json() as { balanceMicros: number; usage: { find: { requests: number; costMicros: number } } };
  };
  return { h, acct, lines, received, logged, usage };
}

describe('a charge committed after the client left is refunded (audit 71e F3)', () => {
  for (const [how, leave] of [
    ['half-closes (a FIN, as `nc -N` sends)', (client: Socket) => client.end()],
    ['resets', (client: Socket) => client.resetAndDestroy()],
  ] as const) {
    it(`a client that ${how} during the commit: sent nothing, the charge and its refund in the ledger, the balance and usage as before`, async () => {
      const { h, acct, received, logged, usage, lines } = await setUp(leave);
      expect(await received).toBe('');
      const [refunded] = await logged('refunded_client_gone');
      expect(refunded).toMatchObject({ level: 30, refundedMicros: FIND });
      const requestId = String(refunded!['requestId']);
      expect(String(refunded!['msg'])).toContain(requestId);
      expect(await h.ledger(acct.accountId)).toEqual([
        { request_id: `open:${acct.accountId}`, kind: 'credit', amount_micros: OPENING },
        { request_id: requestId, kind: 'find', amount_micros: -FIND },
        { request_id: `refund:${requestId}`, kind: 'refund', amount_micros: FIND },
      ]);
      expect(await usage()).toMatchObject({ balanceMicros: OPENING, usage: { find: { requests: 0, costMicros: 0 } } });
      expect(lines.filter((l) => l['code'] === 'charged_client_gone')).toEqual([]);
    });
  }

  it('a client that stays through the same slow commit is answered and charged, not refunded', async () => {
    const { h, acct, received, usage, lines } = await setUp(() => {});
    const text = await received;
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    const requestId = /\r\nrequest-id: ([^\r]+)/i.exec(text)?.[1];
    expect((await h.ledger(acct.accountId)).map((r) => r.request_id)).toEqual([`open:${acct.accountId}`, requestId]);
    expect(await usage()).toMatchObject({ balanceMicros: OPENING - FIND, usage: { find: { requests: 1, costMicros: FIND } } });
    expect(lines.filter((l) => String(l['code']).includes('client_gone'))).toEqual([]);
  });

  it('a service closed during that commit waits for the handler: its close resolves once the refund has committed, the store still open (audit 72a F2)', async () => {
    const { h, acct, received, lines } = await setUp((client) => client.end());
    expect(await received).toBe('');
    // the client has gone and the charge is still committing (300 ms): the server holds no connection now
    harness = undefined;
    await h.app.close();
    let rows: Awaited<ReturnType<typeof h.ledger>>;
    try {
      rows = await h.ledger(acct.accountId);
    } finally {
      await h.accounts.close();
    }
    expect(rows.map((r) => r.kind)).toEqual(['credit', 'find', 'refund']);
    expect(lines.filter((l) => l['code'] === 'refunded_client_gone')).toHaveLength(1);
    expect(lines.filter((l) => l['code'] === 'charged_client_gone')).toEqual([]);
  });

  it('a refund the database fails to make is logged at error level as charged_client_gone, naming the Request-Id; the charge stands', async () => {
    const { h, acct, received, logged } = await setUp((client) => client.end());
    const accounts: AccountsStore = h.accounts;
    accounts.refund = () => Promise.reject(new Error('the database went away'));
    expect(await received).toBe('');
    const [failed] = await logged('charged_client_gone');
    expect(failed).toMatchObject({ level: 50 });
    const requestId = String(failed!['requestId']);
    expect(String(failed!['msg'])).toContain(requestId);
    expect(String(failed!['msg'])).toContain('refund it by hand');
    expect(await h.ledger(acct.accountId)).toEqual([
      { request_id: `open:${acct.accountId}`, kind: 'credit', amount_micros: OPENING },
      { request_id: requestId, kind: 'find', amount_micros: -FIND },
    ]);
  });
});
