/**
 * `serve --workers N`: N service processes on one port (Node's cluster: the primary accepts
 * connections and hands them to the workers in turn). The primary loads no venue data and
 * serves nothing; it starts the workers, prints where they serve once every one listens,
 * replaces a worker that dies, and on SIGINT/SIGTERM stops them all (each finishes its
 * requests in flight) before exiting. A worker that loses its primary exits (cluster's rule).
 *
 * Billing and limits stay exact across workers because each worker's store is a client of
 * the one accounts database (SQLite file locks, or PostgreSQL transactions), exactly as
 * separate machines would be.
 */
import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once its server listens. */
export interface ListeningMessage {
  readonly type: 'venue-search:listening';
  readonly port: number;
}

function isListening(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'venue-search:listening';
}

/** In a worker: tells the primary the server listens on `port`. */
export function reportListening(port: number): void {
  const message: ListeningMessage = { type: 'venue-search:listening', port };
  process.send?.(message);
}

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/** Whether this process is the first worker of `serve --workers N` (cluster worker ids start at 1). */
export function isFirstClusterWorker(): boolean {
  return cluster.worker?.id === 1;
}

/** A worker exited before it listened; it has printed why (a bad data file, a busy port). */
export class WorkerStartError extends Error {
  override readonly name = 'WorkerStartError';
  constructor(readonly exitCode: number) {
    super(`a worker exited with code ${exitCode} before listening`);
  }
}

/** Forks one worker; resolves with its port once it listens, rejects if it exits first. */
function startWorker(): Promise<number> {
  const worker = cluster.fork();
  return new Promise((resolve, reject) => {
    let listening = false;
    worker.on('message', (message: unknown) => {
      if (!isListening(message)) return;
      listening = true;
      resolve(message.port);
    });
    worker.once('exit', (code) => {
      if (!listening) reject(new WorkerStartError(code ?? 1));
    });
  });
}

/**
 * Runs the primary: starts one worker, and the other `workers - 1` once it listens (so a bad
 * data file or a busy port is reported once, by that first worker, and ends the command with
 * its exit code: WorkerStartError); resolves with the port once all listen, then supervises
 * them until a signal stops everything.
 */
export async function runPrimary(workers: number, log: (line: string) => void): Promise<number> {
  let stopping = false;
  const fork = (): Worker => cluster.fork();
  const port = await startWorker();
  await Promise.all(Array.from({ length: workers - 1 }, startWorker));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log(`venue-search: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    fork();
  });
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    // what a single process says (its workers say nothing: isClusterWorker)
    log(`venue-search: ${signal}: closing ${alive.length} worker process${alive.length === 1 ? '' : 'es'} (requests in flight are answered first)`);
    let left = alive.length;
    if (left === 0) process.exit(0);
    for (const worker of alive) {
      worker.once('exit', () => {
        if (--left === 0) process.exit(0);
      });
      worker.process.kill('SIGTERM');
    }
  };
  // `on`: a repeated signal while the workers drain is ignored (stop() runs once), not Node's
  // default, which would end the primary and with it every worker (cluster's rule)
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return port;
}
