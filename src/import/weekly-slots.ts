import { DAY_NAMES, type DayName, type TimeSlot, type WeeklyHours } from '../schema/common.js';

/**
 * Turns a set of open intervals over one week into the interface's weekly groups.
 *
 * Input: half-open `[start, end)` pairs in local wall-clock minutes of the week (Monday 00:00
 * = 0, next Monday 00:00 = 10080), any order, possibly touching or overlapping. The week is
 * cyclic: an interval ending at 10080 and one starting at 0 form one run over Sunday night.
 *
 * Output invariants (what the hours module reads back exactly):
 * - every open minute is covered by exactly one slot, and no closed minute by any slot;
 * - a slot belongs to the day it opens on; it runs into the next day (`closeNextDay`) only
 *   when its close time is not after its open time (`18:00`-`02:00`), so no slot lasts more
 *   than 24 hours; longer runs are split at midnight (`10:00`-`24:00`, then `00:00`-...);
 * - `close` `24:00` ends a slot at the end of its day; a run that never ends (24/7) is
 *   `00:00`-`24:00` on every day;
 * - days with no slot are listed in one group with a single `isClosed` slot, so a reader
 *   can tell "closed" from "not stated"; those slots never match;
 * - days sharing the same slot list are grouped, groups ordered by their first day.
 */

export const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** The slot used for a day with no opening (never matches; times are not read). */
const CLOSED_SLOT: TimeSlot = { open: '00:00', close: '00:00', isClosed: true, closeNextDay: false };

/** `HH:MM` for minutes after midnight, 0..1440 (1440 is written `24:00`). */
export function formatClock(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}`;
}

/** Sorted, merged runs `[start, end)`; a run may end past 10080 when it wraps Sunday night. */
export function mergeCyclicRuns(intervals: readonly number[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i + 1 < intervals.length; i += 2) {
    const s = Math.max(0, intervals[i] as number);
    const e = Math.min(MINUTES_PER_WEEK, intervals[i + 1] as number);
    if (e > s) pairs.push([s, e]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const runs: Array<[number, number]> = [];
  for (const [s, e] of pairs) {
    const last = runs[runs.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else runs.push([s, e]);
  }
  // Join the run ending at Sunday 24:00 with the one starting at Monday 00:00.
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (runs.length > 1 && first && last && first[0] === 0 && last[1] === MINUTES_PER_WEEK) {
    last[1] = MINUTES_PER_WEEK + first[1];
    runs.shift();
  }
  return runs;
}

/** Converts open intervals (minutes of week) to weekly groups; see the module comment. */
export function intervalsToWeeklyHours(intervals: readonly number[]): WeeklyHours {
  const runs = mergeCyclicRuns(intervals);
  const slotsByDay: TimeSlot[][] = DAY_NAMES.map(() => []);
  const whole = runs.length === 1 && runs[0] && runs[0][0] === 0 && runs[0][1] >= MINUTES_PER_WEEK;
  if (whole) {
    for (const day of slotsByDay) day.push(slot(0, MINUTES_PER_DAY, false));
  } else {
    for (const [start, end] of runs) {
      let cur = start;
      while (cur < end) {
        const dayIndex = Math.floor(cur / MINUTES_PER_DAY);
        const dayStart = dayIndex * MINUTES_PER_DAY;
        const dayEnd = dayStart + MINUTES_PER_DAY;
        const day = slotsByDay[dayIndex % 7] as TimeSlot[];
        const open = cur - dayStart;
        if (end <= dayEnd) {
          day.push(slot(open, end - dayStart, false));
          break;
        }
        const closeNext = end - dayEnd;
        if (open > 0 && closeNext <= open) {
          // One slot past midnight: close on the next day, not after the open time.
          day.push(slot(open, closeNext, true));
          break;
        }
        day.push(slot(open, MINUTES_PER_DAY, false));
        cur = dayEnd;
      }
    }
  }
  return groupDays(slotsByDay);
}

function slot(open: number, close: number, closeNextDay: boolean): TimeSlot {
  return { open: formatClock(open), close: formatClock(close), isClosed: false, closeNextDay };
}

function groupDays(slotsByDay: TimeSlot[][]): WeeklyHours {
  const groups: WeeklyHours = [];
  const keyToGroup = new Map<string, { days: DayName[]; timeSlots: TimeSlot[] }>();
  slotsByDay.forEach((slots, i) => {
    const sorted = slots.length === 0 ? [CLOSED_SLOT] : [...slots].sort((a, b) => (a.open < b.open ? -1 : 1));
    const key = JSON.stringify(sorted);
    const dayName = DAY_NAMES[i] as DayName;
    const existing = keyToGroup.get(key);
    if (existing) existing.days.push(dayName);
    else {
      const group = { days: [dayName], timeSlots: sorted.map((s) => ({ ...s })) };
      keyToGroup.set(key, group);
      groups.push(group);
    }
  });
  return groups;
}
