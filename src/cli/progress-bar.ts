import { Presets, SingleBar } from 'cli-progress';
import type { Writable } from 'node:stream';

export interface ProgressBar {
  /** Done so far, of `total` (undefined while unknown). */
  update(done: number, total: number | undefined): void;
  stop(): void;
}

/**
 * A cli-progress bar on `stream` when it is a terminal; silent otherwise (pipes and CI logs
 * get the summary lines only). Starts at the first update; cleared when stopped.
 */
export function progressBar(stream: Writable & { isTTY?: boolean }): ProgressBar {
  if (!stream.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new SingleBar({ stream: stream as NodeJS.WritableStream, clearOnComplete: true, hideCursor: true }, Presets.shades_classic);
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
