import cliProgress from 'cli-progress';
import type { Writable } from 'node:stream';

// cli-progress is CommonJS: Node's ESM loader finds SingleBar and Presets among its named
// exports but not Format, so everything is read from the module object.
const { Format, Presets, SingleBar } = cliProgress;

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
  const inBytes = unit === 'bytes';
  const bar = new SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      clearOnComplete: true,
      hideCursor: true,
      format: ` {bar} {percentage}% | ETA: {eta}s | {value}/{total}${inBytes ? ' MB' : ''}`,
      // bytes as MB with one decimal; everything else as cli-progress writes it
      formatValue: (v, options, type) => (inBytes && (type === 'value' || type === 'total') ? (v / 1e6).toFixed(1) : Format.ValueFormat(v, options, type)),
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total ?? 0, 0);
        started = true;
      }
      if (total !== undefined && total !== bar.getTotal()) bar.setTotal(total);
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
