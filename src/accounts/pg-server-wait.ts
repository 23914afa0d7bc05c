/**
 * How long the PostgreSQL store waits to reach a database server, and the statements that
 * wait no longer. A connection pooler (PgBouncer) whose server is down accepts a pooled
 * connection's statement and queues it until it reaches a server, up to its
 * `query_wait_timeout` (120 s by default): with PostgreSQL stopped behind a running PgBouncer
 * for longer than its `server_login_retry` (15 s), a keyed request waited until the HTTP idle
 * timeout (30 s) closed its connection with no answer, and `serve --db` sat silent for more
 * than 85 s (audit 73a F1). So the statements that take no lock and start a request's work,
 * a transaction's BEGIN, a key lookup, a balance read and the probe at open, wait at most
 * SERVER_WAIT_MS: past it the request is a 503 "database out of reach"
 * (isAccountsUnavailable) and the connection is dropped, never reused (its statement may
 * still be queued), which the pooler takes as the client leaving. A charge's statement is not
 * bounded here: it may wait for the account's row lock, and its own deadline keeps it from
 * debiting late (ChargeRequest.deadlineMs).
 */
import type pg from 'pg';
import { ServerWaitTimeoutError } from './accounts-unavailable.js';

/** The longest wait for a connection (node-postgres's connectionTimeoutMillis) and for a server behind it, ms. */
export const SERVER_WAIT_MS = 5000;

/** node-postgres's error for a query past its `query_timeout` (pg/lib/client.js). */
const READ_TIMEOUT = 'Query read timeout';

/**
 * `text` run on `on` (a pool, or a client checked out of it), rejected with
 * ServerWaitTimeoutError once SERVER_WAIT_MS pass without its answer. Only for a statement
 * that waits for no lock: its time is the wait for a server. A client checked out for it
 * must then be released with the error (dropped): its statement may still be queued.
 */
export async function withinServerWait<R extends pg.QueryResultRow>(on: pg.Pool | pg.PoolClient, text: string, values?: readonly unknown[]): Promise<pg.QueryResult<R>> {
  try {
    return await on.query<R>({ text, values: values as unknown[] | undefined, query_timeout: SERVER_WAIT_MS } as pg.QueryConfig);
  } catch (err) {
    if (err instanceof Error && err.message === READ_TIMEOUT) throw new ServerWaitTimeoutError(SERVER_WAIT_MS, err);
    throw err;
  }
}
