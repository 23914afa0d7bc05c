/**
 * A snapshot in shared memory (src/snapshot/shared-snapshot.ts): engines on two worker
 * threads (with serve's heap limits) restore one SharedArrayBuffer copy, the search's derived
 * columns included, and answer exactly as an engine built from the same records (createEngine
 * over the NDJSON, another code path) does, with and without preferences.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { siblingModule, startWorker } from '../../src/threads/start-worker.js';
import { ENGINE_THREAD_LIMITS, ENGINE_THREAD_RECORD_CACHE } from '../../src/service/engine-pool.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { restoreShared, shareSnapshot } from '../../src/snapshot/shared-snapshot.js';
import { seededRandom } from '../../scripts/fixtures/random.js';
import { randomPreferences } from '../search/oracle-queries.js';

const dir = mkdtempSync(join(tmpdir(), 'shared-snapshot-'));
const workers: Worker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
  rmSync(dir, { recursive: true, force: true });
});

describe('shareSnapshot / restoreShared', () => {
  it('two threads restore one shared copy (the bytes, the kd-tree and the search columns in SharedArrayBuffers) and answer 120 searches like the records engine', async () => {
    const { venues } = await readVenues('fixtures/venues.ndjson');
    const oracle = createEngine(venues);
    const path = join(dir, 'fixtures.vsnap');
    writeSnapshot(oracle, path);
    const shared = shareSnapshot(readFileSync(path), path);
    expect(shared.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.tree).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.tree.byteLength).toBeLessThan(shared.bytes.byteLength);
    // the derived search columns, shared, equal those the records engine computes for itself
    const own = oracle.searcher().prepared();
    for (const key of ['termBits', 'vibeBits', 'occupiedCells'] as const) {
      expect(shared.search[key].buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(Array.from(shared.search[key])).toEqual(Array.from(own[key]));
    }
    expect(own.occupiedCells.some((c) => c === 1)).toBe(true);
    // in this thread too
    expect(restoreShared(shared).size).toBe(venues.length);

    const threadUrl = siblingModule(new URL('./support/', import.meta.url).href + 'x.ts', 'shared-engine-thread');
    const started = [0, 1].map(() => {
      const worker = startWorker(threadUrl, { shared }, ENGINE_THREAD_LIMITS);
      workers.push(worker);
      return worker;
    });
    const ready = await Promise.all(started.map((w) => new Promise<{ ready: number; shared: boolean }>((resolve, reject) => (w.once('message', resolve), w.once('error', reject)))));
    expect(ready).toEqual([
      { ready: venues.length, shared: true },
      { ready: venues.length, shared: true },
    ]);
    const ask = (w: Worker, body: unknown, now: number) =>
      new Promise<string>((resolve, reject) => {
        w.once('error', reject);
        w.once('message', (answer: string) => {
          w.off('error', reject);
          resolve(answer);
        });
        w.postMessage({ body, now });
      });
    const rand = seededRandom(5);
    const now = Date.UTC(2026, 10, 21, 19);
    const vocabulary = oracle.vocabulary() as unknown as Parameters<typeof randomPreferences>[1];
    let nonEmpty = 0;
    for (let i = 0; i < 120; i++) {
      const [lat, lon] = venues[Math.floor(rand() * venues.length)]!.location.coordinates; // the interface order
      // every other search asks preferences: scored with the shared term and vibe bits
      const preferences = i % 2 === 1 ? { preferences: randomPreferences(rand, vocabulary, now) } : {};
      const body = { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 500 + Math.floor(rand() * 3000) }, ...preferences };
      const expected = JSON.stringify(oracle.search(body, { limit: 20, now }));
      expect(await ask(started[i % 2]!, body, now)).toBe(expected);
      if ((JSON.parse(expected) as { establishments: unknown[] }).establishments.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(60);
  });

  it('a smaller record cache (recordCacheSize, as engine threads restore) gives every record, detail and find as the NDJSON lines and the records engine; a size that is not a power of two is refused', async () => {
    const { venues } = await readVenues('fixtures/venues.ndjson');
    const oracle = createEngine(venues);
    const path = join(dir, 'fixtures.vsnap');
    const shared = shareSnapshot(readFileSync(path), path);
    const now = Date.UTC(2026, 10, 21, 19);
    for (const recordCacheSize of [1, 64, ENGINE_THREAD_RECORD_CACHE]) {
      const engine = restoreShared(shared, { recordCacheSize });
      // two passes in two orders: hits, and entries evicted by other records of the same slot
      for (const order of [venues, [...venues].reverse()]) {
        for (const v of order) {
          const i = engine.store.indexOf(v.id);
          expect(engine.store.record(i), v.id).toEqual(v);
        }
      }
      const rand = seededRandom(9);
      for (let k = 0; k < 60; k++) {
        const v = venues[Math.floor(rand() * venues.length)]!;
        expect(engine.advanced(v.id, { now })).toEqual(oracle.advanced(v.id, { now }));
        const [lat, lon] = v.location.coordinates;
        const q = v.name.split(' ')[0]!;
        expect(engine.find({ q, lat, lon }, { now })).toEqual(oracle.find({ q, lat, lon }, { now }));
      }
    }
    for (const bad of [0, 3, 1000, 1 << 17, Number.NaN]) {
      expect(() => restoreShared(shared, { recordCacheSize: bad })).toThrow(/recordCacheSize must be a power of two from 1 to 65536; got/);
    }
  });

  it('refuses a shared tree that is not the snapshot\'s', () => {
    const path = join(dir, 'fixtures.vsnap');
    const shared = shareSnapshot(readFileSync(path), path);
    expect(() => restoreShared({ ...shared, tree: new SharedArrayBuffer(16) })).toThrow(/the shared kd-tree is 16 bytes, its section \d+/);
  });
});
