/**
 * A real PostgreSQL server for a test run: `initdb` into a fresh temporary folder, `postgres`
 * on a free loopback port, stopped (fast shutdown) and deleted by `stop()`. Uses the Debian
 * package's binaries (/usr/lib/postgresql/<version>/bin, or `PG_BIN`); PostgreSQL refuses to
 * run as root, so under root both run as the `postgres` user (spawned with its uid and gid).
 * `fsync` stays on: durability figures measured against it are real.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, serverUser, startDatabaseProcess } from './database-process.js';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** A new, empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

function binDir(): string {
  if (process.env['PG_BIN'] !== undefined) return process.env['PG_BIN'];
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries: install Debian\'s postgresql package, or set PG_BIN');
  return join(root, versions[0]!, 'bin');
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'venue-search-pg-'));
  const user = serverUser();
  if ('uid' in user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], { stdio: 'pipe', cwd: dir, ...user });
  const port = await freePort();
  const args = [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on', '-c', 'synchronous_commit=on'];
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const server = await startDatabaseProcess('PostgreSQL', join(bin, 'postgres'), args, { dir, url, timeoutMs: 30_000 });
  return {
    url,
    async createDatabase(name: string): Promise<string> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: () => server.stop('SIGINT', 10_000), // SIGINT: fast shutdown
  };
}
