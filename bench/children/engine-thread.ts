/**
 * One engine thread of the shared-memory bench (bench/workloads/shared-engines.ts): restores
 * an engine from the shared snapshot it is given (or reads the file itself: a copy of its
 * own, as a separate process would hold), warms it, answers `searches` seeded POINT
 * searches and finds, then tells its parent it is ready (with the milliseconds the queries
 * took) and waits to be terminated. Its decoded-record cache is `recordCacheSize` entries
 * (serve's engine threads: ENGINE_THREAD_RECORD_CACHE).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Engine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { restoreShared, type SharedSnapshot } from '../../src/snapshot/shared-snapshot.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

const data = workerData as { shared?: SharedSnapshot; path: string; searches: number; recordCacheSize: number };
const options = { recordCacheSize: data.recordCacheSize };
const engine: Engine = data.shared !== undefined ? restoreShared(data.shared, options) : readSnapshot(data.path, options);
// as serve's engine threads warm (src/service/engine-thread.ts): the gazetteer is read at a
// thread's first find naming a place, and these finds name none
engine.warm({ gazetteer: false });
const rand = seededRandom(11);
let answered = 0;
const started = performance.now();
for (let i = 0; i < data.searches; i++) {
  // centres inside Great Britain, where the bench venues are
  const lat = 50.5 + rand() * 4.5;
  const lon = -3.5 + rand() * 4;
  const page = engine.search({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 2000 } }, { limit: 20, now: Date.UTC(2026, 10, 21, 18) }) as { establishments?: unknown[] };
  answered += page.establishments?.length ?? 0;
  engine.find({ q: 'the', lat, lon }, { now: Date.UTC(2026, 10, 21, 18) });
}
// A listener keeps the thread alive until the parent terminates it, and holds the engine: a
// module-level binding no closure captures may be collected once the module has run (V8 keeps
// such bindings as locals), which would leave the engine's own memory out of the measurement.
parentPort!.on('message', () => parentPort!.postMessage({ size: engine.size }));
parentPort!.postMessage({ ready: true, answered, size: engine.size, queryMs: performance.now() - started });
