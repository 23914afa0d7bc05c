/**
 * Durability (issue 6 "Done when"): a real service process is killed with SIGKILL in the
 * middle of a burst of billed requests, then restarted. Oracle: the client's own record of
 * which requests were answered 200 (with their Request-Id), compared with the ledger read
 * back from the database file after the kill.
 * - every answered request has exactly one ledger row (request ids are UNIQUE);
 * - no more charges than answered + in flight at the kill;
 * - balance = sum of ledger amounts; the restarted service keeps serving and charging.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccount, type OpenedAccount } from '../../src/accounts/accounts.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

const SERVER = join(import.meta.dirname, 'support', 'crash-server.ts');

async function startServer(dbPath: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, port };
}

function readLedger(dbPath: string): { requestIds: Map<string, number>; charges: number; sumByAccount: Map<string, number> } {
  const store = new SqliteAccountsStore(dbPath);
  const rows = store.db.prepare('SELECT account_id, request_id, amount_micros FROM ledger').all() as {
    account_id: string;
    request_id: string;
    amount_micros: number;
  }[];
  const requestIds = new Map<string, number>();
  const sumByAccount = new Map<string, number>();
  let charges = 0;
  for (const r of rows) {
    requestIds.set(r.request_id, (requestIds.get(r.request_id) ?? 0) + 1);
    sumByAccount.set(r.account_id, (sumByAccount.get(r.account_id) ?? 0) + r.amount_micros);
    if (r.amount_micros < 0) charges++;
  }
  const balances = store.db.prepare('SELECT id, balance_micros FROM accounts').all() as { id: string; balance_micros: number }[];
  for (const b of balances) expect(b.balance_micros, `balance of ${b.id} = sum of its ledger`).toBe(sumByAccount.get(b.id));
  store.db.close();
  return { requestIds, charges, sumByAccount };
}

describe('SIGKILL in the middle of a burst', () => {
  it('every answered request is charged exactly once, nothing answered is lost, and the restarted service carries on', async () => {
    const dbPath = join(tmp, 'accounts.sqlite');
    const setup = new SqliteAccountsStore(dbPath);
    const accounts: OpenedAccount[] = [];
    for (let i = 0; i < 5; i++) accounts.push(await openAccount(setup, 'Enterprise')); // 5 x 100/s
    await setup.close();

    const { child, port } = await startServer(dbPath);
    const answered: string[] = [];
    let sent = 0;
    let killed = false;
    const KILL_AFTER = 120;
    const worker = async (w: number): Promise<void> => {
      while (!killed && sent < 2000) {
        const key = accounts[(sent++ + w) % accounts.length]!.secretKey;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/v1/find?q=nando`, { headers: { 'API-Key': key } });
          await res.arrayBuffer();
          if (res.status === 200) {
            answered.push(res.headers.get('request-id')!);
            if (answered.length === KILL_AFTER && !killed) {
              killed = true;
              child.kill('SIGKILL');
            }
          }
        } catch {
          // the service was killed: refused and reset connections are expected
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    expect(child.signalCode).toBe('SIGKILL');
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const ledger = readLedger(dbPath);
    for (const id of answered) expect(ledger.requestIds.get(id), `ledger rows for answered ${id}`).toBe(1);
    expect(ledger.charges).toBeGreaterThanOrEqual(answered.length);
    // at most the 16 requests in flight when the process died were charged without an answer
    expect(ledger.charges - answered.length).toBeLessThanOrEqual(16);

    // restart on the same file: serves and charges again, balances still equal the ledger
    const restarted = await startServer(dbPath);
    const res = await fetch(`http://127.0.0.1:${restarted.port}/v1/business/balances`, { headers: { 'API-Key': accounts[0]!.secretKey } });
    expect(res.status).toBe(200);
    const balances = (await res.json()) as { balanceMicros: number; usage: { find: { requests: number } } };
    expect(balances.balanceMicros).toBe(ledger.sumByAccount.get(accounts[0]!.accountId));
    const more = await fetch(`http://127.0.0.1:${restarted.port}/v1/find?q=wagamama`, { headers: { 'API-Key': accounts[0]!.secretKey } });
    expect(more.status).toBe(200);
    restarted.child.kill('SIGKILL');
    await new Promise((resolve) => restarted.child.once('exit', resolve));
    const after = readLedger(dbPath);
    expect(after.charges).toBe(ledger.charges + 1);
    expect(after.requestIds.get(more.headers.get('request-id')!)).toBe(1);
  });
});
