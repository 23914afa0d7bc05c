import type { WeeklyHours } from '../schema/common.js';
import { OpenState } from './hours-table.js';
import { LocalClock } from './local-clock.js';
import { compileWeeklyHours, isOpenInIntervals } from './weekly-intervals.js';

const sharedClock = new LocalClock();

/**
 * Opening state of one venue's weekly hours in `zone` at `instantMs` (UTC ms). For details
 * responses and tests; the search uses HoursTable + ZoneTable + LocalClock.minutesOfWeek
 * instead of compiling per call. UNKNOWN when `groups` is absent or empty.
 */
export function openStateAt(
  groups: WeeklyHours | undefined,
  zone: string,
  instantMs: number,
  clock: LocalClock = sharedClock,
): OpenState {
  const intervals = compileWeeklyHours(groups);
  if (intervals === null) return OpenState.UNKNOWN;
  return isOpenInIntervals(intervals, clock.minuteOfWeek(zone, instantMs)) ? OpenState.OPEN : OpenState.CLOSED;
}
