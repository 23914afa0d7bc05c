/**
 * The service's clock (ms since the epoch): rate windows, ledger timestamps, key grace
 * periods and the engine's `now` all read it. `Date.now` unless the environment names a
 * clock file.
 *
 * `VENUE_SEARCH_CLOCK_FILE=<file>` is for tests of time windows across processes (docs/deploy.md
 * "Testing the windows"): every call reads the file, which holds one integer (ms since the
 * epoch), so several service processes pointed at one file share one clock that the test
 * moves (writing a new file and renaming it over the old, so no reader sees half a number).
 * It costs a file read per call; never set it in production. A file that does not hold a
 * finite integer fails the call that reads it (the request answers 500, nothing is charged).
 */
import { readFileSync } from 'node:fs';

export const CLOCK_FILE_ENV = 'VENUE_SEARCH_CLOCK_FILE';

export interface ServiceClock {
  readonly clock: () => number;
  /** The clock file, when the clock reads one (the serve command says so at start). */
  readonly file: string | undefined;
}

export function serviceClock(env: NodeJS.ProcessEnv = process.env): ServiceClock {
  const file = env[CLOCK_FILE_ENV];
  if (file === undefined || file === '') return { clock: Date.now, file: undefined };
  const clock = (): number => {
    const text = readFileSync(file, 'utf8').trim();
    const ms = Number(text);
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(ms)) {
      throw new RangeError(`${CLOCK_FILE_ENV} file ${file} must hold ms since the epoch as an integer; got ${JSON.stringify(text.slice(0, 40))}`);
    }
    return ms;
  };
  clock(); // a missing or malformed file fails at start, not at the first request
  return { clock, file };
}
