/**
 * Each account's balance as last seen by this process, for the advisory pre-check before a
 * billable request (AccountsStore.precheckBalance). The mirror may be too high (another
 * process spent money since) but never decides alone: the conditional debit of `charge`
 * refuses what the balance cannot pay, and a mirror that says "too low" is re-read from the
 * database before a request is refused, so an out-of-date mirror never refuses a request the
 * balance covers. One class for every store.
 */
import type { BalancePrecheck, ChargeResult } from './accounts-store.js';

/** Most accounts mirrored; past that the mirror is emptied and refills. */
const MAX_MIRRORED_BALANCES = 100_000;

export class BalanceMirror {
  private readonly balances = new Map<string, number>();

  set(accountId: string, balanceMicros: number): void {
    if (this.balances.size >= MAX_MIRRORED_BALANCES && !this.balances.has(accountId)) this.balances.clear();
    this.balances.set(accountId, balanceMicros);
  }

  /** Records a charge's outcome (the balance it saw), except for an unknown account or a charge not attempted. */
  afterCharge(accountId: string, result: ChargeResult): void {
    if (result.charged || (result.reason !== 'unknown_account' && result.reason !== 'client_gone')) this.set(accountId, result.balanceMicros);
  }

  /** The pre-check: from the mirror when it covers the cost, else from `read` (the database). */
  async precheck(accountId: string, costMicros: number, read: (accountId: string) => Promise<number | undefined>): Promise<BalancePrecheck> {
    const mirrored = this.balances.get(accountId);
    if (mirrored !== undefined && mirrored >= costMicros) return { covers: true, balanceMicros: mirrored };
    const balance = (await read(accountId)) ?? 0;
    return { covers: balance >= costMicros, balanceMicros: balance };
  }
}
