/**
 * Check, serve, charge: how a billable request is answered.
 *
 * 1. Pre-check the balance (AccountsStore.precheckBalance: possibly from a mirror that may be
 *    too high, never too low); if it cannot cover the price, 402 without running the engine.
 * 2. Run the (synchronous) engine call and serialize the response body. An engine error
 *    (400/404) or a serialization fault ends the request here: nothing is charged.
 * 3. Charge in one BEGIN IMMEDIATE transaction that debits only if the balance still covers
 *    the price and writes one ledger row under the request's id (a server-made UUID, sent
 *    back as the `Request-Id` header, so a client can match a response to its ledger row).
 * 4. Only if the charge committed is the body sent; otherwise 402 and the body is dropped.
 *    (The route handler resolves with nothing: the reply has been sent here.)
 *
 * So an answered request has exactly one committed ledger row, the balance never goes
 * negative, and concurrency cannot overspend: other requests may interleave between steps 1
 * and 3 (other processes, or an async store), but the conditional debit in step 3 is the
 * single point of decision. A crash after step 3 but before the reply leaves a charge for an
 * unanswered request; it can never leave an answered request uncharged or charged twice.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsStore } from '../accounts/accounts-store.js';
import { principalOf } from './guard.js';
import { HttpError } from './http-errors.js';
import type { BillableKind } from '../accounts/plans.js';

function insufficientBalance(costMicros: number, balanceMicros: number): HttpError {
  return new HttpError('insufficient_balance', `this request costs ${costMicros} micro-GBP but the balance is ${balanceMicros} micro-GBP; top up the account`,
  );
}

export async function serveCharged(
  accounts: AccountsStore,
  clock: () => number,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: BillableKind,
  costMicros: number,
  produce: () => unknown,
): Promise<void> {
  const { accountId } = principalOf(request);
  const precheck = await accounts.precheckBalance(accountId, costMicros);
  if (!precheck.covers) throw insufficientBalance(costMicros, precheck.balanceMicros);
  // encoded now, not after the charge: the bytes wait for the group commit off the JS heap
  // (one buffer) instead of as a string the garbage collector would copy meanwhile
  const serialized = reply.serialize(produce());
  const body = typeof serialized === 'string' ? Buffer.from(serialized, 'utf8') : serialized;
  const charge = await accounts.charge({ accountId, requestId: request.id, kind, costMicros, nowMs: clock() });
  if (!charge.charged) throw insufficientBalance(costMicros, charge.balanceMicros);
  reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}
