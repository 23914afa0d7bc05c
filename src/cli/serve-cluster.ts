/**
 * `serve --workers N`: N service processes on one port (Node's cluster: the primary accepts
 * connections and hands them to the workers in turn). The primary loads no venue data and
 * serves nothing; it starts the workers, prints where they serve once every one listens,
 * replaces a worker that dies, and on SIGINT/SIGTERM stops them all (each finishes its
 * requests in flight) before exiting. A worker that loses its primary exits (cluster's rule).
 *
 * A replacement that dies before it listens (a data file emptied by a botched deploy, the
 * accounts database down) is started again after a delay doubling from 0.5 s; after
 * RESTART_LIMIT such deaths in a row (about 8 s of tries) the primary stops every worker and
 * exits 1 naming the last one's error, so that a service manager (systemd's `Restart=`) or an
 * operator acts. Until 2026-11-30 it re-forked at once, forever (audit 62b finding 2). A
 * replacement that listens resets the count. Workers' stderr passes through the primary,
 * which keeps each one's last line for that message.
 *
 * Billing and limits stay exact across workers because each worker's store is a client of
 * the one accounts database (SQLite file locks, or PostgreSQL transactions), exactly as
 * separate machines would be.
 */
import cluster, { type Worker } from 'node:cluster';
import { constants as osConstants } from 'node:os';

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
  /** The command's exit code: the worker's own, or 128 + the signal's number as a shell gives it (SIGKILL: 137). */
  readonly exitCode: number;
  /**
   * What the primary says, when the worker could not say why itself: it was killed by a
   * signal (the kernel's out-of-memory killer, a memory limit, V8's heap limit), or it exited
   * printing nothing (audit 75e F2: serve exited 1 with an empty log). Null when the worker's
   * own last line said why.
   */
  readonly said: string | null;

  constructor(code: number | null, signal: NodeJS.Signals | null, lastLine: string | undefined) {
    const exitCode = code ?? 128 + (signal !== null ? (osConstants.signals[signal] ?? 0) : 1);
    super(signal !== null ? `a worker was killed by ${signal} before listening` : `a worker exited with code ${exitCode} before listening`);
    this.exitCode = exitCode;
    this.said = workerDeathLine(signal, exitCode, lastLine);
  }
}

/** The primary's line for a first worker that died before listening (see WorkerStartError.said). */
function workerDeathLine(signal: NodeJS.Signals | null, exitCode: number, lastLine: string | undefined): string | null {
  const memory = 'see "Memory" in docs/deploy.md';
  if (signal === 'SIGKILL') return `venue-search: the first worker was killed by SIGKILL before it listened: nothing was served (a memory limit or the kernel's out-of-memory killer sends SIGKILL; ${memory})`;
  if (signal === 'SIGABRT' || /heap out of memory|Reached heap limit/.test(lastLine ?? '')) {
    return `venue-search: the first worker ran out of JavaScript heap before it listened: nothing was served (a --max-old-space-size too small for the data; ${memory})`;
  }
  if (signal !== null) return `venue-search: the first worker was killed by ${signal} before it listened: nothing was served`;
  return lastLine === undefined ? `venue-search: the first worker exited with code ${exitCode} before it listened, printing nothing: nothing was served` : null;
}

/** Replacements that die before listening, in a row, after which the primary gives up. */
export const RESTART_LIMIT = 5;
/** The delay before the first re-start of a replacement that died before listening; doubles each time. */
const FIRST_RESTART_DELAY_MS = 500;

/** Each worker's stderr: resolves with its last line (its start error, when it died starting) once the stream ends. */
const lastLines = new WeakMap<Worker, Promise<string | undefined>>();

/** Forks a worker whose stderr passes through this process, keeping its last line. */
function fork(): Worker {
  const worker = cluster.fork();
  let tail = '';
  const stderr = worker.process.stderr;
  stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + String(chunk)).slice(-4096);
  });
  const ended = new Promise<void>((resolve) => {
    if (stderr === null || stderr === undefined) return resolve();
    stderr.once('close', resolve);
    // a worker's own child could keep the pipe open past the worker's exit: wait 1 s at most
    worker.once('exit', () => setTimeout(resolve, 1000).unref());
  });
  lastLines.set(
    worker,
    ended.then(() => tail.trimEnd().split('\n').pop()?.trim() || undefined),
  );
  return worker;
}

/** The last line `worker` wrote on stderr, once its stderr has ended. */
async function lastLine(worker: Worker): Promise<string | undefined> {
  return lastLines.get(worker);
}

/** Forks one worker; resolves with its port once it listens, rejects if it exits first. */
function startWorker(): Promise<number> {
  const worker = fork();
  return new Promise((resolve, reject) => {
    let listening = false;
    worker.on('message', (message: unknown) => {
      if (!isListening(message)) return;
      listening = true;
      resolve(message.port);
    });
    worker.once('exit', (code, signal: NodeJS.Signals | null) => {
      // its message passes through this process: let it out before the command exits
      if (!listening) void lastLine(worker).then((line) => reject(new WorkerStartError(code, signal, line)));
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
  // stderr piped (to keep each worker's last line), stdout and the request log straight through
  cluster.setupPrimary({ stdio: ['inherit', 'inherit', 'pipe', 'ipc'] });
  const port = await startWorker();
  await Promise.all(Array.from({ length: workers - 1 }, startWorker));
  // the workers started so far listen; a replacement counts once it does
  const listened = new WeakSet<Worker>(Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined));
  let failedStarts = 0;
  const pending = new Set<NodeJS.Timeout>();
  cluster.on('listening', (worker) => {
    listened.add(worker);
    failedStarts = 0;
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const how = signal ?? `code ${code}`;
    if (listened.has(worker)) {
      log(`venue-search: worker ${worker.process.pid} exited (${how}); starting another`);
      fork();
      return;
    }
    failedStarts++;
    void lastLine(worker).then((line) => replaceFailed(worker, how, line ?? '(it printed nothing)'));
  });
  const replaceFailed = (worker: Worker, how: string, why: string): void => {
    if (stopping) return;
    if (failedStarts >= RESTART_LIMIT) {
      log(`venue-search: ${failedStarts} workers in a row exited before listening; the last (${how}): ${why}; stopping (serve exits 1)`);
      stopAll('giving up', 1);
      return;
    }
    const delay = FIRST_RESTART_DELAY_MS * 2 ** (failedStarts - 1);
    log(`venue-search: worker ${worker.process.pid} exited before listening (${how}), ${failedStarts} in a row; starting another in ${delay / 1000} s`);
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!stopping) fork();
    }, delay);
    pending.add(timer);
  };
  const stop = (signal: NodeJS.Signals): void => stopAll(signal, 0);
  const stopAll = (signal: NodeJS.Signals | 'giving up', exitCode: number): void => {
    if (stopping) return;
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    // what a single process says (its workers say nothing: isClusterWorker)
    log(`venue-search: ${signal}: closing ${alive.length} worker process${alive.length === 1 ? '' : 'es'} (requests in flight are answered first)`);
    let left = alive.length;
    if (left === 0) process.exit(exitCode);
    for (const worker of alive) {
      worker.once('exit', () => {
        if (--left === 0) process.exit(exitCode);
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
