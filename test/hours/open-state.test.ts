import OpeningHours from 'opening_hours';
import { describe, expect, it } from 'vitest';
import { OpenState, openStateAt } from '../../src/hours/index.js';
import type { WeeklyHours } from '../../src/schema/common.js';
import { slot, toOsmString, withProcessTimeZone } from './oracles.js';

const { OPEN, CLOSED, UNKNOWN } = OpenState;
const utc = (iso: string): number => Date.parse(iso);

interface NamedCase {
  readonly name: string;
  readonly zone: string;
  readonly hours: WeeklyHours;
  /** [UTC instant, hand-computed expected state, the local wall time it is (for the reader)] */
  readonly checks: readonly (readonly [string, OpenState, string])[];
}

// Expected states are computed by hand from the slot and the local wall time; each case is
// also checked against the `opening_hours` library (TZ = the venue's zone).
const CASES: readonly NamedCase[] = [
  {
    name: 'slot past midnight: Fri 18:00 to Sat 02:00 (closeNextDay)',
    zone: 'Europe/London',
    hours: [{ days: ['Fri'], timeSlots: [slot('18:00', '02:00', { closeNextDay: true })] }],
    checks: [
      ['2026-03-06T17:59:00Z', CLOSED, 'Fri 17:59 GMT'],
      ['2026-03-06T18:00:00Z', OPEN, 'Fri 18:00 GMT'],
      ['2026-03-07T01:30:00Z', OPEN, 'Sat 01:30 GMT'],
      ['2026-03-07T02:00:00Z', CLOSED, 'Sat 02:00 GMT'],
      ['2026-07-04T00:30:00Z', OPEN, 'Sat 01:30 BST'],
      ['2026-07-04T01:30:00Z', CLOSED, 'Sat 02:30 BST'],
    ],
  },
  {
    name: 'slot ending at 24:00: Mon 18:00-24:00',
    zone: 'Europe/London',
    hours: [{ days: ['Mon'], timeSlots: [slot('18:00', '24:00')] }],
    checks: [
      ['2026-01-05T23:59:00Z', OPEN, 'Mon 23:59 GMT'],
      ['2026-01-06T00:00:00Z', CLOSED, 'Tue 00:00 GMT'],
    ],
  },
  {
    name: 'isClosed day: open Mon-Sat, Sun marked closed',
    zone: 'Europe/London',
    hours: [
      { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'], timeSlots: [slot('10:00', '22:00')] },
      { days: ['Sun'], timeSlots: [slot('10:00', '22:00', { isClosed: true })] },
    ],
    checks: [
      ['2026-01-10T12:00:00Z', OPEN, 'Sat 12:00 GMT'],
      ['2026-01-11T12:00:00Z', CLOSED, 'Sun 12:00 GMT'],
    ],
  },
  {
    name: 'Sunday to Monday wrap: Sun 22:00-02:00',
    zone: 'Europe/London',
    hours: [{ days: ['Sun'], timeSlots: [slot('22:00', '02:00', { closeNextDay: true })] }],
    checks: [
      ['2026-01-11T21:59:00Z', CLOSED, 'Sun 21:59 GMT'],
      ['2026-01-11T23:00:00Z', OPEN, 'Sun 23:00 GMT'],
      ['2026-01-12T01:59:00Z', OPEN, 'Mon 01:59 GMT'],
      ['2026-01-12T02:00:00Z', CLOSED, 'Mon 02:00 GMT'],
    ],
  },
  {
    // 29 March 2026 01:00 UTC: 01:00 GMT becomes 02:00 BST; local 01:00-01:59 never happens.
    name: 'Europe/London spring forward (29 March 2026): Sun 00:30-02:30 local',
    zone: 'Europe/London',
    hours: [{ days: ['Sun'], timeSlots: [slot('00:30', '02:30')] }],
    checks: [
      ['2026-03-29T00:29:00Z', CLOSED, 'Sun 00:29 GMT'],
      ['2026-03-29T00:59:00Z', OPEN, 'Sun 00:59 GMT'],
      ['2026-03-29T01:00:00Z', OPEN, 'Sun 02:00 BST'],
      ['2026-03-29T01:29:00Z', OPEN, 'Sun 02:29 BST'],
      ['2026-03-29T01:30:00Z', CLOSED, 'Sun 02:30 BST'],
    ],
  },
  {
    name: 'Europe/London spring forward: a slot wholly inside the skipped hour (Sun 01:00-02:00) never opens',
    zone: 'Europe/London',
    hours: [{ days: ['Sun'], timeSlots: [slot('01:00', '02:00')] }],
    checks: [
      ['2026-03-29T00:59:00Z', CLOSED, 'Sun 00:59 GMT'],
      ['2026-03-29T01:00:00Z', CLOSED, 'Sun 02:00 BST'],
      ['2026-03-22T01:30:00Z', OPEN, 'Sun 01:30 GMT, the week before'],
    ],
  },
  {
    // 25 October 2026 01:00 UTC: 02:00 BST becomes 01:00 GMT; local 01:00-01:59 happens twice.
    name: 'Europe/London fall back (25 October 2026): Sun 00:00-01:30 local is open twice in 01:00-01:29',
    zone: 'Europe/London',
    hours: [{ days: ['Sun'], timeSlots: [slot('00:00', '01:30')] }],
    checks: [
      ['2026-10-24T23:00:00Z', OPEN, 'Sun 00:00 BST'],
      ['2026-10-25T00:29:00Z', OPEN, 'Sun 01:29 BST'],
      ['2026-10-25T00:30:00Z', CLOSED, 'Sun 01:30 BST'],
      ['2026-10-25T00:59:00Z', CLOSED, 'Sun 01:59 BST'],
      ['2026-10-25T01:00:00Z', OPEN, 'Sun 01:00 GMT (again)'],
      ['2026-10-25T01:29:00Z', OPEN, 'Sun 01:29 GMT'],
      ['2026-10-25T01:30:00Z', CLOSED, 'Sun 01:30 GMT'],
    ],
  },
  {
    name: 'America/New_York bar Mon-Sat 16:00-02:00 across both 2026 clock changes',
    zone: 'America/New_York',
    hours: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'], timeSlots: [slot('16:00', '02:00')] }],
    checks: [
      ['2026-03-07T21:00:00Z', OPEN, 'Sat 16:00 EST'],
      ['2026-03-08T06:59:00Z', OPEN, 'Sun 01:59 EST'],
      ['2026-03-08T07:00:00Z', CLOSED, 'Sun 03:00 EDT'],
      ['2026-03-09T19:59:00Z', CLOSED, 'Mon 15:59 EDT'],
      ['2026-03-09T20:00:00Z', OPEN, 'Mon 16:00 EDT'],
      ['2026-11-01T05:59:00Z', OPEN, 'Sun 01:59 EDT'],
      ['2026-11-01T06:00:00Z', OPEN, 'Sun 01:00 EST (again)'],
      ['2026-11-01T07:00:00Z', CLOSED, 'Sun 02:00 EST'],
    ],
  },
  {
    name: 'Pacific/Auckland cafe Sat 08:00-14:00: a day ahead of UTC, both 2026 clock changes',
    zone: 'Pacific/Auckland',
    hours: [{ days: ['Sat'], timeSlots: [slot('08:00', '14:00')] }],
    checks: [
      ['2026-03-06T19:00:00Z', OPEN, 'Sat 08:00 NZDT (Friday in UTC)'],
      ['2026-03-06T18:59:00Z', CLOSED, 'Sat 07:59 NZDT'],
      ['2026-04-04T00:59:00Z', OPEN, 'Sat 13:59 NZDT, the day before DST ends'],
      ['2026-04-11T01:59:00Z', OPEN, 'Sat 13:59 NZST, after DST ended'],
      ['2026-04-11T02:00:00Z', CLOSED, 'Sat 14:00 NZST'],
      ['2026-10-03T00:59:00Z', OPEN, 'Sat 13:59 NZDT, after DST started'],
      ['2026-10-03T01:00:00Z', CLOSED, 'Sat 14:00 NZDT'],
    ],
  },
];

describe('openStateAt: named cases (hand-computed, cross-checked with opening_hours)', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      const oh = new OpeningHours(toOsmString(c.hours));
      it.each(c.checks.map(([iso, state, local]) => ({ iso, state, local })))('$local ($iso)', ({ iso, state }) => {
        expect(openStateAt(c.hours, c.zone, utc(iso))).toBe(state);
        const library = withProcessTimeZone(c.zone, () => oh.getState(new Date(utc(iso))));
        expect(library).toBe(state === OPEN);
      });
    });
  }
});

describe('openStateAt: unknown hours are not closed', () => {
  it('absent or empty hours are UNKNOWN; hours with every slot closed are CLOSED', () => {
    const t = utc('2026-06-01T12:00:00Z');
    expect(openStateAt(undefined, 'Europe/London', t)).toBe(UNKNOWN);
    expect(openStateAt([], 'Europe/London', t)).toBe(UNKNOWN);
    expect(openStateAt([{ days: ['Mon'], timeSlots: [] }], 'Europe/London', t)).toBe(CLOSED);
    expect(UNKNOWN).not.toBe(CLOSED);
  });
});

describe('process.env.TZ switching (the oracle depends on it)', () => {
  it('Date local getters follow process.env.TZ assigned at run time', () => {
    const july = new Date(utc('2026-07-01T00:00:00Z'));
    expect(withProcessTimeZone('Pacific/Auckland', () => july.getTimezoneOffset())).toBe(-720);
    expect(withProcessTimeZone('America/New_York', () => july.getTimezoneOffset())).toBe(240);
    expect(withProcessTimeZone('Europe/London', () => july.getTimezoneOffset())).toBe(-60);
  });
});
