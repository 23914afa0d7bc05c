// readVenues reports as invalid_data, naming the file, only what is about the data: the file's
// own read errors, a stream's errors, bad records. An error of the code itself (a bug, a sink
// that fails) passes as it is (audit 66b F1: a CommonJS bundle's internal TypeError was
// "cannot read pubs.ndjson: Cannot read properties of undefined", blamed on the user's file).
import { describe, expect, it } from 'vitest';
import { errorOf, fixtureFolder, fixtureLines } from './support/fixture-files.js';
import { readVenues, readVenuesInto } from '../../src/data/read-venues.js';

const { dir, write } = fixtureFolder('venues-internal-errors-');

describe('readVenues: which errors name the data file', () => {
  it('an internal error while reading passes unchanged, at 1 and 2 threads', async () => {
    const path = write('ok.ndjson', fixtureLines.slice(0, 20));
    for (const threads of [1, 2]) {
      const bug = new TypeError(`Cannot read properties of undefined (reading 'endsWith') at ${threads} threads`);
      const failing = () => ({
        addNew(): number {
          throw bug;
        },
      });
      await expect(readVenuesInto(path, { threads }, failing)).rejects.toBe(bug);
    }
  });

  it("the file's and the stream's own errors are still invalid_data naming the file", async () => {
    expect(await errorOf(readVenues(dir))).toMatchObject({ code: 'invalid_data', message: `cannot read venue file ${dir}: is a folder, not a file` });
    const reset = new Error('connection reset');
    async function* feed() {
      yield `${fixtureLines[0]!}\n`;
      throw reset;
    }
    const err = await readVenues(feed(), { name: 'feed' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'VenueSearchError', code: 'invalid_data', file: 'feed', message: 'cannot read feed: connection reset' });
    expect((err as Error).cause).toBe(reset);
  });
});
