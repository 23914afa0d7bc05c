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

/** What a request schema's `pattern` asks for, in words; undefined for a pattern not listed here. */
export function patternMeaning(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? MEANINGS.get(pattern) : undefined;
}
