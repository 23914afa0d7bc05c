/**
 * A real PostgreSQL server for a test run: `initdb` into a fresh temporary folder, `postgres`
 * on a free loopback port, stopped (fast shutdown) and deleted by `stop()`. Uses the Debian
 * package's binaries (/usr/lib/postgresql/<version>/bin, or `PG_BIN`); PostgreSQL refuses to
 * run as root, so under root both run as the `postgres` user (spawned with its uid and gid).
 * `fsync` stays on: durability figures measured against it are real.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

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

/** Under root, the `postgres` user's ids, for spawning the server's programs as that user. */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
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
  // spawned directly (not through su/runuser), so stop()'s signal reaches the server itself
  const child: ChildProcess = spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir, ...user });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + String(chunk)).slice(-4000);
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start on port ${port}: ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
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
    async stop(): Promise<void> {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT'); // fast shutdown
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
