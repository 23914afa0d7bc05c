/**
 * A real PgBouncer (Debian's `pgbouncer` package) in transaction mode in front of a test
 * PostgreSQL: the pooler docs/deploy.md recommends beyond one database's write rate. Trust
 * authentication (`auth_type = any`, every client logged in as the database URL's user), a free loopback port, run
 * as the `postgres` user under root (PgBouncer refuses to run as root); stopped and deleted
 * by `stop()`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PGBOUNCER = '/usr/sbin/pgbouncer';
export const pgbouncerAvailable = existsSync(PGBOUNCER);

export interface Pooler {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` through the pooler. */
  readonly url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** PgBouncer in transaction mode for the database at `databaseUrl` (a test server's). */
export async function startPgBouncer(databaseUrl: string): Promise<Pooler> {
  const target = new URL(databaseUrl);
  const database = target.pathname.slice(1);
  const dir = mkdtempSync(join(tmpdir(), 'venue-search-pgbouncer-'));
  const root = process.getuid?.() === 0;
  const user = root ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) } : {};
  if ('uid' in user) chownSync(dir, user.uid!, user.gid!);
  const port = await freePort();
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
      '',
    ].join('\n'),
  );
  if ('uid' in user) chownSync(ini, user.uid!, user.gid!);
  const child: ChildProcess = spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir, ...user });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + String(chunk)).slice(-4000);
  });
  const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PgBouncer did not start on port ${port}: ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop(): Promise<void> {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
