/**
 * `venue-search-engine/postgres`: the PostgreSQL accounts store, for a service on several
 * processes or machines sharing one database (docs/http.md). An entry of its own, so that its
 * declarations, typed by pg's, are read only by code that uses it; pg itself is loaded when a
 * store opens (src/accounts/pg-client.ts).
 */
export { PostgresAccountsStore, type PostgresAccountsStoreOptions } from '../accounts/postgres-accounts-store.js';
export { AccountsDatabaseError } from '../accounts/accounts-store.js';
export { MissingDatabaseClientError } from '../accounts/database-clients.js';
