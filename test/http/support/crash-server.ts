/**
 * A service process for the crash test: the real app, store and clock over the fixture engine,
 * listening on a loopback port that it prints as one JSON line. The test kills it with SIGKILL.
 * Usage: node --import tsx test/http/support/crash-server.ts <accounts.sqlite>
 */
import { buildApp } from '../../../src/http/app.js';
import { SqliteAccountsStore } from '../../../src/accounts/sqlite-accounts-store.js';
import { createFixtureEngine } from './fixture-engine.js';

const dbPath = process.argv[2];
if (dbPath === undefined) throw new Error('usage: crash-server.ts <accounts.sqlite>');
const store = new SqliteAccountsStore(dbPath);
const app = await buildApp({ engine: await createFixtureEngine(), accounts: store });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no port');
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
