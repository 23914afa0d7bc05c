import { VenueSearchError, describeValue } from '../errors.js';
import { DAY_NAMES, type TimeSlot, type WeeklyHours } from '../schema/common.js';
import { oneOfLiterals } from '../schema/literal-union.js';

/**
 * Weekly opening hours compiled to intervals of local wall-clock minutes of the week.
 *
 * Minute of week: Monday 00:00 local = 0, Sunday 23:59 = 10079. A compiled schedule is a
 * flat `Uint16Array` `[start0, end0, start1, end1, ...]` of half-open `[start, end)` pairs,
 * sorted by start, disjoint and not touching (`end_i < start_{i+1}`), with
 * `0 <= start < end <= MINUTES_PER_WEEK`. A slot running past Sunday 24:00 is split into
 * `[start, 10080)` and `[0, end - 10080)`. An empty array means "known: never open".
 *
 * Slot rules (see docs/hours.md):
 * - a slot belongs to the day it opens on; all slots of all groups are UNITED (a later group
 *   does not replace an earlier one, unlike OSM's `;` rule cascade);
 * - `isClosed` slots never match and are ignored entirely here (the record schema still checks
 *   that their times are HH:MM: docs/hours.md);
 * - `close` is read on the next day when `closeNextDay` is true, or when it is not after
 *   `open` (`18:00`-`02:00` runs past midnight; `open == close` is a 24-hour slot);
 * - `close` `24:00` is the end of the opening day; `open` may not be `24:00`;
 * - a slot lasts at most 24 hours: `closeNextDay` with `close` after `open` (or `24:00`) is
 *   rejected as `invalid_venue`.
 */

export const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY; // 10080, fits in a Uint16

/** Monday-first index of a day name (`Mon` = 0 .. `Sun` = 6), or -1. No Map: this runs per slot per day. */
function dayIndex(name: unknown): number {
  if (typeof name !== 'string' || name.length !== 3) return -1;
  let i: number;
  switch (name.charCodeAt(0)) {
    case 77: // M
      i = 0;
      break;
    case 87: // W
      i = 2;
      break;
    case 70: // F
      i = 4;
      break;
    case 84: // T
      i = name.charCodeAt(1) === 117 /* u */ ? 1 : 3;
      break;
    case 83: // S
      i = name.charCodeAt(1) === 97 /* a */ ? 5 : 6;
      break;
    default:
      return -1;
  }
  return name === DAY_NAMES[i] ? i : -1;
}

/** Minutes after midnight of `HH:MM` (00:00..23:59 or 24:00), or -1 when malformed. */
export function parseClockMinutes(text: unknown): number {
  if (typeof text !== 'string' || text.length !== 5 || text.charCodeAt(2) !== 58 /* : */) return -1;
  const h1 = text.charCodeAt(0) - 48;
  const h2 = text.charCodeAt(1) - 48;
  const m1 = text.charCodeAt(3) - 48;
  const m2 = text.charCodeAt(4) - 48;
  if (h1 < 0 || h1 > 9 || h2 < 0 || h2 > 9 || m1 < 0 || m1 > 5 || m2 < 0 || m2 > 9) return -1;
  const hours = h1 * 10 + h2;
  const minutes = m1 * 10 + m2;
  if (hours > 24 || (hours === 24 && minutes !== 0)) return -1;
  return hours * 60 + minutes;
}

export interface CompileOptions {
  /** Record field the hours came from, for error messages (default `regularOpeningHours`). */
  readonly field?: string;
  /** Venue id, carried into a thrown error. */
  readonly recordId?: string;
}

// Scratch for packed slots `start * PACK + end` (both < PACK after the week split) and for the
// merged output. Grown on demand; the engine is synchronous, so module-level buffers are safe.
const PACK = 16384;
let scratch = new Uint32Array(64);
let merged16 = new Uint16Array(128);

function invalid(param: string, value: unknown, expected: string, recordId: string | undefined): never {
  const details = recordId === undefined ? { param, value } : { param, value, recordId };
  throw new VenueSearchError('invalid_venue', `${param} must be ${expected}; got ${describeValue(value)}`, details);
}

/**
 * Compiles weekly groups to sorted, merged, disjoint minute-of-week intervals.
 * Returns `null` for unknown hours (absent or an empty array of groups); a non-empty array
 * whose slots are all closed compiles to an empty (known, never open) schedule.
 */
export function compileWeeklyHours(groups: WeeklyHours | undefined, options: CompileOptions = {}): Uint16Array | null {
  const entries = compileToScratch(groups, options);
  return entries < 0 ? null : merged16.slice(0, entries);
}

/** The scratch buffer {@link compileToScratch} writes to (it may be replaced when it grows). */
export function compiledScratch(): Uint16Array {
  return merged16;
}

/**
 * Checks weekly groups by every rule {@link compileToScratch} applies (the same errors; also the
 * day names of a group whose slots are all closed, which compiling never reads), without
 * compiling them: record validation (src/data/validate-venue.ts), so that hours a build would
 * refuse are refused with the record's line and id before anything is built or logged.
 */
export function checkWeeklyHours(groups: WeeklyHours | undefined, options: CompileOptions = {}): void {
  if (groups === undefined) return;
  const field = options.field ?? 'regularOpeningHours';
  const recordId = options.recordId;
  if (!Array.isArray(groups)) invalid(field, groups, 'an array of opening-hours groups', recordId);
  for (let g = 0; g < groups.length; g++) {
    checkGroup(groups, g, field, recordId);
    const { days, timeSlots: slots } = groups[g]!;
    for (let s = 0; s < slots.length; s++) checkedSlot(slots, g, s, field, recordId);
    for (let d = 0; d < days.length; d++) checkedDay(days, g, d, field, recordId);
  }
}

/** A checked slot's packing: opening minute of its day * SLOT_PACK + length in minutes (1..1440). */
const SLOT_PACK = 2048;

/** Checks that group `g` has arrays of days and of slots (then `groups[g]` may be read). */
function checkGroup(groups: WeeklyHours, g: number, field: string, recordId: string | undefined): void {
  const group = groups[g];
  const days = group?.days;
  const slots = group?.timeSlots;
  if (!Array.isArray(days)) invalid(`${field}[${g}].days`, days, 'an array of day names Mon..Sun', recordId);
  if (!Array.isArray(slots)) invalid(`${field}[${g}].timeSlots`, slots, 'an array of time slots', recordId);
}

/**
 * Slot `s` of group `g` by the slot rules of the module comment: -1 when it is closed (never
 * matches), else its opening minute and length packed (SLOT_PACK); throws `invalid_venue`.
 */
function checkedSlot(slots: readonly TimeSlot[], g: number, s: number, field: string, recordId: string | undefined): number {
  const slot = slots[s];
  if (slot === null || typeof slot !== 'object') {
    invalid(`${field}[${g}].timeSlots[${s}]`, slot, 'a time slot object', recordId);
  }
  if (slot.isClosed) return -1;
  const open = parseClockMinutes(slot.open);
  const close = parseClockMinutes(slot.close);
  if (open < 0 || open === MINUTES_PER_DAY) {
    invalid(`${field}[${g}].timeSlots[${s}].open`, slot.open, 'a time HH:MM from 00:00 to 23:59', recordId);
  }
  if (close < 0) {
    invalid(`${field}[${g}].timeSlots[${s}].close`, slot.close, 'a time HH:MM from 00:00 to 24:00', recordId);
  }
  let length: number; // minutes, 1..1440
  if (slot.closeNextDay) {
    if (close > open || close === MINUTES_PER_DAY) {
      invalid(
        `${field}[${g}].timeSlots[${s}].close`,
        slot.close,
        `at or before open (${slot.open}) when closeNextDay is true (a slot lasts at most 24 hours)`,
        recordId,
      );
    }
    length = MINUTES_PER_DAY - open + close;
  } else {
    // close <= open without closeNextDay: real data writes 18:00-02:00; read it as next day.
    length = close > open ? close - open : MINUTES_PER_DAY - open + close;
  }
  return open * SLOT_PACK + length;
}

/** Day `d` of group `g`: its Monday-first index; throws `invalid_venue` for anything but Mon..Sun. */
function checkedDay(days: readonly unknown[], g: number, d: number, field: string, recordId: string | undefined): number {
  const day = dayIndex(days[d]);
  if (day < 0) invalid(`${field}[${g}].days[${d}]`, days[d], oneOfLiterals(DAY_NAMES), recordId);
  return day;
}

/**
 * As {@link compileWeeklyHours}, without allocating: writes the pairs to the start of
 * {@link compiledScratch} and returns the number of Uint16 entries (2 per pair), or -1 for
 * unknown hours. Valid only until the next call; for builders that copy it at once.
 */
export function compileToScratch(groups: WeeklyHours | undefined, options: CompileOptions = {}): number {
  if (groups === undefined) return -1;
  const field = options.field ?? 'regularOpeningHours';
  const recordId = options.recordId;
  if (!Array.isArray(groups)) invalid(field, groups, 'an array of opening-hours groups', recordId);
  if (groups.length === 0) return -1;

  let count = 0;
  for (let g = 0; g < groups.length; g++) {
    checkGroup(groups, g, field, recordId);
    const days = groups[g]!.days;
    const slots = groups[g]!.timeSlots;
    for (let s = 0; s < slots.length; s++) {
      const slot = checkedSlot(slots, g, s, field, recordId);
      if (slot < 0) continue;
      const open = (slot / SLOT_PACK) | 0;
      const length = slot - open * SLOT_PACK;
      for (let d = 0; d < days.length; d++) {
        const day = checkedDay(days, g, d, field, recordId);
        const start = day * MINUTES_PER_DAY + open;
        const end = start + length;
        if (count + 2 > scratch.length) {
          const grown = new Uint32Array(scratch.length * 2);
          grown.set(scratch);
          scratch = grown;
        }
        if (end <= MINUTES_PER_WEEK) {
          scratch[count++] = start * PACK + end;
        } else {
          // Sunday slot past 24:00 wraps into Monday morning.
          scratch[count++] = start * PACK + MINUTES_PER_WEEK;
          scratch[count++] = end - MINUTES_PER_WEEK; // start 0
        }
      }
    }
  }
  return mergePacked(count);
}

/**
 * Sorts the first `n` packed `[start, end)` slots of `scratch` and merges overlapping or
 * touching ones into `merged16`; returns the number of entries written.
 */
function mergePacked(n: number): number {
  const packed = scratch;
  if (n > 32) {
    packed.subarray(0, n).sort(); // numeric; start is the high part, so this sorts by start
  } else {
    // Insertion sort: a venue has a handful of slots, where this beats the generic sort.
    for (let i = 1; i < n; i++) {
      const v = packed[i] as number;
      let j = i - 1;
      while (j >= 0 && (packed[j] as number) > v) {
        packed[j + 1] = packed[j] as number;
        j--;
      }
      packed[j + 1] = v;
    }
  }
  if (merged16.length < 2 * n) merged16 = new Uint16Array(2 * n);
  const out = merged16;
  let k = 0;
  let curStart = -1;
  let curEnd = -1;
  for (let i = 0; i < n; i++) {
    const v = packed[i] as number;
    const start = (v / PACK) | 0;
    const end = v - start * PACK;
    if (curStart >= 0 && start <= curEnd) {
      if (end > curEnd) curEnd = end;
      continue;
    }
    if (curStart >= 0) {
      out[k++] = curStart;
      out[k++] = curEnd;
    }
    curStart = start;
    curEnd = end;
  }
  if (curStart >= 0) {
    out[k++] = curStart;
    out[k++] = curEnd;
  }
  return k;
}

/**
 * Whether `minuteOfWeek` (0..10079) lies in one of the pairs `lo..hi-1` of `intervals`
 * (pair indices, so entries `2*lo .. 2*hi-1`). Binary search for the last pair starting at
 * or before the minute. Allocation-free; used by the columnar table on shared storage.
 */
export function isOpenInIntervalRange(intervals: Uint16Array, lo: number, hi: number, minuteOfWeek: number): boolean {
  // Invariant: pairs before `lo` start at or before the minute; pairs from `hi` start after it.
  const first = lo;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((intervals[2 * mid] as number) <= minuteOfWeek) lo = mid + 1;
    else hi = mid;
  }
  return lo > first && minuteOfWeek < (intervals[2 * lo - 1] as number);
}

/** Whether a compiled schedule is open at local `minuteOfWeek` (0..10079). */
export function isOpenInIntervals(intervals: Uint16Array, minuteOfWeek: number): boolean {
  return isOpenInIntervalRange(intervals, 0, intervals.length >>> 1, minuteOfWeek);
}
