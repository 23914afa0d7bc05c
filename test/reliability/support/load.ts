/**
 * A bounded load run for the reliability suite and the soak: the real app and the SQLite
 * accounts store (a file: WAL, synchronous=FULL, group commit) listening on 127.0.0.1 only,
 * driven by autocannon with POST /v1/search/ and GET /v1/find alternating, from one
 * Enterprise account whose per-second window is lifted (an operator's custom contract) and
 * whose balance cannot run out, so every request should be served.
 *
 * autocannon cuts requests in flight when a `duration` ends, and a cut request may already be
 * charged; to compare the ledger with the answers EXACTLY the run is a series of batches of
 * a fixed `amount` (each batch waits for all its answers) until `seconds` have passed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openAccount } from '../../../src/accounts/accounts.js';
import { buildApp } from '../../../src/http/app.js';
import { priceMicros } from '../../../src/accounts/plans.js';
import { SqliteAccountsStore } from '../../../src/accounts/sqlite-accounts-store.js';
import { createFixtureEngine } from '../../http/support/fixture-engine.js';

export interface LoadReport {
  readonly seconds: number;
  readonly batches: number;
  readonly sent: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly served: { readonly search: number; readonly find: number };
  readonly socketErrors: number;
  readonly timeouts: number;
  readonly requestsPerSecond: number;
  /** Latency percentiles in ms: the worst batch's p99, and the median over batches of p50. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly ledger: { readonly charges: number; readonly search: number; readonly find: number; readonly costMicros: number };
  readonly expectedCostMicros: number;
  readonly balanceEqualsLedger: boolean;
  readonly integrity: string;
}

const SEARCH_LIMIT = 20;
const SEARCH_BODY = JSON.stringify({
  locations: [
    { lat: 53.8008, lon: -1.5491, label: 'ana' },
    { lat: 53.796, lon: -1.54, label: 'ben' },
  ],
  mode: { mode: 'POINT', maxDistance: 1500 },
  preferences: { openingConditions: { state: 'OPEN' } },
});

export async function runLoad(options: { seconds: number; connections?: number; batchSize?: number }): Promise<LoadReport> {
  const tmp = mkdtempSync(join(tmpdir(), 'venue-search-load-'));
  const store = new SqliteAccountsStore(join(tmp, 'accounts.sqlite'));
  const app = await buildApp({
    engine: await createFixtureEngine(),
    accounts: store,
    planWindows: () => [{ name: 'second', limit: 1_000_000_000, windowMs: 1000 }],
  });
  try {
    const acct = await openAccount(store, 'Enterprise', { openingCreditMicros: 1e13 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const served = { search: 0, find: 0 };
    const byStatus: Record<string, number> = {};
    const count = (kind: 'search' | 'find') => (status: number) => {
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (status >= 200 && status < 300) served[kind]++;
    };
    const headers = { 'api-key': acct.secretKey, 'content-type': 'application/json' };
    let sent = 0;
    let socketErrors = 0;
    let timeouts = 0;
    let batches = 0;
    let p99Ms = 0;
    const p50s: number[] = [];
    const started = Date.now();
    while (Date.now() - started < options.seconds * 1000) {
      const result = await autocannon({
        url: `http://127.0.0.1:${address.port}`,
        connections: options.connections ?? 10,
        amount: options.batchSize ?? 500,
        timeout: 10,
        requests: [
          { method: 'POST', path: `/v1/search/?limit=${SEARCH_LIMIT}`, headers, body: SEARCH_BODY, onResponse: count('search') },
          { method: 'GET', path: '/v1/find?q=nando&lat=53.8&lon=-1.55', headers: { 'api-key': acct.secretKey }, onResponse: count('find') },
        ],
      });
      batches++;
      sent += result.requests.sent;
      socketErrors += result.errors;
      timeouts += result.timeouts;
      p99Ms = Math.max(p99Ms, result.latency.p99);
      p50s.push(result.latency.p50);
    }
    const elapsed = (Date.now() - started) / 1000;
    const rows = store.db.prepare("SELECT kind, COUNT(*) AS n, SUM(amount_micros) AS sum FROM ledger WHERE account_id = ? AND amount_micros < 0 GROUP BY kind").all(acct.accountId) as {
      kind: string;
      n: number;
      sum: number;
    }[];
    const of = (kind: string) => rows.find((r) => r.kind === kind);
    const balance = store.db
      .prepare('SELECT balance_micros AS balance, (SELECT SUM(amount_micros) FROM ledger WHERE account_id = ?) AS sum FROM accounts WHERE id = ?')
      .get(acct.accountId, acct.accountId) as { balance: number; sum: number };
    const integrity = (store.db.pragma('integrity_check', { simple: true }) as string) ?? '';
    p50s.sort((a, b) => a - b);
    return {
      seconds: elapsed,
      batches,
      sent,
      byStatus,
      served,
      socketErrors,
      timeouts,
      requestsPerSecond: sent / elapsed,
      p50Ms: p50s[Math.floor(p50s.length / 2)] ?? 0,
      p99Ms,
      ledger: {
        charges: rows.reduce((n, r) => n + r.n, 0),
        search: of('search')?.n ?? 0,
        find: of('find')?.n ?? 0,
        costMicros: -rows.reduce((s, r) => s + r.sum, 0),
      },
      expectedCostMicros: served.search * priceMicros('search', SEARCH_LIMIT) + served.find * priceMicros('find'),
      balanceEqualsLedger: balance.balance === balance.sum,
      integrity,
    };
  } finally {
    await app.close();
    await store.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
