import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileWeeklyHours } from '../../src/hours/weekly-intervals.js';
import { intervalsToWeeklyHours, mergeCyclicRuns } from '../../src/import/weekly-slots.js';

const D = 1440;
const W = 7 * D;

/** Oracle: the set of open minutes of the week, by brute force over the input pairs. */
function minuteSet(pairs: readonly number[]): Uint8Array {
  const open = new Uint8Array(W);
  for (let i = 0; i + 1 < pairs.length; i += 2) for (let m = pairs[i] as number; m < (pairs[i + 1] as number); m++) open[m % W] = 1;
  return open;
}

/** Reads the groups back through the hours module (another engineer's reader). */
function minuteSetOfGroups(groups: ReturnType<typeof intervalsToWeeklyHours>): Uint8Array {
  const compiled = compileWeeklyHours(groups);
  if (!compiled) throw new Error('no hours');
  return minuteSet([...compiled]);
}

describe('intervalsToWeeklyHours', () => {
  it('weekday slots with closed weekend: hand-computed groups', () => {
    const pairs: number[] = [];
    for (let d = 0; d < 5; d++) pairs.push(d * D + 600, d * D + 1080);
    expect(intervalsToWeeklyHours(pairs)).toEqual([
      { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], timeSlots: [{ open: '10:00', close: '18:00', isClosed: false, closeNextDay: false }] },
      { days: ['Sat', 'Sun'], timeSlots: [{ open: '00:00', close: '00:00', isClosed: true, closeNextDay: false }] },
    ]);
  });

  it('Sunday night past midnight wraps the week into one closeNextDay slot', () => {
    // Sun 22:00 -> Mon 02:00 arrives as two pieces: [0, 120) and [9960, 10080).
    const groups = intervalsToWeeklyHours([0, 120, 6 * D + 1320, W]);
    expect(groups).toContainEqual({ days: ['Sun'], timeSlots: [{ open: '22:00', close: '02:00', isClosed: false, closeNextDay: true }] });
    expect(groups.find((g) => g.days.includes('Mon'))?.timeSlots[0]?.isClosed).toBe(true);
  });

  it('24/7 (one run covering the whole week) is 00:00-24:00 every day', () => {
    expect(intervalsToWeeklyHours([0, W])).toEqual([
      {
        days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
        timeSlots: [{ open: '00:00', close: '24:00', isClosed: false, closeNextDay: false }],
      },
    ]);
  });

  it('a run longer than a day splits at midnight; closeNextDay only when close <= open', () => {
    // Mon 08:00 -> Tue 09:00 (25 h): close 09:00 is after open 08:00, so split.
    expect(intervalsToWeeklyHours([480, D + 540]).slice(0, 2)).toEqual([
      { days: ['Mon'], timeSlots: [{ open: '08:00', close: '24:00', isClosed: false, closeNextDay: false }] },
      { days: ['Tue'], timeSlots: [{ open: '00:00', close: '09:00', isClosed: false, closeNextDay: false }] },
    ]);
    // Mon 10:00 -> Tue 03:00: one slot.
    expect(intervalsToWeeklyHours([600, D + 180])[0]).toEqual({
      days: ['Mon'],
      timeSlots: [{ open: '10:00', close: '03:00', isClosed: false, closeNextDay: true }],
    });
  });

  it('touching and overlapping input intervals merge', () => {
    expect(mergeCyclicRuns([600, 700, 700, 800, 750, 900])).toEqual([[600, 900]]);
  });

  it('property: the hours module reads back exactly the input minutes (random interval sets)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: W - 1 }), fc.integer({ min: 1, max: 2 * D })), { maxLength: 12 }), (spans) => {
        const pairs = spans.flatMap(([s, len]) => (s + len <= W ? [s, s + len] : [s, W, 0, s + len - W]));
        const groups = intervalsToWeeklyHours(pairs);
        // Buffer comparison: toEqual on 10,080-element arrays is slow.
        expect(Buffer.from(minuteSetOfGroups(groups)).equals(Buffer.from(minuteSet(pairs)))).toBe(true);
        for (const g of groups) for (const t of g.timeSlots) if (t.closeNextDay) expect(t.close <= t.open).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
