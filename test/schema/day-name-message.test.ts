/**
 * Audit 70c F3: a bad day name in opening hours was refused as "expected union value"; the
 * message now names the field, the value and the allowed names. Oracle: the interface's day
 * names written out by hand, and the exact messages expected.
 */
import { describe, expect, it } from 'vitest';
import { validateVenue } from '../../src/data/validate-venue.js';
import { VenueSearchError } from '../../src/errors.js';
import { compileWeeklyHours } from '../../src/hours/weekly-intervals.js';

const ALLOWED = 'one of Mon, Tue, Wed, Thu, Fri, Sat, Sun';
const slot = { open: '18:00', close: '23:00', isClosed: false, closeNextDay: false };
const record = (day: unknown) => ({
  id: 'v1',
  name: 'The Red Lion',
  location: { type: 'Point', coordinates: [51.5, -0.1] },
  regularOpeningHours: [{ days: ['Mon', day], timeSlots: [slot] }],
});

function refusal(run: () => unknown): VenueSearchError {
  try {
    run();
  } catch (err) {
    if (err instanceof VenueSearchError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('a bad day name', () => {
  it.each([['Friday'], ['fri'], ['FRI'], [5]])('%j in a record: the field, the value and Mon..Sun', (day) => {
    const err = refusal(() => validateVenue(record(day)));
    expect(err.code).toBe('invalid_venue');
    expect(err.param).toBe('regularOpeningHours[0].days[1]');
    expect(err.message).toBe(`venue "v1", field regularOpeningHours[0].days[1]: must be ${ALLOWED}; got ${JSON.stringify(day)}`);
  });

  it('compiled without record validation: the same allowed names', () => {
    const err = refusal(() => compileWeeklyHours([{ days: ['Friday' as 'Fri'], timeSlots: [slot] }], { recordId: 'v1' }));
    expect(err.message).toBe(`regularOpeningHours[0].days[0] must be ${ALLOWED}; got "Friday"`);
  });
});
