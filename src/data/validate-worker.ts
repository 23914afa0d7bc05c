/**
 * Worker thread of the reader's validation pool (validate-pool.ts): receives NDJSON lines
 * as bytes, parses and validates each, and answers with the numbers of the lines that
 * validateVenue would reject, handing the bytes back if asked (the reader then parses them).
 * Malformed lines are left to the reader, which parses every line itself and reports them.
 */
import { parentPort } from 'node:worker_threads';
import { forEachLine } from './ndjson-lines.js';
import { isValidVenue } from './validate-venue.js';
import type { ValidateJob, ValidateVerdict } from './validate-pool.js';

parentPort!.on('message', (job: ValidateJob) => {
  const bad: number[] = [];
  forEachLine(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.firstLine, (text, line) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (!isValidVenue(value)) bad.push(line);
  });
  const verdict: ValidateVerdict = { id: job.id, bad, bytes: job.handBack ? job.bytes : null };
  parentPort!.postMessage(verdict, job.handBack ? [job.bytes.buffer as ArrayBuffer] : []);
});
