/**
 * The oracle of the billing tests: an account's charges read straight from its SQLite
 * accounts file with a connection of the test's own (not through the code under test).
 */
import Database from 'better-sqlite3';

/** The Request-Ids of `accountId`'s charges (ledger rows with a negative amount), in ledger order. */
export function chargedRequestIds(dbPath: string, accountId: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT request_id FROM ledger WHERE account_id = ? AND amount_micros < 0 ORDER BY seq').all(accountId) as { request_id: string }[]).map((r) => r.request_id);
  } finally {
    db.close();
  }
}

/** The Request-Ids whose charge `accountId`'s ledger refunds (rows of kind `refund`, named `refund:<Request-Id>`), in ledger order. */
export function refundedRequestIds(dbPath: string, accountId: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare("SELECT request_id FROM ledger WHERE account_id = ? AND kind = 'refund' ORDER BY seq").all(accountId) as { request_id: string }[]).map((r) =>
      r.request_id.slice('refund:'.length),
    );
  } finally {
    db.close();
  }
}
