/**
 * docs/deploy.md: `serve` needs a role that may create tables only the first time. Once the
 * migrations are applied, a role with row rights alone (SELECT, INSERT, UPDATE, DELETE, the
 * ledger's sequence) opens the store, charges and reads, on a real PostgreSQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { priceMicros } from '../../src/accounts/plans.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-accounts-store.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('a role with row rights only, after the migrations', () => {
  it('opens the store, opens an account, charges and reads its balance; without the migrations it is refused, naming the cause', async () => {
    const ownerUrl = await server.createDatabase('least_privilege');
    const admin = new pg.Client({ connectionString: ownerUrl });
    await admin.connect();
    try {
      await admin.query('CREATE ROLE carol LOGIN');
      await admin.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
      const carolUrl = new URL(ownerUrl);
      carolUrl.username = 'carol';
      // no tables yet: carol may not create them
      await expect(PostgresAccountsStore.open(carolUrl.toString())).rejects.toThrow(/permission denied for schema public/);
      // the owner applies the migrations, then grants row rights
      await (await PostgresAccountsStore.open(ownerUrl)).close();
      await admin.query('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO carol');
      await admin.query('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO carol');
      const store = await PostgresAccountsStore.open(carolUrl.toString());
      try {
        const acct = await openAccount(store, 'Scale', { nowMs: 0 });
        const before = (await store.balanceMicros(acct.accountId))!;
        expect(await store.charge({ accountId: acct.accountId, costMicros: priceMicros('find'), requestId: 'r1', kind: 'find', nowMs: 1 })).toEqual({ charged: true, balanceMicros: before - priceMicros('find') });
      } finally {
        await store.close();
      }
    } finally {
      await admin.end();
    }
  });
});
