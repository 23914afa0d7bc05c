import type Pg from 'pg';
import { loadDatabaseClient } from './database-clients.js';

/**
 * The pg module. In a module of its own, so that pg's declarations are read only by code that
 * uses the PostgreSQL store (`venue-search-engine/postgres`), not by `venue-search-engine/http`
 * (whose declarations reach database-clients.d.ts): audit 70b F1.
 */
export function pgModule(): typeof Pg {
  return loadDatabaseClient('pg', 'a PostgreSQL accounts database') as typeof Pg;
}
