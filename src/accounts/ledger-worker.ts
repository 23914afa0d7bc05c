/**
 * The ledger worker thread (started by ledger-thread.ts for a file store): owns its own
 * `synchronous=FULL` connection to the accounts file and runs the charge batches of
 * ledger-ops.ts for the main thread, and its refunds. Messages in: `{ id, requests }` (requests
 * as a JSON string: cheaper to pass than a structured clone of many small objects), `{ id,
 * refund }` (one RefundRequest, JSON) or `{ close: true }`; out: `{ id, results }` (JSON: the
 * batch's results, or the refund's as an array of one) after the transaction committed, `{ id, error }`
 * after it rolled back, or `{ id, busy }` when another connection held the file's write lock
 * past `lockWaitMs` (nothing was written: the main thread decides whether to try again, after
 * checking that the batch's clients are still there; ledger-thread.ts). Running here, a
 * commit's fsync blocks this thread only, never the event loop that serves requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ChargeRequest, RefundRequest } from './accounts-store.js';
import { openLedgerConnection, prepareChargeBatch, prepareRefund } from './ledger-ops.js';

export interface LedgerWorkerData {
  readonly path: string;
  /** How long one attempt waits for another connection's write lock, ms (SQLite's busy_timeout). */
  readonly lockWaitMs: number;
}

export type LedgerRequest = { readonly id: number; readonly requests: string } | { readonly id: number; readonly refund: string } | { readonly close: true };

/** `code`: the error's own code (better-sqlite3's `SQLITE_BUSY`, Node's system codes), which isAccountsUnavailable reads. */
export type LedgerReply =
  | { readonly id: number; readonly results: string }
  | { readonly id: number; readonly error: string; readonly code?: string }
  /** `error`: SQLite's own words, thrown by the main thread if it stops trying. */
  | { readonly id: number; readonly busy: true; readonly error: string; readonly code: string };

const port = parentPort;
if (port === null) throw new Error('ledger-worker.ts runs as a worker thread only');
const { path, lockWaitMs } = workerData as LedgerWorkerData;
const ledgerDb = openLedgerConnection(path, lockWaitMs);
const chargeBatch = prepareChargeBatch(ledgerDb);
const refund = prepareRefund(ledgerDb);

port.on('message', (message: LedgerRequest) => {
  if ('close' in message) {
    ledgerDb.close();
    port.close();
    return;
  }
  let reply: LedgerReply;
  try {
    const results = 'refund' in message ? [refund(JSON.parse(message.refund) as RefundRequest)] : chargeBatch(JSON.parse(message.requests) as ChargeRequest[]);
    reply = { id: message.id, results: JSON.stringify(results) };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    // the write lock was held elsewhere past lockWaitMs (met at BEGIN IMMEDIATE; the batch rolled back whole): nothing written
    if (code === 'SQLITE_BUSY') reply = { id: message.id, busy: true, error, code };
    else reply = { id: message.id, error, ...(typeof code === 'string' ? { code } : {}) };
  }
  port.postMessage(reply);
});
