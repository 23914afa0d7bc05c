/**
 * HTTP load workload (issue 6): `POST /v1/search/` of the full service (key check, rate
 * counting, billing with a durable SQLite ledger, engine, serialization) beside a bare
 * fastify route that returns a fixed JSON body of the same size, in the same run, on
 * loopback (127.0.0.1), bounded in time. Goal: the service reaches at least half the bare
 * route's requests per second.
 *
 * Workload: the bundled fixtures (fixtures/venues.ndjson); POINT searches of 1 km, limit 20,
 * centred on 64 venues of the file in turn (seeded pick), so each request does real work.
 * The load generator (autocannon) runs in a worker thread so it does not share the
 * server's event loop. The bench account's rate windows are lifted (the counting still
 * happens on every request) so the run measures throughput, not the plan's allowance.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { openAccount } from '../../src/http/accounts.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/http/sqlite-accounts-store.js';
import type { WorkloadResult } from '../lib/report.js';

export interface HttpLoadOptions {
  /** Seconds of load per route (after a 1 s warm-up). */
  readonly seconds: number;
  readonly connections: number;
  /** NDJSON data file (default: the bundled fixtures). */
  readonly data?: string;
}

interface Row {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  bodyBytes: number;
}

export async function httpLoadWorkload(opts: HttpLoadOptions): Promise<WorkloadResult> {
  const SECONDS = opts.seconds;
  const CONNECTIONS = opts.connections;
  const DATA = opts.data ?? 'fixtures/venues.ndjson';

  const { venues } = await readVenues(DATA);
  const engine = createEngine(venues, { validate: false }).warm();

  // seeded pick of 64 centres (mulberry32)
  let seed = 42;
  const rand = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const bodies = Array.from({ length: 64 }, () => {
    const v = venues[Math.floor(rand() * venues.length)]!;
    const [lat, lon] = v.location.coordinates;
    return JSON.stringify({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 1000 } });
  });

  const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-http-bench-'));
  const store = new SqliteAccountsStore(join(dir, 'accounts.sqlite'));
  const account = await openAccount(store, 'Enterprise', { openingCreditMicros: 1e12 });
  const service = await buildApp({
    engine,
    accounts: store,
    planWindows: () => [{ name: 'second', limit: 1e9, windowMs: 1000 }],
  });
  await service.listen({ port: 0, host: '127.0.0.1' });
  const servicePort = (service.server.address() as { port: number }).port;

  // the bare route answers a body of the same size as a typical search answer
  const sample = await service.inject({
    method: 'POST',
    url: '/v1/search/',
    headers: { 'api-key': account.secretKey, 'content-type': 'application/json' },
    payload: bodies[0]!,
  });
  if (sample.statusCode !== 200) throw new Error(`sample search failed: ${sample.statusCode} ${sample.body}`);
  const fixedBody: unknown = JSON.parse(sample.body);
  const bare = Fastify();
  bare.post('/bare', async () => fixedBody);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;


  async function load(name: string, url: string, headers: Record<string, string>): Promise<Row> {
    const requests = bodies.map((body) => ({ method: 'POST' as const, body, headers }));
    const run = (duration: number) =>
      autocannon({ url, connections: CONNECTIONS, duration, requests, workers: 1 }) as unknown as Promise<autocannon.Result>;
    await run(1); // warm-up
    const r = await run(SECONDS);
    return {
      name,
      requestsPerSecond: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
      bodyBytes: sample.body.length,
    };
  }

  const rows = [
    await load('bare fastify route (fixed JSON)', `http://127.0.0.1:${barePort}/bare`, { 'content-type': 'application/json' }),
    await load('POST /v1/search/ (full service)', `http://127.0.0.1:${servicePort}/v1/search/`, {
      'content-type': 'application/json',
      'api-key': account.secretKey,
    }),
  ];
  const ledgerRows = (store.db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'search'").get() as { n: number }).n;

  await service.close();
  await bare.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  const ratio = rows[1]!.requestsPerSecond / rows[0]!.requestsPerSecond;
  return {
    workload: 'HTTP load, loopback',
    params: { venues: venues.length, data: DATA, connections: CONNECTIONS, secondsPerRoute: SECONDS, request: 'POST /v1/search/ POINT 1 km, limit 20', bodyBytes: sample.body.length },
    timings: [],
    table: {
      header: ['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
      rows: rows.map((r) => [r.name, String(r.requestsPerSecond), String(r.p50Ms), String(r.p99Ms), String(r.non2xx), String(r.errors)]),
      data: rows,
    },
    figures: { 'service / bare throughput (goal >= 0.5)': ratio, 'searches charged in the ledger': ledgerRows },
  };
}
