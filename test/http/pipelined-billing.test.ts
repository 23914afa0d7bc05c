/**
 * Pipelined billable requests on one real connection (audit 69b F1): a pipelined answer is
 * charged only once it holds the connection, with its client still there. Oracles: the
 * ledger rows read from the accounts file with a separate better-sqlite3 connection (not the
 * store), the answers and their Request-Id headers as the client read them, the bytes Node
 * handed to the server's side of the connection (`socket.bytesWritten`), and the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bigSearchRequest } from '../support/big-search.js';
import { chargedRequestIds, refundedRequestIds } from '../support/ledger-charges.js';
import { createHarness, listenOnLoopback } from './support/harness.js';
import { logRecords } from './support/log-records.js';
import { parseAll, readUntilClosed } from './support/raw-http.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-pipelined-billing-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A server on a fresh accounts file, its log lines kept, an account, the bytes of `count`
 * searches pipelined (the last one asks to close), and the server's side of the connection.
 */
async function setUp(name: string, count: number) {
  const dbPath = join(tmp, `${name}.sqlite`);
  const { lines, stream } = logRecords();
  const h = await createHarness({ dbPath, extra: { logger: { level: 'info', stream } } });
  const port = await listenOnLoopback(h);
  const acct = await h.open();
  const search = (close: boolean) => bigSearchRequest(acct.secretKey, close);
  // the bytes of one answer on the wire, as a client reads it (another account: this one's ledger stays the test's)
  const other = await h.open();
  const reference = await readUntilClosed(port, bigSearchRequest(other.secretKey, true));
  const referenceId = /\r\nrequest-id: ([^\r]+)/i.exec(reference)?.[1];
  // the server's side of the test's connection, the next one
  const server: { socket?: Socket } = {};
  h.app.server.once('connection', (socket: Socket) => (server.socket = socket));
  const pipeline = Array.from({ length: count }, (_, i) => search(i === count - 1)).join('');
  /** The ids of the searches the service received, in order, from its `incoming request` lines. */
  const received = () =>
    lines
      .filter((l) => l['msg'] === 'incoming request' && String((l['req'] as { url?: string } | undefined)?.url).startsWith('/v1/search'))
      .map((l) => String(l['reqId']))
      .filter((id) => id !== referenceId);
  const logged = (code: string) => lines.filter((l) => l['code'] === code).map((l) => String(l['reqId']));
  const charges = () => chargedRequestIds(dbPath, acct.accountId);
  const refunds = () => refundedRequestIds(dbPath, acct.accountId);
  /** Waits (up to 30 s) until every search sent is received and either charged or logged `client_gone`. */
  const settled = async () => {
    const done = () => received().length === count && received().every((id) => charges().includes(id) || logged('client_gone').includes(id));
    for (let waited = 0; waited < 30_000 && !done(); waited += 50) await sleep(50);
    // time for a late charge to have committed, had one been made
    await sleep(500);
  };
  return { h, port, server, pipeline, received, logged, charges, refunds, settled, answerBytes: Buffer.byteLength(reference) };
}

describe('pipelined billable requests on one connection (audit 69b F1)', () => {
  it('read to the end: every answer, in order, each charged once under its Request-Id, none logged client_gone', async () => {
    const count = 8;
    const t = await setUp('read-all', count);
    const text = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      const s = connect(t.port, '127.0.0.1');
      s.on('data', (chunk: Buffer) => chunks.push(chunk));
      s.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      s.write(t.pipeline);
    });
    const answers = parseAll(text);
    expect(answers.map((a) => a.status)).toEqual(Array<number>(count).fill(200));
    for (const a of answers) {
      expect((JSON.parse(a.body) as { establishments: unknown[] }).establishments).toHaveLength(100);
      // large: several such answers fill the connection's buffers
      expect(Buffer.byteLength(a.body)).toBeGreaterThan(100_000);
    }
    const ids = answers.map((a) => a.headers['request-id']);
    expect(ids).toEqual(t.received());
    expect(t.charges()).toEqual(ids);
    expect(t.logged('client_gone')).toEqual([]);
    await t.h.close();
  });

  // Each case: how many searches are pipelined, and how the client leaves: a reset on the
  // first bytes of the first answer (the audit's repro), or a client that never reads, reset
  // once every search has been received and answered as far as the connection takes them
  // Each case: how many searches are pipelined, at most how many may be charged, and how the
  // client leaves: a reset on the first bytes of the first answer (the audit's repro: the
  // first answer, and the second if its turn came before the reset was read), or a client
  // that never reads, reset once every search has been received and answered as far as the
  // connection takes them (the socket's buffers hold some 30 answers)
  const cases: [string, number, number, (s: Socket, t: Awaited<ReturnType<typeof setUp>>) => Promise<void>][] = [
    [
      'reset on the first bytes of the first answer',
      10,
      2,
      (s) =>
        new Promise((resolve) =>
          s.once('data', () => {
            s.resetAndDestroy();
            resolve();
          }),
        ),
    ],
    [
      'a client that never reads, reset later',
      60,
      59,
      async (s, t) => {
        s.pause();
        for (let waited = 0; waited < 30_000 && t.received().length < 60; waited += 50) await sleep(50);
        await sleep(2000);
        s.resetAndDestroy();
      },
    ],
  ];
  for (const [label, count, atMost, leave] of cases) {
    it(`${label}: only answers handed to the connection are charged, in order; every other is not, and is logged client_gone`, async () => {
      const t = await setUp(label.replace(/\W+/g, '-'), count);
      const answerBytes = t.answerBytes;
      const s: Socket = connect(t.port, '127.0.0.1');
      s.on('error', () => {});
      s.write(t.pipeline);
      await leave(s, t);
      await t.settled();
      expect(t.received()).toHaveLength(count);
      const everCharged = t.charges();
      // a charge that committed as the client left is refunded, nothing written (audit 71e F3)
      const refunded = t.refunds();
      const charged = everCharged.slice(0, everCharged.length - refunded.length);
      // the oracle: the bytes Node was given for this connection (whole answers; their
      // Connection headers differ by a few bytes from the reference's)
      const handedOver = Math.round(t.server.socket!.bytesWritten / answerBytes);
      const warned = t.logged('charged_client_gone');
      const counts = `${everCharged.length} charged, ${refunded.length} refunded, ${handedOver} answers handed over, ${warned.length} charged_client_gone`;
      // before: every search charged (10 of 10: 1 handed over; 60 of 60: some 33 handed over), none logged
      expect(charged.length, counts).toBeLessThanOrEqual(atMost);
      // the answers go out in order: those charged are the first ones; each was handed to the
      // connection, or charged as its client left (the last wait for the commit): then refunded
      // and logged so, or (its answer given to Node) logged charged_client_gone
      expect(everCharged, counts).toEqual(t.received().slice(0, everCharged.length));
      expect(refunded, counts).toEqual(everCharged.slice(charged.length));
      expect(t.logged('refunded_client_gone'), counts).toEqual(refunded);
      // logged charged_client_gone: those charged but not handed over, and (audit 70d F2) the
      // one handed over whose bytes had not all left the process at the reset: the last ones charged
      expect(warned, counts).toEqual(charged.slice(charged.length - warned.length));
      expect(warned.length, counts).toBeGreaterThanOrEqual(charged.length - handedOver);
      expect(warned.length, counts).toBeLessThanOrEqual(charged.length - handedOver + 1);
      expect(t.logged('client_gone')).toEqual(t.received().slice(everCharged.length));
      await t.h.close();
    });
  }
});
