// Opening hours: weekly intervals, time zones, open-at-instant. Re-exports only.
export {
  MINUTES_PER_DAY,
  MINUTES_PER_WEEK,
  compileWeeklyHours,
  isOpenInIntervalRange,
  isOpenInIntervals,
  parseClockMinutes,
  type CompileOptions,
} from './weekly-intervals.js';
export { HoursTable, HoursTableBuilder, OpenState, UNKNOWN_SCHEDULE } from './hours-table.js';
export { ZoneTable, ZoneTableBuilder, canonicalTimeZone, zoneForLocation } from './time-zone.js';
export { LocalClock } from './local-clock.js';
export { openStateAt } from './open-state.js';
export { openThrough } from './open-through.js';
