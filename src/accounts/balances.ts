/** An account's balance and usage, as the balance routes answer them (interface section 9). */
import type { AccountsStore, TimeRange, Usage } from './accounts-store.js';
import type { PlanName } from './plans.js';

export interface Balances {
  readonly accountId: string;
  readonly plan: PlanName;
  readonly currency: 'GBP';
  readonly balanceMicros: number;
  /** Charged requests and their cost by kind, since the account opened or over `range`. */
  readonly usage: Usage;
}

/** Undefined when the account no longer exists. */
export async function balancesOf(accounts: AccountsStore, accountId: string, range?: TimeRange): Promise<Balances | undefined> {
  const account = await accounts.getAccount(accountId);
  if (account === undefined) return undefined;
  const usage = await accounts.usage(accountId, range);
  return { accountId, plan: account.plan, currency: 'GBP', balanceMicros: account.balanceMicros, usage };
}
