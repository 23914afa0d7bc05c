/**
 * A worker thread for test/snapshot/shared-snapshot.test.ts: restores an engine from the
 * shared snapshot it is given and answers the searches it is sent (one message each).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { restoreShared, type SharedSnapshot } from '../../../src/snapshot/shared-snapshot.js';

const { shared } = workerData as { shared: SharedSnapshot };
const engine = restoreShared(shared);
parentPort!.on('message', (message: { body: unknown; now: number }) => {
  parentPort!.postMessage(JSON.stringify(engine.search(message.body, { limit: 20, now: message.now })));
});
parentPort!.postMessage({ ready: engine.size, shared: shared.bytes.buffer instanceof SharedArrayBuffer });
