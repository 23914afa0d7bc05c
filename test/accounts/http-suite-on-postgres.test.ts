/**
 * Issue 18: the accounts and billing suite of test/http runs on BOTH stores. Every other file
 * runs it on SQLite; this one starts a real PostgreSQL server and re-runs those files (a
 * child vitest) with the harness switched to it (support/harness.ts, POSTGRES_SUITE_ENV): every
 * harness then gets a fresh PostgreSQL database. Tests that read SQLite itself (a second
 * store on one file, WAL files, the ledger thread) stay SQLite-only; their PostgreSQL
 * counterparts are stores.test.ts and postgres-processes.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { POSTGRES_SUITE_ENV } from '../http/support/harness.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

const run = promisify(execFile);

/** The accounts and billing files of test/http whose harness can run on either store. */
export const SUITE = [
  'test/http/billing.test.ts',
  'test/http/errors.test.ts',
  'test/http/endpoints.test.ts',
  'test/http/rate-limits.test.ts',
  'test/http/openapi.test.ts',
  'test/http/papercuts.test.ts',
  'test/http/refund-unwritten.test.ts',
];

let server: PostgresServer;
const tmp = mkdtempSync(join(tmpdir(), 'venue-search-pg-suite-'));
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

it(`the accounts and billing suite (${SUITE.length} files) passes on PostgreSQL`, async () => {
  const out = join(tmp, 'report.json');
  const vitest = join(process.cwd(), 'node_modules/vitest/vitest.mjs');
  await run(process.execPath, [vitest, 'run', ...SUITE, '--reporter=json', `--outputFile=${out}`], {
    env: { ...process.env, [POSTGRES_SUITE_ENV]: server.url },
    maxBuffer: 64 * 1024 * 1024,
  }).catch(() => undefined); // a failure is read from the report below
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numTotalTests: number;
    testResults: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
  };
  const failures = report.testResults.flatMap((f) => [
    ...(f.status === 'failed' && f.assertionResults.length === 0 ? [`${f.name}: ${f.message}`] : []),
    ...f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${a.fullName}: ${a.failureMessages.join(' ').slice(0, 500)}`),
  ]);
  expect(failures).toEqual([]);
  expect(report.numFailedTests).toBe(0);
  expect(report.testResults.map((f) => f.name.slice(f.name.indexOf('test/http/'))).sort()).toEqual([...SUITE].sort());
  // the six files hold about a hundred tests (100 on 2026-11-27): most of them really ran
  expect(report.numPassedTests).toBeGreaterThan(90);
  // the harnesses really ran on this server: one database each, with their accounts
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'harness_%'");
    expect(rows.length).toBeGreaterThanOrEqual(SUITE.length);
  } finally {
    await client.end();
  }
}, 600_000);
