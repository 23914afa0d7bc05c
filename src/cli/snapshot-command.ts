import { statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { InvalidArgumentError, type Command } from 'commander';
import { createEngineFromFile } from '../data/read-engine.js';
import type { Engine } from '../engine.js';
import { MAX_READ_THREADS } from '../data/read-venues.js';
import { VenueSearchError } from '../errors.js';
import { snapshotTarget } from '../snapshot/snapshot-target.js';
import { readSnapshot } from '../snapshot/read-snapshot.js';
import { writeSnapshot } from '../snapshot/write-snapshot.js';
import { outputFileName, sameOutputFile } from './output-file.js';
import { progressBar } from './progress-bar.js';
import { dataFileProblem, isSnapshotFile } from './load-engine.js';
import { readThreads } from './read-threads.js';
import { seaWarning } from './sea-warning.js';

interface SnapshotOptions {
  data: string;
  out: string;
  threads?: number;
}

/** `--threads`: createEngineFromFile's range. */
function parseThreads(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_READ_THREADS) throw new InvalidArgumentError(`must be an integer 1..${MAX_READ_THREADS}; got ${JSON.stringify(text)}`);
  return n;
}

/** --out: a file (a snapshot is written whole and renamed into place; `-` is not stdout here). */
function snapshotOut(value: string): string {
  outputFileName(value);
  if (value === '-') throw new InvalidArgumentError('a snapshot is written to a file (whole, then renamed into place), not to stdout: give a file');
  return value;
}

/**
 * `venue-search snapshot --data <venues file> --out <file>`: reads and validates the venues
 * once, builds the engine (indexes, opening-hours and time-zone tables, find's name index,
 * learnt places: everything `warm()` builds) and
 * writes it as a snapshot that `serve --data <file>` (or `readSnapshot`) loads in a fraction
 * of the time. `--data` a snapshot: written again by this version's rules. Progress bars on
 * stderr when it is a terminal; a summary line at the end.
 */
export function registerSnapshotCommand(program: Command, stderr: Writable & { isTTY?: boolean } = process.stderr): void {
  program
    .command('snapshot')
    .description('build the engine over a venues file once and save it for fast loading')
    .requiredOption('--data <file>', '(required) venues file (NDJSON, JSON array or GeoJSON), or a snapshot to write again by this version\'s rules')
    .requiredOption('-o, --out <file>', '(required) snapshot file to write (replaced atomically; a file, not stdout)', snapshotOut)
    .option('--threads <n>', 'threads that read and build an NDJSON file (default: one per core, at most 4; 1 under 64 MB)', parseThreads)
    .action(async (options: SnapshotOptions) => {
      const { data, out } = options;
      const problem = dataFileProblem(data);
      if (problem !== null) throw new VenueSearchError('invalid_data', problem, { param: 'data', value: data });
      const fromSnapshot = isSnapshotFile(data);
      // A snapshot that cannot be written is said before the venues are read and built (at 1M, a minute).
      if (sameOutputFile(out, data)) {
        throw new VenueSearchError('invalid_request', `--out ${out} is the --data file: the snapshot would replace the venues it is built from; give another file`, { param: 'out', value: out });
      }
      // a device, a pipe or a folder at --out (or behind its link), or a folder that refuses the temporary file
      // (a name ending in `/` too); `target.file` is where the snapshot lands (a link's target)
      const target = snapshotTarget(out, 'out', 'invalid_request');
      const started = Date.now();
      let engine: Engine;
      if (fromSnapshot) {
        // A snapshot written again by this version: what its rules derive differently (find's
        // name index, the corrected zones: docs/snapshots.md) is derived at load and by warm();
        // the records are not validated again (audit 75d F4: the docs said to write an older
        // snapshot again, and this command refused one).
        engine = readSnapshot(data).warm();
        stderr.write(`read ${engine.size} venues from the snapshot ${data}; writing them again by this version's rules (name index, zone corrections: docs/snapshots.md)\n`);
      } else {
        const threads = options.threads ?? readThreads(1, statSync(data).size);
        const reading = progressBar(stderr, 'bytes');
        engine = (await createEngineFromFile(data, { threads, onProgress: (p) => reading.update(p.bytes, p.totalBytes) })).engine;
        reading.stop();
        // An empty input is a mistake (an empty change log, a truncated download), not a data set to serve.
        if (engine.size === 0) throw new VenueSearchError('invalid_data', `${data} holds no venue records: no snapshot written`, { param: 'data', value: data });
        stderr.write(`read ${engine.size} venues from ${data} and built the engine\n`);
      }
      const atSea = seaWarning(engine, data);
      if (atSea !== null) stderr.write(`${atSea}\n`);
      const writing = progressBar(stderr);
      writeSnapshot(engine, out, { onProgress: (p) => writing.update(p.done, p.total) });
      writing.stop();
      const mb = statSync(target.file).size / 1e6;
      const seconds = (Date.now() - started) / 1000;
      stderr.write(`wrote ${out}: ${engine.size} venues, ${mb.toFixed(1)} MB, in ${seconds.toFixed(1)} s. Serve it with: venue-search serve --data ${out}\n`);
    });
}
