import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VenueSearchError } from '../../src/errors.js';
import {
  MINUTES_PER_WEEK,
  compileWeeklyHours,
  isOpenInIntervalRange,
  isOpenInIntervals,
  parseClockMinutes,
} from '../../src/hours/index.js';
import type { WeeklyHours } from '../../src/schema/common.js';
import { bruteForceWeek, slot, weeklyHoursArb } from './oracles.js';

const DAY = 1440;
const at = (day: number, hh: number, mm = 0): number => day * DAY + hh * 60 + mm; // Mon = 0

function compiled(groups: WeeklyHours | undefined): number[] | null {
  const c = compileWeeklyHours(groups);
  return c === null ? null : Array.from(c);
}

function thrown(fn: () => unknown): VenueSearchError {
  try {
    fn();
  } catch (err) {
    if (err instanceof VenueSearchError) return err;
    throw err;
  }
  throw new Error('expected a VenueSearchError');
}

describe('parseClockMinutes', () => {
  it('reads HH:MM, 24:00, and rejects malformed text with -1', () => {
    expect(parseClockMinutes('00:00')).toBe(0);
    expect(parseClockMinutes('18:45')).toBe(18 * 60 + 45);
    expect(parseClockMinutes('23:59')).toBe(1439);
    expect(parseClockMinutes('24:00')).toBe(1440);
    for (const bad of ['24:01', '25:00', '12:60', '1:00', '12-00', '12:0', 'ab:cd', '', 1200, null, undefined]) {
      expect(parseClockMinutes(bad)).toBe(-1);
    }
  });
});

describe('compileWeeklyHours: named cases (hand-computed minute-of-week pairs)', () => {
  it('unknown hours: undefined and [] are null, distinct from a known closed week', () => {
    expect(compileWeeklyHours(undefined)).toBeNull();
    expect(compileWeeklyHours([])).toBeNull();
    // A group with no slots, or only isClosed slots, is KNOWN and never open.
    expect(compiled([{ days: ['Mon'], timeSlots: [] }])).toEqual([]);
    expect(compiled([{ days: ['Mon', 'Sun'], timeSlots: [slot('09:00', '17:00', { isClosed: true })] }])).toEqual([]);
  });

  it('slot past midnight with closeNextDay: Fri 18:00 to Sat 02:00', () => {
    expect(compiled([{ days: ['Fri'], timeSlots: [slot('18:00', '02:00', { closeNextDay: true })] }])).toEqual([
      at(4, 18),
      at(5, 2),
    ]);
  });

  it('close before open without closeNextDay is read as next day (18:00-02:00)', () => {
    expect(compiled([{ days: ['Sat'], timeSlots: [slot('18:00', '02:00')] }])).toEqual([at(5, 18), at(6, 2)]);
  });

  it('open == close is a 24-hour slot', () => {
    expect(compiled([{ days: ['Wed'], timeSlots: [slot('10:00', '10:00')] }])).toEqual([at(2, 10), at(3, 10)]);
  });

  it('close 24:00 is the end of the day; 00:00-24:00 is the whole day', () => {
    expect(compiled([{ days: ['Mon'], timeSlots: [slot('18:00', '24:00')] }])).toEqual([at(0, 18), at(1, 0)]);
    expect(compiled([{ days: ['Tue'], timeSlots: [slot('00:00', '24:00')] }])).toEqual([at(1, 0), at(2, 0)]);
  });

  it('Sunday slot past midnight wraps into Monday morning (split at the week end)', () => {
    expect(compiled([{ days: ['Sun'], timeSlots: [slot('22:00', '02:00', { closeNextDay: true })] }])).toEqual([
      0,
      at(0, 2),
      at(6, 22),
      MINUTES_PER_WEEK,
    ]);
  });

  it('isClosed slot on a day never matches, the other days still do', () => {
    const groups: WeeklyHours = [
      { days: ['Mon', 'Tue'], timeSlots: [slot('09:00', '17:00')] },
      { days: ['Wed'], timeSlots: [slot('09:00', '17:00', { isClosed: true })] },
    ];
    expect(compiled(groups)).toEqual([at(0, 9), at(0, 17), at(1, 9), at(1, 17)]);
  });

  it('overlapping and touching slots from different groups are united and merged', () => {
    const groups: WeeklyHours = [
      { days: ['Mon'], timeSlots: [slot('09:00', '24:00'), slot('12:00', '14:00')] },
      { days: ['Tue', 'Mon'], timeSlots: [slot('00:00', '02:00')] }, // touches Mon 24:00
      { days: ['Thu'], timeSlots: [slot('11:00', '15:00'), slot('09:00', '12:00')] },
    ];
    expect(compiled(groups)).toEqual([at(0, 0), at(0, 2), at(0, 9), at(1, 2), at(3, 9), at(3, 15)]);
  });

  it('a later group does not replace an earlier day (union, not the OSM ";" cascade)', () => {
    const groups: WeeklyHours = [
      { days: ['Fri'], timeSlots: [slot('18:00', '02:00', { closeNextDay: true })] },
      { days: ['Sat'], timeSlots: [slot('12:00', '23:00')] },
    ];
    expect(compiled(groups)).toEqual([at(4, 18), at(5, 2), at(5, 12), at(5, 23)]);
  });
});

describe('compileWeeklyHours: nonsense is invalid_venue naming the field', () => {
  const one = (s: ReturnType<typeof slot>): WeeklyHours => [{ days: ['Mon'], timeSlots: [s] }];

  it('open 24:00 (24:00 is only a closing time)', () => {
    const err = thrown(() => compileWeeklyHours(one(slot('24:00', '02:00'))));
    expect(err.code).toBe('invalid_venue');
    expect(err.param).toBe('regularOpeningHours[0].timeSlots[0].open');
    expect(err.message).toContain('"24:00"');
  });

  it('malformed close time', () => {
    const err = thrown(() => compileWeeklyHours(one(slot('10:00', '25:00'))));
    expect(err.param).toBe('regularOpeningHours[0].timeSlots[0].close');
    expect(err.value).toBe('25:00');
  });

  it('closeNextDay with close after open (a slot over 24 hours) or close 24:00', () => {
    expect(thrown(() => compileWeeklyHours(one(slot('10:00', '11:00', { closeNextDay: true })))).param).toBe(
      'regularOpeningHours[0].timeSlots[0].close',
    );
    expect(thrown(() => compileWeeklyHours(one(slot('10:00', '24:00', { closeNextDay: true })))).code).toBe(
      'invalid_venue',
    );
  });

  it('unknown day name, field and record id from the options', () => {
    const groups = [{ days: ['Mon', 'Funday'], timeSlots: [slot('10:00', '11:00')] }] as unknown as WeeklyHours;
    const err = thrown(() => compileWeeklyHours(groups, { field: 'kitchenOpeningHours', recordId: 'v42' }));
    expect(err.param).toBe('kitchenOpeningHours[0].days[1]');
    expect(err.recordId).toBe('v42');
    expect(err.message).toContain('"Funday"');
  });

  it('isClosed slots are not read at all (their times may be placeholders)', () => {
    expect(compiled(one(slot('24:00', '24:00', { isClosed: true })))).toEqual([]);
  });
});

describe('isOpenInIntervals', () => {
  it('start is inclusive, end exclusive; empty schedule is never open', () => {
    const c = compileWeeklyHours([{ days: ['Mon'], timeSlots: [slot('09:00', '17:00')] }]) as Uint16Array;
    expect(isOpenInIntervals(c, at(0, 8, 59))).toBe(false);
    expect(isOpenInIntervals(c, at(0, 9))).toBe(true);
    expect(isOpenInIntervals(c, at(0, 16, 59))).toBe(true);
    expect(isOpenInIntervals(c, at(0, 17))).toBe(false);
    expect(isOpenInIntervals(new Uint16Array(0), 0)).toBe(false);
  });

  it('first and last minute of the week with a Sunday wrap', () => {
    const c = compileWeeklyHours([{ days: ['Sun'], timeSlots: [slot('23:00', '01:00')] }]) as Uint16Array;
    expect(isOpenInIntervals(c, 0)).toBe(true);
    expect(isOpenInIntervals(c, MINUTES_PER_WEEK - 1)).toBe(true);
    expect(isOpenInIntervals(c, at(0, 1))).toBe(false);
  });

  it('isOpenInIntervalRange on a sub-range of shared storage ignores pairs outside it', () => {
    // pairs: [0,10) [20,30) [40,50); ask only about pair 1
    const shared = Uint16Array.from([0, 10, 20, 30, 40, 50]);
    expect(isOpenInIntervalRange(shared, 1, 2, 5)).toBe(false);
    expect(isOpenInIntervalRange(shared, 1, 2, 25)).toBe(true);
    expect(isOpenInIntervalRange(shared, 1, 2, 45)).toBe(false);
    expect(isOpenInIntervalRange(shared, 0, 3, 45)).toBe(true);
  });
});

describe('compileWeeklyHours + isOpenInIntervals against a per-minute brute-force model', () => {
  it('random weekly hours: every minute of the week agrees and the pairs are canonical', () => {
    fc.assert(
      fc.property(weeklyHoursArb(5), (groups) => {
        const expected = bruteForceWeek(groups);
        const c = compileWeeklyHours(groups);
        if (expected === null) return c === null;
        if (c === null) return false;
        // sorted, disjoint, not touching, inside the week
        for (let i = 0; i < c.length; i += 2) {
          const s = c[i] as number;
          const e = c[i + 1] as number;
          if (!(s < e && e <= MINUTES_PER_WEEK)) return false;
          if (i > 0 && !((c[i - 1] as number) < s)) return false;
        }
        for (let m = 0; m < MINUTES_PER_WEEK; m++) {
          if (isOpenInIntervals(c, m) !== expected[m]) return false;
        }
        return true;
      }),
      { numRuns: 400, seed: 20260329 },
    );
  });
});
