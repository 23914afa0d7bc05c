/**
 * A real PgBouncer (test/support/pgbouncer.ts's configuration) that a test stops and starts
 * again on the same port, as an operator restarting the pooler does: `stop()` is PgBouncer's
 * immediate shutdown (SIGTERM in 1.18: every client and server connection closed at once),
 * `start()` (a no-op while it runs) resolves once the port accepts connections again (whether or not the database
 * behind it answers). `close()` stops it for good and removes its folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort, serverUser } from '../support/database-process.js';
import { PGBOUNCER, pgBouncerConfig } from '../support/pgbouncer.js';

export interface RestartablePooler {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` through the pooler. */
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function startRestartablePgBouncer(databaseUrl: string): Promise<RestartablePooler> {
  const port = await freePort();
  const { dir, ini, url } = pgBouncerConfig(databaseUrl, port);
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (running.exitCode === null) {
      running.kill('SIGKILL');
      await exited;
    }
  };
  const start = async () => {
    if (child !== undefined && child.exitCode === null) return; // running already
    const started = spawn(PGBOUNCER, [ini], { stdio: 'ignore', cwd: dir, ...serverUser() });
    child = started;
    const deadline = Date.now() + 20_000;
    while (!(await accepts(port))) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`PgBouncer did not listen on ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // the port is handed out per test process (VENUE_SEARCH_TEST_PORTS): another file's
    // program may have taken it while this pooler was stopped; this one then fails to listen
    // and exits, and the port's answers are not its own
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (started.exitCode !== null) throw new Error(`PgBouncer exited after its restart: port ${port} taken by another program meanwhile?`);
  };
  await start();
  return {
    url,
    start,
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a TCP connection to `port` on loopback is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
