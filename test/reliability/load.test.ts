/**
 * Load (issue 8, item 4): autocannon against search and find on a real loopback server
 * (support/load.ts; about 5 s here, 30 s in `npm run soak`). Oracle: the client's own count
 * of 2xx answers per endpoint and the price list, against the ledger read back from SQLite.
 * No 5xx, no socket errors or timeouts, p99 printed, ledger total = successful answers exactly.
 */
import { describe, expect, it } from 'vitest';
import { SCALE } from './support/scale.js';
import { runLoad } from './support/load.js';

describe(`load: ${SCALE.loadSeconds} s of autocannon on 127.0.0.1 (10 connections, search and find alternating, Enterprise)`, () => {
  it('no 5xx, no socket errors, p99 reported, and the ledger equals the successful answers exactly (count per endpoint and money)', async () => {
    const report = await runLoad({ seconds: SCALE.loadSeconds });
    console.log(
      `load: ${report.sent} requests in ${report.seconds.toFixed(1)} s (${Math.round(report.requestsPerSecond)}/s, ${report.batches} batches), ` +
        `statuses ${JSON.stringify(report.byStatus)}, p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms (worst batch), ` +
        `ledger ${report.ledger.charges} charges = ${report.served.search} search + ${report.served.find} find served`,
    );
    expect(report.sent).toBeGreaterThan(0);
    expect(Object.keys(report.byStatus).filter((s) => Number(s) >= 500)).toEqual([]);
    expect(report.socketErrors).toBe(0);
    expect(report.timeouts).toBe(0);
    expect(report.served.search + report.served.find).toBe(report.sent);
    expect(report.ledger.search).toBe(report.served.search);
    expect(report.ledger.find).toBe(report.served.find);
    expect(report.ledger.charges).toBe(report.sent);
    expect(report.ledger.costMicros).toBe(report.expectedCostMicros);
    expect(report.balanceEqualsLedger).toBe(true);
    expect(report.integrity).toBe('ok');
    expect(report.p99Ms).toBeGreaterThan(0);
  });
});
