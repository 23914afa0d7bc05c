/**
 * A SQLite write made on the main thread that does not block the event loop while another
 * process holds the file's write lock (audit 64a F17: the rate counters' file, locked by
 * another process, stalled every request of the service, even GET /v1/openapi.json, for as
 * long as SQLite's busy_timeout waited inside the call).
 *
 * The connection waits for nothing itself (busy_timeout 0): a batch that finds the lock taken
 * fails at once with SQLITE_BUSY, before it changed anything (an IMMEDIATE transaction takes
 * the lock first), and is tried again after a pause on a timer, the event loop free
 * meanwhile, until `waitMs` have passed since the first try; then the last SQLITE_BUSY error
 * stands, as one wait of busy_timeout would have ended. Uncontended, the batch runs once,
 * synchronously, as before.
 */

/** Pauses between tries, ms (the last repeats): about as often as SQLite's own busy handler tries. */
const PAUSES_MS = [1, 2, 5, 10, 15, 20, 25];

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** `run` tried again on a timer while it fails with SQLITE_BUSY, for at most `waitMs` (see above). */
export function retryWhileBusy<I, O>(run: (inputs: readonly I[]) => O[], waitMs: number): (inputs: readonly I[]) => O[] | Promise<O[]> {
  return (inputs) => {
    const started = performance.now();
    try {
      return run(inputs);
    } catch (err) {
      if (!isBusy(err)) throw err;
      return new Promise<O[]>((resolve, reject) => {
        let tries = 0;
        const again = (): void => {
          try {
            resolve(run(inputs));
          } catch (e) {
            if (!isBusy(e) || performance.now() - started >= waitMs) return reject(e);
            setTimeout(again, PAUSES_MS[Math.min(tries++, PAUSES_MS.length - 1)]);
          }
        };
        setTimeout(again, PAUSES_MS[tries++]);
      });
    }
  };
}
