/**
 * `serve --engine-threads 2`: the engine runs on two threads over one shared copy of the
 * data (src/service/engine-pool.ts). Oracle: a plain `serve` over the same fixtures (the
 * engine on the main thread). Both are real processes; every answer, errors included, must
 * be byte-identical, and the threaded server bills each answered request once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { startServe } from '../support/serve-process.js';
import { seededRandom } from '../../scripts/fixtures/random.js';
import { randomPreferences } from '../search/oracle-queries.js';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-threads-'));
const children: ChildProcess[] = [];
let plain: { base: string; key: string };
let threaded: { base: string; key: string; output: () => string };

function serve(db: string, extra: string[]) {
  return startServe(process.execPath, [CLI_MAIN, 'serve', '--data', 'fixtures/venues.ndjson', '--dev', '--port', '0', '--db', join(tmp, db), '--workers', '1', ...extra], '.');
}

beforeAll(async () => {
  const [a, b] = await Promise.all([serve('plain.sqlite', []), serve('threads.sqlite', ['--engine-threads', '2'])]);
  children.push(a.child, b.child);
  plain = a;
  threaded = b;
}, 120_000);
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

async function ask(server: { base: string; key: string }, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'API-Key': server.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.text() };
}

describe('serve --engine-threads 2', () => {
  it('reports the venues loaded into the threads, as serve without threads does', () => {
    const venues = readFileSync('fixtures/venues.ndjson', 'utf8').split('\n').filter((line) => line.trim() !== '').length;
    expect(threaded.output()).toContain(`venue-search: loaded ${venues} venues from fixtures/venues.ndjson into 2 engine threads in `);
  });

  it('answers searches, finds, details and engine errors exactly as the engine on the main thread', async () => {
    const { venues } = await readVenues('fixtures/venues.ndjson');
    const rand = seededRandom(3);
    const requests: [string, unknown?][] = [];
    const vocabulary = JSON.parse((await ask(plain, '/v1/vocabulary')).body) as Parameters<typeof randomPreferences>[1];
    const now = Date.UTC(2026, 10, 21, 19);
    for (let i = 0; i < 30; i++) {
      const v = venues[Math.floor(rand() * venues.length)]!;
      const [lat, lon] = v.location.coordinates; // the interface order
      // opening state at a fixed instant, so both servers evaluate the same hours
      requests.push([`/v1/search/?limit=10`, { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 300 + Math.floor(rand() * 2000) }, preferences: { openingConditions: { state: 'OPEN', atTime: '2026-11-21T19:00:00Z' } } }]);
      // preferences scored with the term and vibe bits the threads share (atTime fixes the instant)
      const prefs = randomPreferences(rand, vocabulary, now);
      prefs.openingConditions = { state: 'OPEN', atTime: '2026-11-21T19:00:00Z' };
      requests.push([`/v1/search/?limit=10`, { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 500 + Math.floor(rand() * 2000) }, preferences: prefs }]);
      requests.push([`/v1/establishments/advanced/${encodeURIComponent(v.id)}`]);
      requests.push([`/v1/find?q=${encodeURIComponent(v.name.split(' ')[0]!)}`]);
    }
    requests.push(['/v1/establishments/basic/no-such-venue']);
    requests.push(['/v1/search/', { locations: [{ lat: 91, lon: 0 }], mode: { mode: 'POINT', maxDistance: 1000 } }]);
    requests.push(['/v1/vocabulary']);
    // The dev key's plan allows 100 requests per second: at most one pair every 12 ms keeps
    // both servers under it, so a 429 from either would be a real difference.
    let ok = 0;
    for (const [path, body] of requests) {
      const paced = delay(12);
      const [want, got] = await Promise.all([ask(plain, path, body), ask(threaded, path, body)]);
      await paced;
      expect({ path, ...got }).toEqual({ path, ...want });
      if (got.status === 200) ok++;
    }
    expect(ok).toBeGreaterThan(110);
    // billing through the threads: one charge per answered venue request
    const charged = requests.filter(([p]) => !p.startsWith('/v1/vocabulary')).length - 2;
    const balances = JSON.parse((await ask(threaded, '/v1/business/balances')).body) as { usage: Record<string, { requests: number }> };
    expect(Object.values(balances.usage).reduce((n, u) => n + u.requests, 0)).toBe(charged);
  }, 120_000);
});
