/**
 * Profile the HTTP service alone under load (issue 6): `POST /v1/search/` as in
 * bench/workloads/http-load.ts (fixtures, POINT 1 km, limit 20, 64 centres, 32 connections),
 * for HTTP_PROFILE_SECONDS (default 8). Run the compiled file under `node --cpu-prof` to see
 * where the adapter spends its time:
 *   npx tsc -p tsconfig.bench.json && node --cpu-prof --cpu-prof-dir=.tmp/prof .tmp/bench-dist/bench/diag/http-profile.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

const seconds = Number(process.env.HTTP_PROFILE_SECONDS ?? 8);
const { venues } = await readVenues('fixtures/venues.ndjson');
const engine = createEngine(venues, { validate: false }).warm();
const rand = seededRandom(42);
const bodies = Array.from({ length: 64 }, () => {
  const v = venues[Math.floor(rand() * venues.length)]!;
  const [lat, lon] = v.location.coordinates;
  return JSON.stringify({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 1000 } });
});
const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-http-profile-'));
const store = new SqliteAccountsStore(join(dir, 'accounts.sqlite'));
const account = await openAccount(store, 'Enterprise', { openingCreditMicros: 1e12 });
const service = await buildApp({ engine, accounts: store, planWindows: () => [{ name: 'second', limit: 1e9, windowMs: 1000 }] });
await service.listen({ port: 0, host: '127.0.0.1' });
const port = (service.server.address() as { port: number }).port;
const headers = { 'api-key': account.secretKey, 'content-type': 'application/json' };
const requests = bodies.map((body) => ({ method: 'POST' as const, body, headers }));
const r = (await (autocannon({ url: `http://127.0.0.1:${port}/v1/search/`, connections: 32, duration: seconds, requests, workers: 1 }) as unknown as Promise<autocannon.Result>));
console.log(`${Math.round(r.requests.total / r.duration)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
await service.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
