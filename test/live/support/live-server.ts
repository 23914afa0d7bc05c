// A live-data service process for the crash test: the same pieces `serve
// --admin-token-file` wires (LiveVenues over a data file and a live directory, buildApp
// with the admin routes), without the CLI's other commands, so that it starts quickly.
// argv: dataPath (a venues file or snapshot) liveDir token compactAfter. Prints {"port": n} on stdout when listening.
import { loadEngineFile } from '../../../src/cli/load-engine.js';
import { LiveVenues } from '../../../src/changelog/live-venues.js';
import { buildApp } from '../../../src/http/app.js';
import { SqliteAccountsStore } from '../../../src/accounts/sqlite-accounts-store.js';

const [dataPath, dir, token, compactAfter] = process.argv.slice(2) as [string, string, string, string];
const live = await LiveVenues.open({
  dataPath,
  dir,
  compactAfter: Number(compactAfter),
  load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine,
});
const app = await buildApp({ engine: live.engine, accounts: new SqliteAccountsStore(':memory:'), admin: { live, token } });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`);
