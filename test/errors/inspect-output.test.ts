import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { VenueSearchError } from '../../src/errors.js';

/**
 * An uncaught VenueSearchError as Node prints it (util.inspect): createEngine given
 * readVenues' answer printed every record of it (the fixtures: about 3,000) to the terminal.
 * Now the stack, then the fields, the value shortened as the message shows it; the advice
 * to pass `.venues` is in the message.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url));

describe('util.inspect of a VenueSearchError', () => {
  it("createEngine(readVenues' answer): a few lines naming the code, param and the remedy, not the records", async () => {
    const answer = await readVenues(FIXTURES);
    const records = readFileSync(FIXTURES, 'utf8').trim().split('\n').length;
    expect(answer.venues.length).toBe(records);
    let err: unknown;
    try {
      createEngine(answer as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VenueSearchError);
    expect((err as VenueSearchError).message).toContain('readVenues answers { venues, rejects, format }: pass its venues, createEngine((await readVenues(path)).venues)');
    // the value is kept whole on the error for code that reads it
    expect((err as VenueSearchError).value).toBe(answer);
    const printed = inspect(err);
    expect(printed.startsWith('VenueSearchError: createEngine expects an array of venue records; got {"venues":[')).toBe(true);
    expect(printed).toContain('{ code: "invalid_data", param: "venues", value: {"venues":[');
    expect(printed.length).toBeLessThan(3_000);
    // Node's own rendering, for comparison: every record
    expect(inspect({ ...(err as object) }, { depth: 4, maxArrayLength: null }).length).toBeGreaterThan(100_000);
  });

  it('a cause is named by its error name and message', () => {
    const cause = Object.assign(new Error("ENOENT: no such file or directory, open '/x'"), { code: 'ENOENT' });
    const printed = inspect(new VenueSearchError('invalid_data', 'cannot read /x', { file: '/x', cause }));
    expect(printed).toContain(`{ code: "invalid_data", file: "/x", cause: Error: ENOENT: no such file or directory, open '/x' }`);
  });
});
