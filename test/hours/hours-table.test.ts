import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VenueSearchError } from '../../src/errors.js';
import { HoursTableBuilder, OpenState, UNKNOWN_SCHEDULE } from '../../src/hours/index.js';
import type { WeeklyHours } from '../../src/schema/common.js';
import { bruteForceWeek, slot, weeklyHoursArb } from './oracles.js';

const pubHours: WeeklyHours = [
  { days: ['Mon', 'Tue', 'Wed', 'Thu'], timeSlots: [slot('12:00', '23:00')] },
  { days: ['Fri', 'Sat'], timeSlots: [slot('12:00', '01:00', { closeNextDay: true })] },
  { days: ['Sun'], timeSlots: [slot('12:00', '22:30')] },
];

describe('HoursTable', () => {
  it('empty table: no venues, no schedules', () => {
    const table = new HoursTableBuilder(0).finish();
    expect(table.size).toBe(0);
    expect(table.scheduleCount).toBe(0);
    expect(() => table.state(0, 0)).toThrow(RangeError);
  });

  it('unknown hours (absent, []) are UNKNOWN, a known closed week is CLOSED', () => {
    const b = new HoursTableBuilder();
    b.add(undefined);
    b.add([]);
    b.add([{ days: ['Mon'], timeSlots: [slot('09:00', '17:00', { isClosed: true })] }]);
    b.add(pubHours);
    const t = b.finish();
    expect(t.scheduleOf[0]).toBe(UNKNOWN_SCHEDULE);
    expect(t.state(0, 600)).toBe(OpenState.UNKNOWN);
    expect(t.state(1, 600)).toBe(OpenState.UNKNOWN);
    expect(t.intervalsOf(1)).toBeNull();
    expect(t.state(2, 600)).toBe(OpenState.CLOSED);
    expect(Array.from(t.intervalsOf(2) as Uint16Array)).toEqual([]);
    // Sat 00:30 (Friday's slot past midnight) and Mon 11:59 / 12:00
    expect(t.state(3, 5 * 1440 + 30)).toBe(OpenState.OPEN);
    expect(t.state(3, 11 * 60 + 59)).toBe(OpenState.CLOSED);
    expect(t.state(3, 12 * 60)).toBe(OpenState.OPEN);
  });

  it('identical schedules are stored once (same hours written differently too)', () => {
    const b = new HoursTableBuilder(2);
    const sameAsPub: WeeklyHours = [
      { days: ['Sun'], timeSlots: [slot('12:00', '22:30')] },
      { days: ['Sat', 'Fri'], timeSlots: [slot('12:00', '01:00')] }, // next day implied
      { days: ['Thu', 'Wed', 'Tue', 'Mon'], timeSlots: [slot('12:00', '18:00'), slot('18:00', '23:00')] },
    ];
    for (let i = 0; i < 1000; i++) b.add(i % 2 === 0 ? pubHours : sameAsPub);
    b.add(undefined);
    const t = b.finish();
    expect(t.size).toBe(1001);
    expect(t.scheduleCount).toBe(1);
    expect(t.intervals.length).toBe(14); // Mon-Thu 4 pairs, Fri+Sat 2, Sun 1 = 7 pairs
    expect(t.byteLength).toBe(1001 * 4 + 2 * 4 + 14 * 2);
  });

  it('thousands of distinct schedules (hash-set growth): each stored once, answers intact', () => {
    const b = new HoursTableBuilder(8);
    const hoursOf = (k: number): WeeklyHours => {
      const open = k % 1380; // minutes after Monday midnight, k < 2760 gives 2 days
      const day = k < 1380 ? 'Mon' : 'Tue';
      const hh = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      return [{ days: [day], timeSlots: [slot(hh(open), hh(open + 60))] }];
    };
    for (let k = 0; k < 2760; k++) b.add(hoursOf(k));
    for (let k = 2759; k >= 0; k--) b.add(hoursOf(k)); // the same again, reversed
    const t = b.finish();
    expect(t.scheduleCount).toBe(2760);
    for (let k = 0; k < 2760; k++) {
      const start = (k < 1380 ? 0 : 1440) + (k % 1380);
      expect(t.scheduleOf[5519 - k]).toBe(t.scheduleOf[k]);
      expect([t.state(k, start - 1), t.state(k, start), t.state(k, start + 59), t.state(k, start + 60)]).toEqual([
        OpenState.CLOSED,
        OpenState.OPEN,
        OpenState.OPEN,
        OpenState.CLOSED,
      ]);
    }
  });

  it('invalid hours: invalid_venue with the record id; add after finish throws', () => {
    const b = new HoursTableBuilder();
    expect(() => b.add([{ days: ['Mon'], timeSlots: [slot('24:00', '01:00')] }], { recordId: 'pub-7' })).toThrow(
      VenueSearchError,
    );
    try {
      b.add([{ days: ['Mon'], timeSlots: [slot('24:00', '01:00')] }], { recordId: 'pub-7' });
    } catch (err) {
      expect((err as VenueSearchError).recordId).toBe('pub-7');
    }
    b.finish();
    expect(() => b.add(undefined)).toThrow(/after finish/);
  });

  it('random venues: state() equals the per-minute brute-force model at sampled minutes', () => {
    fc.assert(
      fc.property(fc.array(weeklyHoursArb(15), { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 2 ** 31 }), (venues, seed) => {
        const b = new HoursTableBuilder(4); // small presize: exercises growth
        for (const v of venues) b.add(v);
        const t = b.finish();
        const models = venues.map(bruteForceWeek);
        let x = seed;
        for (let i = 0; i < venues.length; i++) {
          const model = models[i];
          for (let k = 0; k < 200; k++) {
            x = (x * 1103515245 + 12345) >>> 0;
            const m = x % 10080;
            const expected = model === null || model === undefined ? OpenState.UNKNOWN : model[m] ? OpenState.OPEN : OpenState.CLOSED;
            if (t.state(i, m) !== expected) return false;
          }
        }
        return true;
      }),
      { numRuns: 150, seed: 20261025 },
    );
  });
});
