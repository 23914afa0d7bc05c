/**
 * Check, serve, charge: how a billable request is answered.
 *
 * 1. Pre-check the balance (AccountsStore.precheckBalance: possibly from a mirror that may be
 *    too high, never too low); if it cannot cover the price, refuse without producing.
 * 2. Produce the answer (the engine call, in this thread or an engine thread, and its
 *    serialisation). An error thrown here (a bad request, an unknown venue, a serialisation
 *    fault, an engine thread that died) ends the request: nothing is charged.
 * 3. Charge in one transaction that debits only if the balance still covers the price and
 *    writes one ledger row under the request's id (a server-made UUID, sent back as the
 *    `Request-Id` header, so a client can match a response to its ledger row).
 * 4. Only if the charge committed may the answer be sent; otherwise it is refused and dropped.
 *
 * So an answered request has exactly one committed ledger row, the balance never goes
 * negative, and concurrency cannot overspend: other requests may interleave between steps 1
 * and 3 (other processes, or an async store), but the conditional debit in step 3 is the
 * single point of decision. The charge carries a deadline (ChargeRequest.deadlineMs, before
 * the connection's idle timeout closes it): a database that gets to it later (a lock held
 * long, a pooler queueing while its server is down) makes no charge (audit 61c). A crash after step 3 but before the reply leaves a charge for an
 * unanswered request, as does a database connection that broke during step 3 when the
 * database cannot be asked afterwards (ChargeOutcomeUnknownError, a 500 that says so); it
 * can never leave an answered request uncharged or charged twice.
 */
import type { AccountsStore, ChargeRequest } from './accounts-store.js';

/** A charge without its instant: `chargedAnswer` takes that from its clock at step 3. */
export type ChargedRequest = Omit<ChargeRequest, 'nowMs'>;

export type ChargedAnswer<T> =
  | { readonly served: true; readonly answer: T }
  /** Not served, not charged: the balance (micro-GBP) cannot cover `costMicros`. */
  | { readonly served: false; readonly reason: 'insufficient_balance'; readonly costMicros: number; readonly balanceMicros: number }
  /** Not served, not charged: the charge's deadline passed. */
  | { readonly served: false; readonly reason: 'too_late'; readonly costMicros: number }
  /** Not served, not charged: the client left before the charge was made. */
  | { readonly served: false; readonly reason: 'client_gone'; readonly costMicros: number };

/**
 * Steps 1-3; the caller sends `answer` only when `served`. `clock`: ms since the epoch, for
 * the ledger row. `deliverable`: whether the answer can still reach the client, asked once the
 * answer is made, just before the charge, and by the store while the charge waits for the
 * database (the SQLite file's write lock held elsewhere: ledger-thread.ts). A client gone by
 * then is not charged; one that leaves during the last short wait for the lock or during the
 * commit still is, and the caller refunds it once it finds the connection closed
 * (AccountsStore.refund; billing.ts); a crash between the commit and the refund leaves the
 * charge, as above. `turn`: awaited once the answer is made,
 * before that check, for the answer's turn to be sent (an HTTP answer pipelined behind others
 * on its connection waits for them: billing.ts); it resolves with the charge's deadline from
 * then on, or undefined to keep `request.deadlineMs`.
 */
export async function chargedAnswer<T>(
  accounts: AccountsStore,
  request: ChargedRequest,
  clock: () => number,
  produce: () => T | Promise<T>,
  deliverable: () => boolean = () => true,
  turn: () => Promise<number | undefined> = () => Promise.resolve(undefined),
): Promise<ChargedAnswer<T>> {
  const { accountId, costMicros } = request;
  // a client already gone costs no database work (nor the answer): also a handler that starts once the service is closing
  if (!deliverable()) return { served: false, reason: 'client_gone', costMicros };
  const precheck = await accounts.precheckBalance(accountId, costMicros);
  if (!precheck.covers) return { served: false, reason: 'insufficient_balance', costMicros, balanceMicros: precheck.balanceMicros };
  const answer = await produce();
  const deadlineMs = await turn();
  // one turn of the event loop first: a close read in this turn's I/O (a FIN sent right after
  // the request) has then been seen
  await new Promise(setImmediate);
  if (!deliverable()) return { served: false, reason: 'client_gone', costMicros };
  const charge = await accounts.charge({ ...request, ...(deadlineMs === undefined ? {} : { deadlineMs }), nowMs: clock() }, { deliverable });
  if (!charge.charged && charge.reason === 'client_gone') return { served: false, reason: 'client_gone', costMicros };
  if (!charge.charged && charge.reason === 'too_late') return { served: false, reason: 'too_late', costMicros };
  if (!charge.charged) return { served: false, reason: 'insufficient_balance', costMicros, balanceMicros: charge.balanceMicros };
  return { served: true, answer };
}
