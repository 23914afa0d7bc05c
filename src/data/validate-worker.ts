/**
 * Worker thread of the reader's validation pool (validate-pool.ts): receives NDJSON lines
 * as bytes, parses and validates each, and answers with the numbers of the lines that
 * validateVenue would reject. Malformed lines are left to the reader, which parses every
 * line itself and reports them.
 * Or, for a job to encode, answers with the lines encoded (encode-lines.ts): the bytes come
 * back only when a line is bad.
 */
import { parentPort } from 'node:worker_threads';
import { encodeLines, forEachValidVenue } from './encode-lines.js';
import { parsedVenueChecker } from './validate-venue.js';
import type { ValidateJob, ValidateVerdict, ValidateWorkerMessage } from './validate-pool.js';

parentPort!.on('message', (job: ValidateJob) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  if (job.encode) {
    const encoded = encodeLines(bytes, job.firstLine, true);
    const verdict: ValidateVerdict = { id: job.id, encoded };
    parentPort!.postMessage(verdict, encoded.bytes !== null ? [job.bytes.buffer as ArrayBuffer] : []);
    return;
  }
  const bad: number[] = [];
  // malformed lines are not named: the reader reports them as it parses them
  forEachValidVenue(
    bytes,
    job.firstLine,
    () => {},
    (line) => bad.push(line),
    () => {},
  );
  const verdict: ValidateVerdict = { id: job.id, bad };
  parentPort!.postMessage(verdict);
});

// Ready once the record checker is compiled (at its first use otherwise, inside the first job).
parsedVenueChecker();
const ready: ValidateWorkerMessage = { ready: true };
parentPort!.postMessage(ready);
