/**
 * Whether an error from an accounts store means its database cannot be reached or cannot take
 * requests now (a server stopped or restarting, a network cut, a pooler that cannot log in, a
 * full connection table, a busy SQLite file past its wait): the request can be retried, and
 * it was not charged (a charge whose outcome is unknown is ChargeOutcomeUnknownError, caught
 * before this). Read from the error's own `code`, or its cause's: Node's system errors, and
 * PostgreSQL's SQLSTATE classes 08 (connection exception), 57P (operator intervention) and
 * 53300 (too many connections).
 */
export function isAccountsUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ServerWaitTimeoutError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || code.startsWith('SQLITE_BUSY_'))) return true;
    // node-postgres's own words for a connection it lost or could not make in time, and for a
    // query on a pooled connection that died before it (between pool.connect() and BEGIN, or
    // between a transaction's statements: a failover, pg_terminate_backend; audit 64b 3)
    if (typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)/.test(message)) return true;
  }
  return false;
}

/** Node's system errors for a database out of reach, PostgreSQL's 53300, SQLite's busy file (and its extended codes, SQLITE_BUSY_*). */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', '53300', 'SQLITE_BUSY']);

/**
 * A statement that waits for no lock got no answer within the store's wait for a server
 * (pg-server-wait.ts): a pooler holding it while its server is down, or a server that does
 * not answer. The database is out of reach; nothing was written.
 */
export class ServerWaitTimeoutError extends Error {
  override readonly name = 'ServerWaitTimeoutError';

  constructor(waitedMs: number, cause: Error) {
    super(`no database server answered within ${waitedMs / 1000} s (the server hangs, or a connection pooler in front of it holds statements in its queue while its server is down)`, { cause });
  }
}
