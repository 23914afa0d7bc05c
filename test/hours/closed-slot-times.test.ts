/**
 * Audit 70c F2: docs/hours.md said the times of `isClosed` slots "may be placeholders", yet
 * `"xx"` is refused. The doc now says what is accepted: valid HH:MM times (00:00..23:59 or
 * 24:00), ignored; the other slot rules are not applied. Oracle: hand-written slots and the
 * verdict the doc states for each.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateVenue } from '../../src/data/validate-venue.js';
import { VenueSearchError } from '../../src/errors.js';

const record = (slot: Record<string, unknown>) => ({
  id: 'v1',
  name: 'The Shut Inn',
  location: { type: 'Point', coordinates: [51.5, -0.1] },
  regularOpeningHours: [{ days: ['Sun'], timeSlots: [{ open: '10:00', close: '22:00', isClosed: true, closeNextDay: false, ...slot }] }],
});

function verdict(slot: Record<string, unknown>): string {
  try {
    validateVenue(record(slot));
    return 'accepted';
  } catch (err) {
    if (!(err instanceof VenueSearchError)) throw err;
    return `${err.code} ${String(err.param)}`;
  }
}

describe('the times of an isClosed slot', () => {
  it('must be valid HH:MM (00:00..23:59 or 24:00); the rules between them are not applied', () => {
    expect(verdict({ open: 'xx', close: 'yy' })).toBe(`invalid_venue regularOpeningHours[0].timeSlots[0].open`);
    expect(verdict({ open: '00:00', close: '7:00' })).toBe(`invalid_venue regularOpeningHours[0].timeSlots[0].close`);
    expect(verdict({ open: '24:01', close: '00:00' })).toBe(`invalid_venue regularOpeningHours[0].timeSlots[0].open`);
    expect(verdict({ open: '00:00', close: '00:00' })).toBe('accepted');
    // refused on an open slot, accepted (and ignored) on a closed one
    expect(verdict({ open: '24:00', close: '24:00' })).toBe('accepted');
    expect(verdict({ open: '10:00', close: '23:00', closeNextDay: true })).toBe('accepted');
    expect(verdict({ open: '24:00', close: '24:00', isClosed: false })).toBe(`invalid_venue regularOpeningHours[0].timeSlots[0].open`);
  });

  it('docs/hours.md says so, and no longer calls them placeholders', () => {
    const doc = readFileSync(new URL('../../docs/hours.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).not.toContain('may be placeholders');
    expect(doc).toContain('`isClosed` slots never match, and their times are ignored, but they must still be valid `HH:MM` times, `00:00` to `23:59` or `24:00`');
    expect(doc).toContain('The other slot rules (`open` not `24:00`, at most 24 hours with `closeNextDay`) are not applied to them.');
  });
});
