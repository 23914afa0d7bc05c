/**
 * String patterns of the request schemas, each with what it asks for in words: error messages
 * (the engine's validation, src/search/validate-request.ts, and the HTTP adapter's,
 * src/http/http-errors.ts) name the meaning, not the regular expression. No TypeBox here.
 */

/**
 * `openingConditions.atTime`: the syntax parseUtcTimestamp reads (src/search/validate-request.ts):
 * date, `T`, hours and minutes, optional seconds (60: a leap second) and a fraction of 1 to 9
 * digits, a UTC zone. Dates that do not exist (`2026-02-30`) match and are refused by the parse.
 */
export const UTC_TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\\.[0-9]{1,9})?)?(?:[Zz]|[+-]00:?00)$';

/** What UTC_TIMESTAMP_PATTERN and parseUtcTimestamp accept, in words. */
export const UTC_TIMESTAMP_MEANING = 'an ISO 8601 UTC timestamp in the years 100 to 9999, such as "2026-11-21T20:00:00Z"';

const MEANINGS: ReadonlyMap<string, string> = new Map([[UTC_TIMESTAMP_PATTERN, UTC_TIMESTAMP_MEANING]]);

/** What a request schema's `pattern` asks for, in words; undefined for a pattern not listed here. */
export function patternMeaning(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? MEANINGS.get(pattern) : undefined;
}
