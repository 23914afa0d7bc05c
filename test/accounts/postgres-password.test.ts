/**
 * docs/deploy.md: the PostgreSQL password goes in the service's environment (PGPASSWORD), not
 * in the --db URL. On a real server that asks the role for a password (scram-sha-256), a URL
 * without one and no PGPASSWORD is refused with a message that says what to do, not the
 * driver's SASL text (audit 63b F8); PGPASSWORD opens it; the password is never in a message.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

const PASSWORD = 'pw-of-venues-7Kq2';
let server: PostgresServer;
let venuesUrl: URL;
const savedPassword = process.env['PGPASSWORD'];
beforeAll(async () => {
  server = await startPostgres();
  const ownerUrl = await server.createDatabase('password_auth');
  const admin = new pg.Client({ connectionString: ownerUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE venues LOGIN PASSWORD '${PASSWORD}'`);
    await admin.query('GRANT ALL ON SCHEMA public TO venues');
    // the role must give a password over TCP (the server's other lines trust everyone)
    const { rows } = await admin.query<{ hba_file: string }>('SHOW hba_file');
    const hba = rows[0]!.hba_file;
    writeFileSync(hba, `host all venues 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
    await admin.query('SELECT pg_reload_conf()');
  } finally {
    await admin.end();
  }
  venuesUrl = new URL(ownerUrl);
  venuesUrl.username = 'venues';
}, 60_000);
afterEach(() => {
  if (savedPassword === undefined) delete process.env['PGPASSWORD'];
  else process.env['PGPASSWORD'] = savedPassword;
});
afterAll(async () => {
  await server?.stop();
});

describe('the PostgreSQL password', () => {
  it('none in the URL and no PGPASSWORD: refused, saying to set PGPASSWORD or put it in the URL', async () => {
    delete process.env['PGPASSWORD'];
    const err = await PostgresAccountsStore.open(venuesUrl.toString()).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(`cannot open the accounts database ${venuesUrl.toString()}: no password for user venues: set PGPASSWORD in the service's environment (docs/deploy.md), or put it in the URL`);
  });

  it('PGPASSWORD in the environment opens it; a wrong one is the server\'s own refusal, never echoing a password', async () => {
    process.env['PGPASSWORD'] = PASSWORD;
    await (await PostgresAccountsStore.open(venuesUrl.toString())).close();
    process.env['PGPASSWORD'] = 'not-the-password';
    const err = await PostgresAccountsStore.open(venuesUrl.toString()).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/password authentication failed for user "venues"/);
    expect(err?.message).not.toContain('not-the-password');
  });
});
