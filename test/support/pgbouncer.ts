/**
 * A real PgBouncer (Debian's `pgbouncer` package) in transaction mode in front of a test
 * PostgreSQL: the pooler docs/deploy.md recommends beyond one database's write rate. Trust
 * authentication (`auth_type = any`, every client logged in as the database URL's user), a
 * free loopback port, run as the `postgres` user under root (PgBouncer refuses to run as
 * root); stopped and deleted by `stop()`.
 */
import { chownSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, serverUser, startDatabaseProcess } from './database-process.js';

export const PGBOUNCER = '/usr/sbin/pgbouncer';
export const pgbouncerAvailable = existsSync(PGBOUNCER);

export interface Pooler {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` through the pooler. */
  readonly url: string;
  stop(): Promise<void>;
}

/** PgBouncer in transaction mode for the database at `databaseUrl` (a test server's), with `settings` added to its [pgbouncer] section. */
export async function startPgBouncer(databaseUrl: string, settings: Readonly<Record<string, string>> = {}): Promise<Pooler> {
  const port = await freePort();
  const { dir, ini, url } = pgBouncerConfig(databaseUrl, port, settings);
  const pooler = await startDatabaseProcess('PgBouncer', PGBOUNCER, [ini], { dir, url, timeoutMs: 20_000 });
  return { url, stop: () => pooler.stop('SIGINT', 5000) };
}

/**
 * A new folder (owned by the server user) holding the configuration of a PgBouncer in
 * transaction mode on `port` for the database at `databaseUrl`; its log and pid files go there too.
 */
export function pgBouncerConfig(databaseUrl: string, port: number, settings: Readonly<Record<string, string>> = {}): { dir: string; ini: string; url: string } {
  const target = new URL(databaseUrl);
  const database = target.pathname.slice(1);
  const dir = mkdtempSync(join(tmpdir(), 'venue-search-pgbouncer-'));
  const user = serverUser();
  if ('uid' in user) chownSync(dir, user.uid, user.gid);
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port} dbname=${database} user=${target.username || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 100',
      'default_pool_size = 10',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      ...Object.entries(settings).map(([name, value]) => `${name} = ${value}`),
      '',
    ].join('\n'),
  );
  if ('uid' in user) chownSync(ini, user.uid, user.gid);
  return { dir, ini, url: `postgres://postgres@127.0.0.1:${port}/${database}` };
}
