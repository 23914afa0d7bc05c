/**
 * Audit 70d F1: what a pipelining client that resets is charged for. A pipelined answer is
 * charged when its turn to be written comes, i.e. once the answer ahead of it has been handed
 * to the kernel (Node assigns the connection to the next response at the previous one's
 * `finish`, its last write's callback). What the kernel's buffers then deliver no server can
 * see, so a client that reads late and resets is charged for every answer the buffers took
 * before the reset was read: docs/http.md states that bound (the send buffer, the client's
 * receive buffer, and the answer Node still held), not "the first and at most the next",
 * which the audit broke with 5 of 5. Oracles: the ledger rows read from the accounts file
 * with a separate better-sqlite3 connection, the kernel's buffer limits from /proc, the
 * bytes of one answer as a client reads it, and the log.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bigSearchRequest } from '../support/big-search.js';
import { chargedRequestIds } from '../support/ledger-charges.js';
import { createHarness, listenOnLoopback } from './support/harness.js';
import { logRecords } from './support/log-records.js';
import { readUntilClosed } from './support/raw-http.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-reset-charged-bound-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The largest size, bytes, the kernel lets a TCP buffer grow to (`tcp_wmem` / `tcp_rmem`'s third field). */
const tcpMax = (name: 'tcp_wmem' | 'tcp_rmem'): number => Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);

async function setUp(name: string, count: number) {
  const dbPath = join(tmp, `${name}.sqlite`);
  const { lines, stream } = logRecords();
  const h = await createHarness({ dbPath, extra: { logger: { level: 'info', stream } } });
  const port = await listenOnLoopback(h);
  const acct = await h.open();
  const other = await h.open();
  const answerBytes = Buffer.byteLength(await readUntilClosed(port, bigSearchRequest(other.secretKey, true)));
  const charges = () => chargedRequestIds(dbPath, acct.accountId);
  const logged = (code: string) => lines.filter((l) => l['code'] === code).map((l) => String(l['reqId']));
  /** Waits until the charges have not changed for 1 s (30 s at most). */
  const settled = async () => {
    let last = -1;
    for (let stable = 0, waited = 0; stable < 10 && waited < 30_000; waited += 100) {
      await sleep(100);
      const now = charges().length;
      stable = now === last ? stable + 1 : 0;
      last = now;
    }
  };
  return { h, port, pipeline: bigSearchRequest(acct.secretKey).repeat(count), answerBytes, charges, logged, settled };
}

describe('a pipelining client that resets is charged for what the buffers took (audit 70d F1)', () => {
  it('reset read late, after the first 64 KiB of the first answer: all 5 answers charged (the buffers took them), within the documented bound', async () => {
    const t = await setUp('late-reset', 5);
    const s: Socket = connect(t.port, '127.0.0.1');
    s.on('error', () => {});
    s.pause();
    s.write(t.pipeline);
    // the audit's repro: not reading for 300 ms, then one chunk (part of the first answer), then a reset
    await sleep(300);
    await new Promise<void>((resolve) => {
      s.once('data', (chunk: Buffer) => {
        expect(chunk.length).toBeLessThan(t.answerBytes);
        s.resetAndDestroy();
        resolve();
      });
      s.resume();
    });
    await t.settled();
    const charged = t.charges().length;
    // the documented bound: the bytes the kernel's send buffer and the client's receive buffer take, and one answer in Node's buffer
    expect(charged * t.answerBytes).toBeLessThanOrEqual(tcpMax('tcp_wmem') + tcpMax('tcp_rmem') + t.answerBytes);
    // and what the old sentence ("that one and at most the next") did not allow: every answer
    // fitted in the buffers, so every one was charged (5 x ~120 KB, against MBs of buffers)
    expect(charged).toBe(5);
    await t.h.close();
  });

  it('a client that never reads and resets: charged for what the buffers took; the charged answer still in Node\'s buffer at the reset is logged charged_client_gone', async () => {
    const count = 60;
    const t = await setUp('never-read-reset', count);
    const s: Socket = connect(t.port, '127.0.0.1');
    s.on('error', () => {});
    s.pause();
    s.write(t.pipeline);
    await t.settled();
    s.resetAndDestroy();
    await t.settled();
    await sleep(200);
    const charged = t.charges();
    expect(charged.length).toBeGreaterThan(1);
    expect(charged.length).toBeLessThan(count);
    expect(charged.length * t.answerBytes).toBeLessThanOrEqual(tcpMax('tcp_wmem') + tcpMax('tcp_rmem') + t.answerBytes);
    // the buffers full, the answer charged last was the one Node still held: charged, not delivered, and said so
    expect(t.logged('charged_client_gone')).toEqual(charged.slice(-1));
    await t.h.close();
  });
});
