/**
 * A snapshot in shared memory (src/snapshot/shared-snapshot.ts): engines on two worker
 * threads restore one SharedArrayBuffer copy and answer exactly as an engine built from the
 * same records (createEngine over the NDJSON, another code path) does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { siblingModule, startWorker } from '../../src/threads/start-worker.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { restoreShared, shareSnapshot } from '../../src/snapshot/shared-snapshot.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

const dir = mkdtempSync(join(tmpdir(), 'shared-snapshot-'));
const workers: Worker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
  rmSync(dir, { recursive: true, force: true });
});

describe('shareSnapshot / restoreShared', () => {
  it('two threads restore one shared copy (the bytes and the kd-tree in SharedArrayBuffers) and answer 60 searches like the records engine', async () => {
    const { venues } = await readVenues('fixtures/venues.ndjson');
    const oracle = createEngine(venues);
    const path = join(dir, 'fixtures.vsnap');
    writeSnapshot(oracle, path);
    const shared = shareSnapshot(readFileSync(path), path);
    expect(shared.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.tree).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.tree.byteLength).toBeLessThan(shared.bytes.byteLength);
    // in this thread too
    expect(restoreShared(shared).size).toBe(venues.length);

    const threadUrl = siblingModule(new URL('./support/', import.meta.url).href + 'x.ts', 'shared-engine-thread');
    const started = [0, 1].map(() => {
      const worker = startWorker(threadUrl, { shared });
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
        w.once('message', resolve);
        w.once('error', reject);
        w.postMessage({ body, now });
      });
    const rand = seededRandom(5);
    const now = Date.UTC(2026, 10, 21, 19);
    let nonEmpty = 0;
    for (let i = 0; i < 60; i++) {
      const [lat, lon] = venues[Math.floor(rand() * venues.length)]!.location.coordinates; // the interface order
      const body = { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 500 + Math.floor(rand() * 3000) } };
      const expected = JSON.stringify(oracle.search(body, { limit: 20, now }));
      expect(await ask(started[i % 2]!, body, now)).toBe(expected);
      if ((JSON.parse(expected) as { establishments: unknown[] }).establishments.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(30);
  });

  it('refuses a shared tree that is not the snapshot\'s', () => {
    const path = join(dir, 'fixtures.vsnap');
    const shared = shareSnapshot(readFileSync(path), path);
    expect(() => restoreShared({ ...shared, tree: new SharedArrayBuffer(16) })).toThrow(/the shared kd-tree is 16 bytes, its section \d+/);
  });
});
