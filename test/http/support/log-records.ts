/** The service's request log caught in a test: a stream for buildApp's logger, and each line parsed. */
import { Writable } from 'node:stream';

export function logRecords(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}
