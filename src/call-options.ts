/**
 * The options objects of the public calls, checked at the boundary so that a JavaScript
 * caller (no compiler to catch a typo) gets an error naming the option, never a TypeError
 * from inside or an option silently ignored:
 * - absent (`undefined`) or a plain object, not `null`, an array, a primitive or a Map (a
 *   Map's entries are not options: plain-data.ts);
 * - only the keys the call takes (`{ limt: 5 }` is refused, naming `options.limt`);
 * - `now`, where taken, an instant the opening-hours tables cover (years 100 to 9999, ms
 *   since the epoch), named `options.now` (the request's own `atTime` is checked apart).
 * Each option's own range (limit, offset, recordCacheSize, ...) is checked where it is used.
 */
import { describeValue, invalidRequest, VenueSearchError } from './errors.js';
import { isSupportedInstant } from './hours/local-clock.js';
import { isPlainObject } from './plain-data.js';
import { didYouMeanName, type NamePlace } from './schema/unknown-name.js';

/** `options` as the call's options object (see the module comment); `{}` when absent. `place`: where a key belongs instead, for the hint (src/schema/unknown-name.ts). */
export function checkCallOptions(options: unknown, keys: readonly string[], name = 'options', place?: NamePlace): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isPlainObject(options)) invalidRequest(name, options, 'a plain object (or left out)');
  const record = options as Record<string, unknown>;
  // for-in, not Object.keys: no array per call (search calls this every time)
  for (const key in record) {
    if (!keys.includes(key) && Object.hasOwn(record, key)) {
      throw new VenueSearchError('invalid_request', `${name}.${key} is not an option of this call${didYouMeanName(key, keys, place)} (its options: ${keys.join(', ')}); got ${describeValue(record[key])}`, {
        param: `${name}.${key}`,
        value: record[key],
      });
    }
  }
  if (keys.includes('now') && record['now'] !== undefined && !isSupportedInstant(record['now'])) {
    invalidRequest(`${name}.now`, record['now'], 'ms since the epoch in the years 100 to 9999');
  }
  return record;
}
