/**
 * A billable route's answer: check, serve, charge (chargedAnswer in
 * src/accounts/charged-answer.ts), then send the body only when the charge committed,
 * else 402. The route handler resolves with nothing: the reply has been sent here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsStore } from '../accounts/accounts-store.js';
import { chargedAnswer } from '../accounts/charged-answer.js';
import type { BillableKind } from '../accounts/plans.js';
import { principalOf } from './guard.js';
import { HttpError } from './http-errors.js';

export async function serveCharged(
  accounts: AccountsStore,
  clock: () => number,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: BillableKind,
  costMicros: number,
  produce: () => unknown | Promise<unknown>,
): Promise<void> {
  const { accountId } = principalOf(request);
  // encoded before the charge: the bytes wait for the group commit off the JS heap (one
  // buffer) instead of as a string the garbage collector would copy meanwhile
  const encode = async () => {
    const serialized = reply.serialize(await produce());
    return typeof serialized === 'string' ? Buffer.from(serialized, 'utf8') : serialized;
  };
  const result = await chargedAnswer(accounts, { accountId, requestId: request.id, kind, costMicros }, clock, encode);
  if (!result.served) {
    throw new HttpError('insufficient_balance', `this request costs ${result.costMicros} micro-GBP but the balance is ${result.balanceMicros} micro-GBP; top up the account`);
  }
  reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(result.answer);
}
