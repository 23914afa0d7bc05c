import type * as CliProgress from 'cli-progress';
import type { Writable } from 'node:stream';
import { requirePackage } from '../import/lazy-package.js';
import { STOP_SIGNALS } from './stop-signals.js';

export interface ProgressBar {
  /** Done so far, of `total` (undefined while unknown). */
  update(done: number, total: number | undefined): void;
  stop(): void;
}

/** What a bar counts: items (records, rows; shown as they are) or bytes (shown in MB). */
export type ProgressUnit = 'items' | 'bytes';

/**
 * A cli-progress bar on `stream` when it is a terminal; silent otherwise (pipes and CI logs
 * get the summary lines only). Starts at the first update; cleared when stopped.
 */
export function progressBar(stream: Writable & { isTTY?: boolean }, unit: ProgressUnit = 'items'): ProgressBar {
  if (!stream.isTTY) return { update: () => {}, stop: () => {} };
  // Loaded for a terminal's bar only (about 13 ms with string-width: serve on a snapshot, or
  // any run whose output is piped, never needs it). CommonJS, read from its module object.
  const { Format, Presets, SingleBar } = requirePackage<typeof CliProgress>('cli-progress');
  const inBytes = unit === 'bytes';
  // Made at the first update: with a total, a bar, its percentage and ETA; without one (a
  // points NDJSON file read as it comes), a count alone: a bar of total 0 read "100% | ETA: 0s |
  // 287/0" from the first row (audit 72e F5).
  const makeBar = (counting: boolean) =>
    new SingleBar(
      {
        stream: stream as NodeJS.WritableStream,
        clearOnComplete: true,
        hideCursor: true,
        format: counting ? ` {value}${inBytes ? ' MB' : ''} so far` : ` {bar} {percentage}% | ETA: {eta}s | {value}/{total}${inBytes ? ' MB' : ''}`,
        // bytes as MB with one decimal; everything else as cli-progress writes it
        formatValue: (v, options, type) => (inBytes && (type === 'value' || type === 'total') ? (v / 1e6).toFixed(1) : Format.ValueFormat(v, options, type)),
      },
      Presets.shades_classic,
    );
  /** The running bar, made at the first update after a start or a stop. */
  let bar: CliProgress.SingleBar | undefined;
  // While the bar runs the terminal's cursor is hidden and its line wrapping off: a stop
  // signal stops the bar first (restoring both), then, unless another listener handles the
  // signal, stops the process as the signal would.
  const onStopSignal = (signal: NodeJS.Signals): void => {
    stop();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const stop = (): void => {
    if (bar === undefined) return;
    bar.stop();
    bar = undefined;
    for (const signal of STOP_SIGNALS) process.off(signal, onStopSignal);
  };
  return {
    update(done, total) {
      if (bar === undefined) {
        bar = makeBar(total === undefined);
        bar.start(total ?? 0, 0);
        for (const signal of STOP_SIGNALS) process.once(signal, onStopSignal);
      }
      if (total !== undefined && total !== bar.getTotal()) bar.setTotal(total);
      bar.update(done);
    },
    stop,
  };
}
