/**
 * String patterns of the request schemas, each with what it asks for in words: error messages
 * (the engine's validation, src/search/validate-request.ts, and the HTTP adapter's,
 * src/http/http-errors.ts) name the meaning, not the regular expression. No TypeBox here.
 */

/** Years 0100 to 9999 (Date.UTC would read 0 to 99 as 1900 to 1999). */
const YEAR = '(?:0[1-9][0-9]{2}|[1-9][0-9]{3})';
/** A month and a day of it: 01-28 in every month, 29 and 30 in all but February, 31 in the seven long months. February 29 of a year that is not a leap year is the parse's to refuse. */
const MONTH_DAY = '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31|02-29)';
const FRACTION = '(?:\\.[0-9]{1,9})?';
/** Hours 00-23 and minutes 00-59, optional seconds 00-59 with a fraction; or the leap second, which exists only as 23:59:60 (RFC 3339 5.7). */
const TIME = `(?:(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9]${FRACTION})?|23:59:60${FRACTION})`;

/**
 * `openingConditions.atTime`: the syntax parseUtcTimestamp reads (src/search/validate-request.ts):
 * date, `T`, hours and minutes, optional seconds and a fraction of 1 to 9 digits, a UTC zone;
 * as strict as a regular expression reasonably is (audit 65c F2). Invariant: every text the
 * parse accepts matches. What only the parse refuses: February 29 of a year that is not a
 * leap year, and 9999-12-31T23:59:60 (the leap second would end in the year 10000).
 */
export const UTC_TIMESTAMP_PATTERN = `^${YEAR}-${MONTH_DAY}[Tt]${TIME}(?:[Zz]|[+-]00:?00)$`;

/** What UTC_TIMESTAMP_PATTERN and parseUtcTimestamp accept, in words. */
export const UTC_TIMESTAMP_MEANING = 'an ISO 8601 UTC timestamp in the years 100 to 9999, such as "2026-11-21T20:00:00Z"';

const MEANINGS: ReadonlyMap<string, string> = new Map([[UTC_TIMESTAMP_PATTERN, UTC_TIMESTAMP_MEANING]]);

/** A timestamp as UTC_TIMESTAMP_PATTERN's but with another offset (`-04:00`, `+0530`): the date and time, the sign, hours, minutes. */
const OFFSET_TIMESTAMP = new RegExp(`^(${YEAR}-${MONTH_DAY}[Tt]${TIME})([+-])([01][0-9]|2[0-3]):?([0-5][0-9])$`);

/**
 * For a timestamp with an offset other than UTC's, which the interface refuses ("ISO 8601 UTC
 * timestamp"): the same instant in UTC, as the refusal suggests it (audit 70g F4: an app in New
 * York sends `-04:00` and was told only what the field must be). Undefined for any other text.
 */
export function utcSpellingOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = OFFSET_TIMESTAMP.exec(value);
  if (m === null) return undefined;
  const local = Date.parse(`${m[1]!.toUpperCase()}Z`);
  if (Number.isNaN(local)) return undefined;
  const offsetMinutes = (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
  const utc = new Date(local - offsetMinutes * 60_000);
  return Number.isNaN(utc.getTime()) ? undefined : utc.toISOString().replace('.000Z', 'Z');
}

/** A timestamp's date, whatever its numbers: year, month, day. */
const DATED = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]/;
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Why a timestamp's date is none, in words ("February 2026 has 28 days", "there is no month
 * 13"), or undefined when it is one or is not written as a date (audit 71c: "2026-02-30" was
 * told only what the field must be).
 */
export function missingDateReason(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATED.exec(value);
  if (m === null) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // years 0 to 99 are out of range whatever the date (and Date.UTC would read them as 1900 to 1999)
  if (year < 100) return undefined;
  if (month < 1 || month > 12) return `there is no month ${m[2]!}`;
  // day 0 of the next month is the last of this one
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `${MONTH_NAMES[month - 1]!} ${m[1]!} has ${days} days`;
  return undefined;
}

/**
 * What a request schema's `pattern` asks for, in words, given the `value` refused; undefined
 * for a pattern not listed here. A timestamp refused only for its offset is told its UTC
 * spelling; one whose date does not exist, why.
 */
export function patternMeaning(pattern: unknown, value?: unknown): string | undefined {
  const meaning = typeof pattern === 'string' ? MEANINGS.get(pattern) : undefined;
  if (meaning !== UTC_TIMESTAMP_MEANING) return meaning;
  const utc = utcSpellingOf(value);
  if (utc !== undefined) return `${meaning} (offsets other than UTC are refused: that instant is ${JSON.stringify(utc)})`;
  const noDate = missingDateReason(value);
  return noDate === undefined ? meaning : `${meaning} (no such date: ${noDate})`;
}
