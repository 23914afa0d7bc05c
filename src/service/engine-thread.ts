/**
 * An engine thread of the service (engine-pool.ts): restores an engine from the shared
 * snapshot it was started with (views of shared memory, no copy: src/snapshot/shared-snapshot.ts),
 * then answers one message per engine call. An engine error goes back as its code, message
 * and parameter, so the main thread raises the same VenueSearchError; anything else as a message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isVenueSearchError } from '../errors.js';
import { UnknownPlaceError } from '../places/unknown-place-error.js';
import { restoreShared, type SharedSnapshot } from '../snapshot/shared-snapshot.js';
import { ENGINE_THREAD_RECORD_CACHE, type EngineCall, type EngineReply } from './engine-pool.js';

const port = parentPort!;
// the gazetteer is read at this thread's first find naming a place (WarmOptions.gazetteer): a
// copy per thread, 15 to 20 MiB, would otherwise be held by threads that may never need it
const engine = restoreShared((workerData as { snapshot: SharedSnapshot }).snapshot, { recordCacheSize: ENGINE_THREAD_RECORD_CACHE }).warm({ gazetteer: false });

function answer(call: EngineCall): unknown {
  switch (call.method) {
    case 'search':
      return engine.search(call.args[0], call.args[1] as { limit?: number; offset?: number; now?: number });
    case 'find':
      return engine.find(call.args[0] as Parameters<typeof engine.find>[0], call.args[1] as { now?: number });
    case 'basic':
    case 'advanced':
      return engine[call.method](call.args[0] as string, call.args[1] as { now?: number });
    case 'menus':
      return engine.menus(call.args[0] as string);
    case 'vocabulary':
      return engine.vocabulary();
    case 'venueExtent':
      return engine.venueExtent();
  }
}

port.on('message', (call: EngineCall) => {
  let reply: EngineReply;
  try {
    reply = { id: call.id, value: answer(call) };
  } catch (err) {
    reply = isVenueSearchError(err)
      ? { id: call.id, error: { code: err.code, message: err.message, param: err.param, ...(err instanceof UnknownPlaceError ? { value: String(err.value), suggestions: [...err.suggestions] } : {}) } }
      : { id: call.id, error: { message: err instanceof Error ? err.message : String(err) } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: engine.size });
