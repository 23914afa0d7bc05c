/**
 * What the tests' real database programs (PostgreSQL, PgBouncer) share: a free loopback port,
 * the `postgres` user to run them as under root (both refuse to run as root), a wait until
 * the program answers a query, and a stop that removes its folder.
 */
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';

export function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env['VENUE_SEARCH_TEST_PORTS'] ?? '');
  if (range !== null) return freePortIn(Number(range[1]), Number(range[2]));
  return listenable(0);
}

/** Ports already handed out by this process (a program not yet listening on one would be given it again). */
const handedOut = new Set<number>();

/** A free port of `first`-`last` (VENUE_SEARCH_TEST_PORTS, for a machine whose test runs share ports by range). */
async function freePortIn(first: number, last: number): Promise<number> {
  for (let port = first; port <= last; port++) {
    if (handedOut.has(port)) continue;
    const free = await listenable(port).then(
      () => true,
      () => false,
    );
    if (!free) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in VENUE_SEARCH_TEST_PORTS=${first}-${last}`);
}

/** Listens on `port` (0: any) on loopback, closes, and says which port it was. */
function listenable(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Under root, the `postgres` user's ids, for spawning the programs as that user. */
export function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/** A spawned database program. */
export interface DatabaseProcess {
  /** Sends `signal`, waits up to `waitMs` for the exit (then SIGKILL), and removes the folder. */
  stop(signal: NodeJS.Signals, waitMs: number): Promise<void>;
}

/**
 * Spawns `program` (directly, not through su/runuser, so that a stop's signal reaches it) and
 * waits until `url` answers `SELECT 1`; if the program exits or `timeoutMs` passes first, it
 * is killed, its folder removed, and the error names `what` and its last output.
 */
export async function startDatabaseProcess(
  what: string,
  program: string,
  args: readonly string[],
  options: { readonly dir: string; readonly url: string; readonly timeoutMs: number },
): Promise<DatabaseProcess> {
  const { dir, url } = options;
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir, ...serverUser() });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + String(chunk)).slice(-4000);
  });
  const deadline = Date.now() + options.timeoutMs;
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
        throw new Error(`${what} did not start (${url}): ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    async stop(signal, waitMs) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, waitMs))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
