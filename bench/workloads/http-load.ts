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
 * Request logging is off for both servers (buildApp's default; `serve` logs at info).
 *
 * Fair comparison on a shared machine:
 * - the bare route's body is the answer, of the 64 searches, closest to their mean size, so
 *   both routes send the same bytes per request on average (the first answer, used before,
 *   was 9 % below the mean);
 * - the two routes are measured in interleaved rounds, bare-service-service-bare (2 rounds of
 *   `seconds / 2` each by default, after a 1 s warm-up of each), so a drift in the machine's
 *   background load hits both alike. Two things tried and dropped because they distort: a
 *   full garbage collection before each round (about -20 % for the bare route, probably as V8
 *   then shrinks the young generation), and rounds much shorter than 2 s (each autocannon run
 *   starts a fresh worker thread, whose cold start seemed to cost the faster, bare route
 *   more). req/s = requests / seconds over all rounds of
 *   a route; p50 and p99 are the medians of the rounds' percentiles; per-round ratios too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { openAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { median } from '../lib/measure.js';
import type { WorkloadResult } from '../lib/report.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

export interface HttpLoadOptions {
  /** Seconds of load per route (after a 1 s warm-up), split into `rounds` interleaved rounds. */
  readonly seconds: number;
  /** Interleaved rounds per route (default 2: bare, service, service, bare). */
  readonly rounds?: number;
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
  /** req/s of each round, in order. */
  roundsRequestsPerSecond: number[];
}

interface Round {
  requests: number;
  ok: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function httpLoadWorkload(opts: HttpLoadOptions): Promise<WorkloadResult> {
  const SECONDS = opts.seconds;
  const ROUNDS = Math.max(1, Math.trunc(opts.rounds ?? 2));
  const CONNECTIONS = opts.connections;
  const DATA = opts.data ?? 'fixtures/venues.ndjson';

  const { venues } = await readVenues(DATA);
  const engine = createEngine(venues, { validate: false }).warm();

  const rand = seededRandom(42); // seeded pick of 64 centres
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

  // the bare route answers a fixed body of the size of a typical search answer: the one closest to the mean
  const headers = { 'api-key': account.secretKey, 'content-type': 'application/json' };
  const samples: string[] = [];
  for (const payload of bodies) {
    const answer = await service.inject({ method: 'POST', url: '/v1/search/', headers, payload });
    if (answer.statusCode !== 200) throw new Error(`sample search failed: ${answer.statusCode} ${answer.body}`);
    samples.push(answer.body);
  }
  const meanServiceBytes = Math.round(samples.reduce((n, b) => n + Buffer.byteLength(b), 0) / samples.length);
  const distance = (b: string) => Math.abs(Buffer.byteLength(b) - meanServiceBytes);
  const sample = samples.reduce((best, b) => (distance(b) < distance(best) ? b : best));
  const sampleBytes = Buffer.byteLength(sample);
  const fixedBody: unknown = JSON.parse(sample);
  const bare = Fastify();
  bare.post('/bare', async () => fixedBody);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;

  const routes = [
    { name: 'bare fastify route (fixed JSON)', url: `http://127.0.0.1:${barePort}/bare`, headers: { 'content-type': 'application/json' } },
    { name: 'POST /v1/search/ (full service)', url: `http://127.0.0.1:${servicePort}/v1/search/`, headers },
  ];
  const run = async (route: (typeof routes)[number], duration: number): Promise<Round> => {
    const requests = bodies.map((body) => ({ method: 'POST' as const, body, headers: route.headers }));
    const r = (await (autocannon({ url: route.url, connections: CONNECTIONS, duration, requests, workers: 1 }) as unknown as Promise<autocannon.Result>));
    return { requests: r.requests.total, ok: r['2xx'], seconds: r.duration, p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
  };
  const warmUps = [];
  for (const route of routes) warmUps.push(await run(route, 1));
  const rounds: Round[][] = routes.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    // alternate which route goes first, so neither always follows the other
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) rounds[k]!.push(await run(routes[k]!, SECONDS / ROUNDS));
  }
  const rows: Row[] = routes.map((route, k) => {
    const rs = rounds[k]!;
    return {
      name: route.name,
      requestsPerSecond: Math.round(rs.reduce((n, r) => n + r.requests, 0) / rs.reduce((n, r) => n + r.seconds, 0)),
      p50Ms: median(rs.map((r) => r.p50Ms)),
      p99Ms: median(rs.map((r) => r.p99Ms)),
      non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
      errors: rs.reduce((n, r) => n + r.errors, 0),
      bodyBytes: k === 0 ? sampleBytes : meanServiceBytes,
      roundsRequestsPerSecond: rs.map((r) => Math.round(r.requests / r.seconds)),
    };
  });
  const roundRatios = rows[1]!.roundsRequestsPerSecond.map((svc, i) => svc / rows[0]!.roundsRequestsPerSecond[i]!);
  await service.close(); // lets the requests still in flight finish (and be charged)
  const ledgerRows = (store.db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'search'").get() as { n: number }).n;
  await bare.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  const ratio = rows[1]!.requestsPerSecond / rows[0]!.requestsPerSecond;
  // every 200 the client read is one ledger row (samples, warm-up, rounds); a request answered
  // after autocannon stopped reading (at most one per connection and run) is charged but unread
  const answered = samples.length + warmUps[1]!.ok + rounds[1]!.reduce((n, r) => n + r.ok, 0);
  const unreadBound = CONNECTIONS * (ROUNDS + 1);
  if (ledgerRows < answered || ledgerRows > answered + unreadBound) {
    throw new Error(`the service's 200s (${answered}) and its search charges (${ledgerRows}) disagree beyond ${unreadBound} unread answers`);
  }
  return {
    workload: 'HTTP load, loopback',
    params: {
      venues: venues.length,
      data: DATA,
      connections: CONNECTIONS,
      secondsPerRoute: SECONDS,
      rounds: ROUNDS,
      request: 'POST /v1/search/ POINT 1 km, limit 20',
      bodyBytes: sampleBytes,
      serviceMeanBodyBytes: meanServiceBytes,
    },
    timings: [],
    table: {
      header: ['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
      rows: rows.map((r) => [r.name, String(r.requestsPerSecond), String(r.p50Ms), String(r.p99Ms), String(r.non2xx), String(r.errors)]),
      data: rows,
    },
    checks: { 'service 200s read <= search charges <= 200s + unread in-flight answers': `${answered} <= ${ledgerRows} <= ${answered + unreadBound}` },
    figures: {
      'service / bare throughput (goal >= 0.5)': ratio,
      'median of the per-round ratios': median(roundRatios),
      'lowest per-round ratio': Math.min(...roundRatios),
      'searches charged in the ledger': ledgerRows,
    },
  };
}
