// Independent models for the hours tests. Nothing here imports src/hours: each function
// restates the contract in the most naive way so the compiled form can be checked against it.
import fc from 'fast-check';
import type { DayName, OpeningHoursGroup, TimeSlot, WeeklyHours } from '../../src/schema/common.js';

export const DAYS: readonly DayName[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const OSM_DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h as number) * 60 + (m as number);
}

/** Builds a slot: `slot('18:00', '02:00', {closeNextDay: true})`. */
export function slot(open: string, close: string, flags: Partial<Pick<TimeSlot, 'isClosed' | 'closeNextDay'>> = {}): TimeSlot {
  return { open, close, isClosed: flags.isClosed ?? false, closeNextDay: flags.closeNextDay ?? false };
}

/**
 * Naive per-minute model of a week: `open[m]` for each local minute of the week (Monday
 * 00:00 = 0). Each non-closed slot marks its minutes one by one from its day's `open`; it
 * ends on the next day when `closeNextDay` is set or `close` is not after `open`; minutes
 * past Sunday 24:00 wrap to Monday. null = unknown hours.
 */
export function bruteForceWeek(groups: WeeklyHours | undefined): boolean[] | null {
  if (groups === undefined || groups.length === 0) return null;
  const open: boolean[] = new Array<boolean>(10080).fill(false);
  for (const group of groups) {
    for (const s of group.timeSlots) {
      if (s.isClosed) continue;
      const o = minutes(s.open);
      const c = minutes(s.close);
      const end = s.closeNextDay || c <= o ? c + 1440 : c;
      for (const day of group.days) {
        const base = DAYS.indexOf(day) * 1440;
        for (let m = base + o; m < base + end; m++) open[m % 10080] = true;
      }
    }
  }
  return open;
}

/**
 * The same hours as an OSM `opening_hours` string for the `opening_hours` library: one rule
 * per (day, open slot), joined with the ADDITIONAL rule separator `, ` so that no rule
 * replaces another day (our weekly form is a union; OSM's `;` would let a later rule wipe a
 * previous day's spill past midnight). A next-day close is written in OSM's extended-time
 * form (`18:00-26:00`), which the library reads as running into the next day. No open slot
 * at all is `off`.
 */
export function toOsmString(groups: WeeklyHours): string {
  const rules: string[] = [];
  for (const group of groups) {
    for (const s of group.timeSlots) {
      if (s.isClosed) continue;
      const o = minutes(s.open);
      const c = minutes(s.close);
      const end = s.closeNextDay || c <= o ? c + 1440 : c;
      const range = `${s.open}-${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
      for (const day of group.days) rules.push(`${OSM_DAYS[DAYS.indexOf(day)]} ${range}`);
    }
  }
  return rules.length === 0 ? 'off' : rules.join(', ');
}

/** Minute-of-week read from the process's local Date getters (valid under process.env.TZ). */
export function processLocalMinuteOfWeek(instantMs: number): number {
  const d = new Date(instantMs);
  return ((d.getDay() + 6) % 7) * 1440 + d.getHours() * 60 + d.getMinutes();
}

/**
 * Runs `fn` with process.env.TZ = zone. Node re-reads TZ when it is assigned, and every
 * Date local getter (hence the `opening_hours` library, which evaluates in local time)
 * follows it. Restores the previous value afterwards.
 */
export function withProcessTimeZone<T>(zone: string, fn: () => T): T {
  const previous = process.env['TZ'];
  process.env['TZ'] = zone;
  try {
    return fn();
  } finally {
    if (previous === undefined) delete process.env['TZ'];
    else process.env['TZ'] = previous;
  }
}

const clockTime = (step: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: Math.floor(1439 / step) }).map((k) => {
    const m = k * step;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  });

/** A valid slot (a slot lasts at most 24 hours). Times on a `step`-minute grid so that ties happen. */
export const slotArb = (step = 15): fc.Arbitrary<TimeSlot> =>
  fc
    .record({
      open: clockTime(step),
      close: fc.oneof({ weight: 9, arbitrary: clockTime(step) }, { weight: 1, arbitrary: fc.constant('24:00') }),
      isClosed: fc.integer({ min: 0, max: 4 }).map((k) => k === 0), // 20 % closed slots
      closeNextDay: fc.boolean(),
    })
    .map((s) => {
      // closeNextDay is only valid when close is at or before open and not 24:00.
      const ok = minutes(s.close) <= minutes(s.open) && s.close !== '24:00';
      return { ...s, closeNextDay: s.closeNextDay && ok };
    });

export const groupArb = (step = 15): fc.Arbitrary<OpeningHoursGroup> =>
  fc.record({
    days: fc.uniqueArray(fc.constantFrom(...DAYS), { minLength: 1, maxLength: 7 }),
    timeSlots: fc.array(slotArb(step), { minLength: 0, maxLength: 3 }),
  });

/** Weekly hours including the unknown forms (undefined, []). */
export const weeklyHoursArb = (step = 15): fc.Arbitrary<WeeklyHours | undefined> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant([] as WeeklyHours) },
    { weight: 8, arbitrary: fc.array(groupArb(step), { minLength: 1, maxLength: 4 }) },
  );
