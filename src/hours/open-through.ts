import { OpenState, UNKNOWN_SCHEDULE, type HoursTable } from './hours-table.js';
import { MINUTES_PER_WEEK } from './weekly-intervals.js';

/**
 * Whether venue `venue` is open at local `minuteOfWeek` and stays open for `minutes` more
 * wall-clock minutes (docs/search.md, "Open on arrival"): OPEN when every minute of
 * [minuteOfWeek, minuteOfWeek + minutes) is open (minutes = 0: open at the minute itself),
 * CLOSED otherwise, UNKNOWN without hours. A stay may run on across the week's end
 * (Sunday 24:00 to Monday 00:00: the only place where compiled slots touch). Allocation-free.
 */
export function openThrough(table: HoursTable, venue: number, minuteOfWeek: number, minutes: number): OpenState {
  const s = table.scheduleOf[venue]!;
  if (s === UNKNOWN_SCHEDULE) return OpenState.UNKNOWN;
  const iv = table.intervals;
  const first = table.offsets[s]! >>> 1;
  const end = table.offsets[s + 1]! >>> 1;
  // the last pair starting at or before the minute
  let lo = first;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (iv[2 * mid]! <= minuteOfWeek) lo = mid + 1;
    else hi = mid;
  }
  const pair = lo - 1;
  if (pair < first || minuteOfWeek >= iv[2 * pair + 1]!) return OpenState.CLOSED;
  let left = minutes - (iv[2 * pair + 1]! - minuteOfWeek);
  if (left <= 0) return OpenState.OPEN;
  // Open until the week's end: continue with the slot starting Monday 00:00, if any.
  if (pair !== end - 1 || iv[2 * pair + 1]! !== MINUTES_PER_WEEK) return OpenState.CLOSED;
  for (let p = first; p < end; p++) {
    if (p === first ? iv[2 * p]! !== 0 : iv[2 * p]! !== iv[2 * p - 1]!) return OpenState.CLOSED;
    left -= iv[2 * p + 1]! - iv[2 * p]!;
    if (left <= 0) return OpenState.OPEN;
  }
  return OpenState.OPEN; // open all week
}
