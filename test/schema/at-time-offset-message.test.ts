/**
 * Audit 70g F4: `atTime` with an offset other than UTC's (`-04:00`, what an app in New York
 * sends) is refused, as the interface asks for a UTC timestamp, and the refusal now gives the
 * same instant in UTC. Oracle: the UTC spellings below, worked out by hand (local time minus
 * the offset), not by the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { createHarness, type Harness } from '../http/support/harness.js';

const CASES: Array<[string, string]> = [
  ['2026-07-01T11:30:00-04:00', '2026-07-01T15:30:00Z'], // New York in summer: 11:30 + 4 h
  ['2026-07-01T11:30:00+05:30', '2026-07-01T06:00:00Z'], // India: 11:30 - 5 h 30
  ['2026-12-31T22:00-0500', '2027-01-01T03:00:00Z'], // New Year's Eve in New York, no seconds: the next day, the next year
  ['2026-07-01t11:30:00.25+01:00', '2026-07-01T10:30:00.250Z'], // a fraction, a lower-case t
];

const body = (atTime: string) => ({
  locations: [{ lat: 51.5136, lon: -0.1365 }],
  mode: { mode: 'POINT' as const, maxDistance: 2000 },
  preferences: { openingConditions: { state: 'OPEN' as const, atTime } },
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('atTime with an offset other than UTC', () => {
  const engine = createEngine([{ id: 'a', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5136, -0.1365] } }]);

  it.each(CASES)('the engine refuses %s naming the field and the UTC instant %s', (atTime, utc) => {
    let error: unknown;
    try {
      engine.search(body(atTime));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VenueSearchError);
    expect((error as VenueSearchError).code).toBe('invalid_request');
    expect((error as VenueSearchError).message).toContain('preferences.openingConditions.atTime must be an ISO 8601 UTC timestamp');
    expect((error as VenueSearchError).message).toContain(`offsets other than UTC are refused: that instant is "${utc}"`);
  });

  it.each(CASES)('the service answers 400 for %s with the UTC instant %s, and the instant it names is accepted', async (atTime, utc) => {
    const acct = await h.open('Enterprise');
    const post = (t: string) => h.app.inject({ method: 'POST', url: '/v1/search/?limit=1', headers: { 'api-key': acct.secretKey }, payload: body(t) });
    const refused = await post(atTime);
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as { message: string }).message).toContain(`offsets other than UTC are refused: that instant is "${utc}"`);
    expect((await post(utc)).statusCode).toBe(200);
  });

  it('a text that is no timestamp at all is told only what the field must be', () => {
    expect(() => engine.search(body('tomorrow at noon'))).toThrow(/atTime must be an ISO 8601 UTC timestamp in the years 100 to 9999, such as "2026-11-21T20:00:00Z"; got "tomorrow at noon"$/);
  });
});

/**
 * Audit 71c: a timestamp whose date does not exist ("2026-02-30") was told only what the field
 * must be. Oracle: the calendar, by hand (2026 is not a leap year, 2028 is; April has 30 days).
 */
describe('atTime on a date that does not exist', () => {
  const engine = createEngine([{ id: 'a', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5136, -0.1365] } }]);
  const DATES: Array<[string, string]> = [
    ['2026-02-30T10:00:00Z', 'February 2026 has 28 days'],
    ['2026-02-29T10:00:00Z', 'February 2026 has 28 days'],
    ['2026-04-31T09:00:00Z', 'April 2026 has 30 days'],
    ['2026-13-01T10:00:00Z', 'there is no month 13'],
    ['2026-00-10T10:00:00Z', 'there is no month 00'],
    ['2026-06-00T10:00:00Z', 'June 2026 has 30 days'],
  ];

  it.each(DATES)('the engine and the service refuse %s saying why: %s', async (atTime, why) => {
    expect(() => engine.search(body(atTime))).toThrow(`atTime must be an ISO 8601 UTC timestamp in the years 100 to 9999, such as "2026-11-21T20:00:00Z" (no such date: ${why}); got "${atTime}"`);
    const acct = await h.open('Enterprise');
    const refused = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=1', headers: { 'api-key': acct.secretKey }, payload: body(atTime) });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as { message: string }).message).toContain(`(no such date: ${why})`);
  });

  it('a date before the year 100 is told only the range (no calendar note: Date.UTC would read 0000 as 1900, not a leap year)', () => {
    expect(() => engine.search(body('0000-02-29T10:00:00Z'))).toThrow(/such as "2026-11-21T20:00:00Z"; got "0000-02-29T10:00:00Z"$/);
  });

  it('a leap day that exists is accepted: 2028-02-29', () => {
    expect(engine.search(body('2028-02-29T10:00:00Z')).totalResults).toBe(1); // the one venue, its hours unknown (OPEN is a soft preference here)
  });
});
