/**
 * Audit 70d F2: SIGTERM to `serve` while a pipelining client reads late. Its answers fill the
 * connection's buffers (the kernel's, then Node's user-space one); the answer charged last
 * waited in Node's buffer when the close began, and Node's server.close() destroyed the
 * connection with it: the client got one answer fewer than it was charged for, exit 0, nothing
 * logged. Now the stop waits until that answer has left the process. A real child `serve` on
 * an SQLite accounts file; the oracles are the ledger rows read from that file with a
 * separate better-sqlite3 connection, and the complete answers (status line, headers, the
 * whole Content-Length body) the client read.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bigSearchRequest } from '../support/big-search.js';
import { chargedRequestIds } from '../support/ledger-charges.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { freePort } from '../support/database-process.js';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-sigterm-slow-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The complete HTTP answers in `bytes`, in order: status and Request-Id; a truncated last one is left out. */
function completeAnswers(bytes: Buffer): { status: number; requestId: string }[] {
  const answers: { status: number; requestId: string }[] = [];
  let at = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return answers;
    const head = bytes.subarray(at, headEnd).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isInteger(length) || bytes.length < headEnd + 4 + length) return answers;
    answers.push({ status: Number(head.split(' ')[1]), requestId: /\r\nrequest-id: *([^\r]+)/i.exec(head)?.[1] ?? '' });
    at = headEnd + 4 + length;
  }
}

/**
 * The connection timeout the `serve` children are given (`--connection-timeout`, default 30 s),
 * ms: how long a stop waits for a client none of whose bytes leave. Shorter than the default,
 * so that the test does not wait 30 s; the stop's drain limit is it plus 10 s.
 */
const CONNECTION_TIMEOUT_MS = 8_000;

/** A `serve` child on a fresh SQLite accounts file with one Enterprise account, and a raw connection to it that has pipelined 90 searches and does not read yet. */
async function servedAccount(name: string) {
  const dbPath = join(tmp, `${name}.sqlite`);
  const store = new SqliteAccountsStore(dbPath);
  const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: 1_000_000_000 });
  await store.close();
  const port = await freePort();
  const args = ['serve', '--data', 'fixtures/venues.ndjson', '--port', String(port), '--db', dbPath, '--workers', '1', '--connection-timeout', String(CONNECTION_TIMEOUT_MS / 1000)];
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { log: '', err: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.log += String(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => (output.err += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (let waited = 0; !/serving .* on http/.test(output.err); waited += 100) {
    if (waited > 60_000 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start: ${output.err}`);
    }
    await sleep(100);
  }
  // answers of about 120 KB each, 90 of them (under the plan's 100 a second): far more than
  // the loopback's buffers hold (a few MB)
  const search = bigSearchRequest(acct.secretKey);
  const chunks: Buffer[] = [];
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(search.repeat(90));
  // not reading: the buffers fill, and the charges stop once the service waits for room
  let charged = 0;
  for (let stable = 0, waited = 0; stable < 10 && waited < 30_000; waited += 100) {
    await sleep(100);
    const now = chargedRequestIds(dbPath, acct.accountId).length;
    stable = now > 0 && now === charged ? stable + 1 : 0;
    charged = now;
  }
  expect(charged).toBeGreaterThan(5);
  expect(charged).toBeLessThan(90);
  return { child, output, exited, socket, closed, chunks, charges: () => chargedRequestIds(dbPath, acct.accountId) };
}

/** The Request-Ids the service logged as charged and not delivered (pino JSON lines). */
function loggedGone(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => line.includes('charged_client_gone'))
    .map((line) => (JSON.parse(line) as { requestId: string }).requestId);
}

describe('SIGTERM while a pipelining client reads late (audit 70d F2)', () => {
  it('every charged answer reaches the client: complete answers = ledger charges, exit 0', async () => {
    const served = await servedAccount('late-reader');
    const { child, output, exited, socket, closed, chunks } = served;
    try {
      child.kill('SIGTERM');
      // the close has begun (and, before the fix, destroyed the connection) before the client reads
      await sleep(1500);
      socket.resume();
      await closed;
      const code = await exited;
      const answers = completeAnswers(Buffer.concat(chunks));
      expect({ code, delivered: answers.filter((a) => a.status === 200).map((a) => a.requestId) }).toEqual({ code: 0, delivered: served.charges() });
      expect(output.log).not.toContain('charged_client_gone');
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it(`a client that reads nothing holds the stop for the ${CONNECTION_TIMEOUT_MS / 1000} s connection timeout, not the drain limit 10 s later: exit 0, its charged answer not sent logged by its Request-Id`, async () => {
    const served = await servedAccount('never-reader');
    const { child, output, exited, socket, closed, chunks } = served;
    try {
      const stopAt = performance.now();
      child.kill('SIGTERM');
      const code = await exited;
      const stopMs = performance.now() - stopAt;
      // what the kernel's buffers took still reaches the client, read only now
      socket.resume();
      await closed;
      const delivered = completeAnswers(Buffer.concat(chunks))
        .filter((a) => a.status === 200)
        .map((a) => a.requestId);
      const gone = loggedGone(output.log);
      expect(code).toBe(0);
      expect(stopMs).toBeGreaterThan(CONNECTION_TIMEOUT_MS - 500);
      expect(stopMs).toBeLessThan(CONNECTION_TIMEOUT_MS + 8_000); // the drain limit, 10 s later, not reached
      // every charge is either an answer the client read whole or one logged as not delivered
      expect(gone.length).toBeGreaterThan(0);
      expect([...delivered, ...gone].sort()).toEqual([...served.charges()].sort());
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
