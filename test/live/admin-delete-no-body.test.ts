// Audit 69b F4: DELETE /admin/venues/{id} takes no body, but a body without a Content-Type
// was a 415 asking for application/json, and a JSON body naming another id was silently
// ignored while the path's venue was removed. Now it refuses any body as POST /admin/compact
// does (one rule): a 400 invalid_request naming the route, before the body is read, nothing
// removed. Oracle: the venues read back through the API (GET /v1/establishments/basic/{id}
// with a customer key) and the change log's lines on disk.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { FIXTURES_PATH, loadFixtureVenues } from '../search/support.js';

const TOKEN = 'operator-token-0123456789abcdef';
const tmp = mkdtempSync(join(tmpdir(), 'admin-delete-no-body-'));
const dir = join(tmp, 'live');
const load = async (path: string) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine;
const [first, second, third] = loadFixtureVenues().map((v) => v.id);

let live: LiveVenues;
let app: FastifyInstance;
let accounts: SqliteAccountsStore;
let key: string;
beforeAll(async () => {
  live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir, compactAfter: 0, load });
  accounts = new SqliteAccountsStore(':memory:');
  app = await buildApp({ engine: live.engine, accounts, admin: { live, token: TOKEN } });
  await app.ready();
  key = (await openAccount(accounts, 'Enterprise')).secretKey;
});
afterAll(async () => {
  await app.close();
  await accounts.close();
  await live.close();
  rmSync(tmp, { recursive: true, force: true });
});

const remove = (id: string, headers: Record<string, string> = {}, payload?: string) =>
  app.inject({ method: 'DELETE', url: `/admin/venues/${encodeURIComponent(id)}`, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, ...(payload === undefined ? {} : { payload }) });
const served = async (id: string): Promise<number> => (await app.inject({ url: `/v1/establishments/basic/${encodeURIComponent(id)}`, headers: { 'api-key': key } })).statusCode;
const REFUSED = { status: 400, code: 'invalid_request', message: 'DELETE /admin/venues/{id} takes no body: send it without one' };

describe('DELETE /admin/venues/{id} takes no body (audit 69b F4)', () => {
  it('a JSON body naming another id is a 400 naming the route, and neither venue is removed', async () => {
    const res = await remove(first!, { 'content-type': 'application/json' }, JSON.stringify({ id: second }));
    expect({ status: res.statusCode, code: res.json().code, message: res.json().message }).toEqual(REFUSED);
    expect([await served(first!), await served(second!)]).toEqual([200, 200]);
  });

  it('a body without a Content-Type, or of any other type, is the same 400 (not a 415 asking for JSON)', async () => {
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-ndjson' }]) {
      const res = await remove(first!, headers, 'abc');
      expect({ status: res.statusCode, code: res.json().code, message: res.json().message }, JSON.stringify(headers)).toEqual(REFUSED);
    }
    expect(await served(first!)).toBe(200);
  });

  it('without a body (none, or Content-Length: 0 whatever the type) it removes the venue of the path', async () => {
    const res = await remove(third!);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ removed: third });
    const empty = await remove(second!, { 'content-type': 'application/json', 'content-length': '0' });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ removed: second });
    expect([await served(first!), await served(second!), await served(third!)]).toEqual([200, 404, 404]);
  });

  it('the change log on disk holds exactly the two removals sent without a body: the refused ones wrote nothing', () => {
    const lines = readFileSync(join(dir, 'changes.log'), 'utf8').split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => [l.includes(JSON.stringify(first)), l.includes(JSON.stringify(second)), l.includes(JSON.stringify(third))])).toEqual([
      [false, false, true],
      [false, true, false],
    ]);
  });
});
