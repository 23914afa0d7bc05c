import type OpeningHours from 'opening_hours';
import type { WeeklyHours } from '../schema/common.js';
import { DAY_NAMES } from '../schema/common.js';
import { formatClock, intervalsToWeeklyHours, MINUTES_PER_DAY, MINUTES_PER_WEEK } from './weekly-slots.js';
import { requirePackage } from './lazy-package.js';

/**
 * opening_hours' class, read at the first conversion (lazy-package.ts). Taken before a `try`
 * that reads a value's rejection: a package that cannot be loaded is not an unparsed value.
 */
function openingHoursClass(): typeof OpeningHours {
  return requirePackage<typeof OpeningHours>('opening_hours');
}

/**
 * OSM `opening_hours` to the interface's weekly groups, using the `opening_hours` library
 * (the reference implementation) as the only parser and evaluator.
 *
 * Method: the library evaluates a value over real dates in the process's local time zone,
 * and reads them back through the local date fields. We evaluate it over whole weeks of the
 * reference year 2026 (weeks from Monday 2026-01-05, local midnights) and read each open
 * interval's ends as local wall-clock minutes of the week, the library's own semantics. So
 * the result does not depend on the process time zone, and nothing global is set.
 * No holiday calendar is given to the library (it then uses its default calendar), and the
 * weeks holding one of its public or school holidays are not used for values with
 * `PH`/`SH`: those rules are reported as left out.
 *
 * - Week-stable values (`isWeekStable()`): the first week without a clock change in the
 *   process zone is the answer, exactly.
 * - Other values (month/date/week/year ranges, `PH`, `SH`, sunrise/sunset, nth weekday):
 *   every week of 2026 is evaluated (holiday weeks excepted, see above). One pattern for
 *   all weeks: exact. Otherwise the most common week is used when it holds for at least
 *   more than half of the weeks and opens at all (approximated, with a note); else the hours are
 *   left out (with a note). In a week with a clock change in the process zone, a time inside the skipped or
 *   repeated hour can read differently; only such a week's vote can change.
 * - A value with unknown-state spans (open end `10:00+`, `unknown`, comment-only rules) has
 *   no hours (with a note), even when other days have times: the weekly form cannot say
 *   "unknown" for part of a week, and every minute it leaves out reads as closed, so keeping
 *   the other days would call the venue closed when the source says it is open from 10:00.
 *   Comments on open spans are dropped with a note.
 * - A value without any digit that opens at some time (`open`, `Mo-Fr`) states no times:
 *   left out with a note. `24/7`, `off` and `closed` convert exactly.
 * - A value the library rejects: no hours, note `unparsed: <reason>`.
 */

export type OpeningHoursStatus =
  /** Equal to the library at every instant of every ordinary week of 2026. */
  | 'exact'
  /** Equal to the library in every ordinary week; holiday rules (PH/SH) or comments were left out. */
  | 'exact_with_notes'
  /** Hours present but differ from the library somewhere (see notes). */
  | 'approximated'
  /** No hours: nothing reliable to express (see notes). */
  | 'omitted'
  /** The library could not parse the value. */
  | 'unparsed';

export interface OpeningHoursConversion {
  readonly status: OpeningHoursStatus;
  /** Absent for `omitted` and `unparsed`. */
  readonly hours?: WeeklyHours;
  /** What was approximated or left out, human readable; empty when `exact`. */
  readonly notes: readonly string[];
}

/** Monday 2026-01-05, the first Monday of the reference year. */
const REFERENCE_YEAR = 2026;
const FIRST_MONDAY_DATE = 5;
const WEEKS_IN_YEAR = 52;
const MS_PER_MINUTE = 60_000;
const MAX_SPANS_IN_NOTE = 3;

interface WeekEvaluation {
  /** Open intervals of known state, `[start, end)` pairs in minutes of week. */
  readonly known: number[];
  /** Unknown-state intervals, same layout. */
  readonly unknown: number[];
  readonly unknownComments: Set<string>;
  readonly openComments: Set<string>;
  /** False when a boundary is not on a whole minute (variable times). */
  readonly wholeMinutes: boolean;
}

/** Local midnight of day `offset` after the first Monday of the reference year. */
function localDay(offsetDays: number): Date {
  return new Date(REFERENCE_YEAR, 0, FIRST_MONDAY_DATE + offsetDays);
}

/** True when every day of week `k` starts at local midnight and the UTC offset is constant. */
function isUniformWeek(k: number): boolean {
  const start = localDay(7 * k);
  const offset = start.getTimezoneOffset();
  for (let d = 0; d <= 7; d++) {
    const t = localDay(7 * k + d);
    if (t.getHours() !== 0 || t.getMinutes() !== 0 || t.getTimezoneOffset() !== offset) return false;
    if (t.getTime() - start.getTime() !== d * MINUTES_PER_DAY * MS_PER_MINUTE) return false;
  }
  return true;
}

/**
 * Local wall-clock minute of the week of `date` (Monday 00:00 = 0), read from the local
 * fields, as the library itself reads its dates. `weekEnd` maps to 10080.
 */
function wallMinuteOfWeek(date: Date, weekEnd: Date): number {
  if (date.getTime() >= weekEnd.getTime()) return MINUTES_PER_WEEK;
  return ((date.getDay() + 6) % 7) * MINUTES_PER_DAY + date.getHours() * 60 + date.getMinutes();
}

function evaluateWeek(oh: OpeningHours, k: number): WeekEvaluation {
  const start = localDay(7 * k);
  const end = localDay(7 * k + 7);
  const result: WeekEvaluation = {
    known: [],
    unknown: [],
    unknownComments: new Set(),
    openComments: new Set(),
    wholeMinutes: true,
  };
  let whole = true;
  for (const [from, to, unknown, comment] of oh.getOpenIntervals(start, end)) {
    if (from.getSeconds() !== 0 || from.getMilliseconds() !== 0 || to.getSeconds() !== 0 || to.getMilliseconds() !== 0) whole = false;
    const a = wallMinuteOfWeek(from, end);
    const b = wallMinuteOfWeek(to, end);
    if (b <= a) continue; // only possible inside a clock change of the process zone
    const target = unknown ? result.unknown : result.known;
    target.push(a, b);
    if (comment !== undefined && comment !== '') (unknown ? result.unknownComments : result.openComments).add(comment);
  }
  return { ...result, wholeMinutes: whole };
}

function describeSpans(intervals: readonly number[]): string {
  const at = (m: number): string => `${DAY_NAMES[Math.floor(m / MINUTES_PER_DAY) % 7]} ${formatClock(m % MINUTES_PER_DAY)}`;
  const parts: string[] = [];
  for (let i = 0; i + 1 < intervals.length && parts.length < MAX_SPANS_IN_NOTE; i += 2) {
    const a = intervals[i] as number;
    const b = intervals[i + 1] as number;
    const sameDay = Math.floor(a / MINUTES_PER_DAY) === Math.floor((b - 1) / MINUTES_PER_DAY);
    // a span of the whole week would read "Mon 00:00 to Mon 00:00"
    if (b - a >= MINUTES_PER_WEEK) parts.push('all week');
    else parts.push(sameDay ? `${at(a)}-${formatClock(b - Math.floor(a / MINUTES_PER_DAY) * MINUTES_PER_DAY)}` : `${at(a)} to ${at(b)}`);
  }
  const more = intervals.length / 2 - parts.length;
  return parts.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function quoted(comments: Iterable<string>): string {
  return [...comments].map((c) => JSON.stringify(c)).join(', ');
}

let holidayWeeksCache: Set<number> | undefined;

/**
 * Weeks of 2026 (index from the first Monday) that contain a public or school holiday in the
 * library's default calendar (used when no location is given). Values with `PH`/`SH` are
 * judged on the other weeks only. Week and holiday boundaries are both local midnights, so
 * the set does not depend on the process time zone.
 */
export function holidayWeeks(): ReadonlySet<number> {
  if (holidayWeeksCache) return holidayWeeksCache;
  const weeks = new Set<number>();
  for (const probe of ['PH', 'SH']) {
    const oh = new (openingHoursClass())(probe, null, 0);
    for (let k = 0; k < WEEKS_IN_YEAR; k++) {
      if (oh.getOpenIntervals(localDay(7 * k), localDay(7 * k + 7)).length > 0) weeks.add(k);
    }
  }
  holidayWeeksCache = weeks;
  return weeks;
}

/** Strips quoted comments so that selector keywords are only looked for in rules. */
function withoutComments(value: string): string {
  return value.replace(/"[^"]*"/g, '""');
}

/** Latest end, minutes after midnight, of a previous night's hours a rewrite may keep. */
const NIGHT_SPILL_MINUTES = 12 * 60;

/** A time range that runs past midnight: `18:00-02:00`, `12:00-25:00`, `12:00-24:30`. */
const PAST_MIDNIGHT = /\b(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\b/g;

function runsPastMidnight(rule: string): boolean {
  for (const [, h1, m1, h2, m2] of rule.matchAll(PAST_MIDNIGHT)) {
    const from = Number(h1) * 60 + Number(m1);
    const to = Number(h2) * 60 + Number(m2);
    if (to > MINUTES_PER_DAY || (to < from && to > 0)) return true;
  }
  return false;
}

/**
 * OSM's rule cascade lets a later rule replace a whole day, so `Fr-Sa 12:00-01:00; Su
 * 12:00-23:00` closes Saturday night at 24:00: the Sunday rule also wipes Saturday's hour
 * past midnight. The library warns of some such values ("you can make this rule an
 * additional rule by using a ','"), and on real data the mapper meant the night (audit 72e
 * F1: 123 venues of the London pubs and Veggiekarte). This reads each rule that follows a
 * rule running past midnight as an additional rule ("," for ";") when that keeps only
 * previous nights' hours past midnight (each added span starts at a midnight the night
 * before reaches, and ends by 12:00), adds some, and changes nothing else in `week`;
 * otherwise (`Su off` meant to close Saturday night too) null, and the cascade stands.
 * Values with comments are left as they are (a ";" may sit inside one).
 */
function withNightsKept(value: string, oh: OpeningHours, week: number): { oh: OpeningHours; rules: string[] } | null {
  if (value.includes('"') || !oh.isWeekStable()) return null;
  const parts = value.split(';');
  const rules: string[] = [];
  let rewritten = parts[0]!;
  for (let k = 1; k < parts.length; k++) {
    const joined = runsPastMidnight(parts[k - 1]!);
    if (joined) rules.push(parts[k]!.trim());
    rewritten += `${joined ? ',' : ';'}${parts[k]}`;
  }
  if (rules.length === 0) return null;
  let kept: OpeningHours;
  const OpeningHoursClass = openingHoursClass();
  try {
    kept = new OpeningHoursClass(rewritten, null, 0);
  } catch {
    return null;
  }
  if (!kept.isWeekStable()) return null;
  const before = evaluateWeek(oh, week);
  const after = evaluateWeek(kept, week);
  if (before.unknown.join() !== after.unknown.join()) return null;
  const openBefore = openMinutes(before.known);
  const openAfter = openMinutes(after.known);
  let added = 0;
  for (let m = 0; m < MINUTES_PER_WEEK; m++) {
    if (openBefore[m] === 1 && openAfter[m] === 0) return null;
    if (openAfter[m] === 1 && openBefore[m] === 0) {
      added++;
      // an added minute: its run must begin at a midnight the night before reached
      let start = m;
      while (start % MINUTES_PER_DAY !== 0 && openAfter[start - 1] === 1 && openBefore[start - 1] === 0) start--;
      if (start % MINUTES_PER_DAY !== 0 || m - start >= NIGHT_SPILL_MINUTES) return null;
      if (openBefore[(start + MINUTES_PER_WEEK - 1) % MINUTES_PER_WEEK] !== 1) return null;
    }
  }
  return added > 0 ? { oh: kept, rules } : null;
}

/** Which minutes of the week `[start, end)` pairs open (1). */
function openMinutes(intervals: readonly number[]): Uint8Array {
  const open = new Uint8Array(MINUTES_PER_WEEK);
  for (let i = 0; i + 1 < intervals.length; i += 2) open.fill(1, Math.max(0, intervals[i]!), Math.min(MINUTES_PER_WEEK, intervals[i + 1]!));
  return open;
}

/** Converts one OSM `opening_hours` value; never throws for a value (a rejected one is `unparsed`), only if the opening_hours package cannot be loaded. */
export function convertOsmOpeningHours(value: string): OpeningHoursConversion {
  let oh: OpeningHours;
  const OpeningHoursClass = openingHoursClass();
  try {
    // mode 0: time ranges only; no nominatim object: no holiday calendar, see module comment.
    oh = new OpeningHoursClass(value, null, 0);
  } catch (err) {
    const reason = String(err instanceof Error ? err.message : err).split('\n')[0] ?? '';
    return { status: 'unparsed', notes: [`unparsed: the opening_hours library rejected the value (${reason.slice(0, 200)})`] };
  }

  const rules = withoutComments(value);
  const holidays = /\b(PH|SH)\b/.test(rules);
  const skipWeeks = holidays ? holidayWeeks() : new Set<number>();
  const stable = oh.isWeekStable();
  // Every non-holiday week of 2026 (a fixed set, whatever the process zone); a week-stable
  // value needs only one, and takes the first without a clock change in the process zone.
  const candidateWeeks: number[] = [];
  for (let k = 0; k < WEEKS_IN_YEAR; k++) if (!skipWeeks.has(k)) candidateWeeks.push(k);
  const firstWeek = candidateWeeks.find(isUniformWeek);
  if (firstWeek === undefined) {
    return { status: 'omitted', notes: ['left out: no week of 2026 without a clock change in this process time zone'] };
  }

  const notes: string[] = [];
  const nights = withNightsKept(value, oh, firstWeek);
  if (nights !== null) {
    oh = nights.oh;
    notes.push(
      `kept past midnight: ${nights.rules.map((r) => JSON.stringify(r)).join(', ')} read as an additional rule ("," for ";"), so the night before keeps its hours past midnight (OSM's rule cascade would end that night at 24:00)`,
    );
  }
  let approximated = false;
  let week: WeekEvaluation;
  if (stable) {
    week = evaluateWeek(oh, firstWeek);
  } else {
    const counts = new Map<string, { count: number; week: WeekEvaluation }>();
    for (const k of candidateWeeks) {
      const w = evaluateWeek(oh, k);
      const key = `${w.known.join(',')}|${w.unknown.join(',')}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { count: 1, week: w });
    }
    let best: { count: number; week: WeekEvaluation } | undefined;
    for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
    if (!best) return { status: 'omitted', notes: ['left out: no week could be evaluated'] };
    week = best.week;
    if (counts.size > 1) {
      if (best.count * 2 <= candidateWeeks.length) {
        return {
          status: 'omitted',
          notes: ['left out: the hours change from week to week through the year (date ranges or sunrise/sunset) and no weekly pattern holds for more than half of 2026'],
        };
      }
      if (best.week.known.length === 0 && best.week.unknown.length === 0) {
        // "Closed all week" would be read as a known answer; the venue does open in some weeks.
        return {
          status: 'omitted',
          notes: ['left out: open only in some weeks of the year (date ranges, nth weekday of the month or week numbers); most weeks have no opening'],
        };
      }
      approximated = true;
      notes.push(
        'approximated: the hours change through the year (month, date or week ranges, or variable times); regularOpeningHours shows the most common week of 2026',
      );
    }
  }

  if (holidays) {
    notes.push('left out: public/school holiday rules (PH/SH); regularOpeningHours covers ordinary weeks');
  }
  if (!week.wholeMinutes) {
    approximated = true;
    notes.push('approximated: variable times (sunrise/sunset) rounded to the minute');
  }
  if (week.unknown.length > 0) {
    approximated = true;
    const why = week.unknownComments.size > 0 ? ` (comment ${quoted(week.unknownComments)})` : '';
    notes.push(`left out: open-ended or unknown times${why}: ${describeSpans(week.unknown)}`);
  }
  if (week.openComments.size > 0) {
    notes.push(`left out: comment ${quoted(week.openComments)}`);
  }

  if (week.unknown.length > 0) {
    // The weekly form has no "unknown" span: a day or an evening left out would read as
    // closed, so a venue the source calls open (from 10:00, close unknown) would be closed.
    const why = week.known.length === 0 ? 'no opening time of known state' : 'the weekly form cannot say "unknown" for part of the week, and would read those times as closed';
    return { status: 'omitted', notes: [...notes, `left out: ${why}`] };
  }
  if (!/[0-9]/.test(rules) && week.known.length > 0 && !rules.includes('24/7')) {
    return { status: 'omitted', notes: [...notes, `left out: ${JSON.stringify(value)} gives no times`] };
  }

  // An interval may reach exactly the end of the week (10080); nothing lies beyond it.
  const hours = intervalsToWeeklyHours(week.known.map((m) => Math.min(m, MINUTES_PER_WEEK)));
  const status: OpeningHoursStatus = approximated ? 'approximated' : notes.length > 0 ? 'exact_with_notes' : 'exact';
  return { status, hours, notes };
}
