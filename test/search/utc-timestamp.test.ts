// parseUtcTimestamp (atTime) against hand-computed instants and, on thousands of mutated
// texts, against an independent reading of the same grammar: a regular expression and
// Date.UTC, written here (the function itself reads character by character). The schema's
// pattern (what the OpenAPI document publishes) is checked against the same grammar.
import { describe, expect, it } from 'vitest';
import { UTC_TIMESTAMP_PATTERN } from '../../src/schema/pattern-meanings.js';
import { parseUtcTimestamp } from '../../src/search/validate-request.js';
import { Rng } from '../../scripts/fixtures/random.js';

/** The grammar as a regular expression: date, time, optional :SS and fraction, a UTC zone (T and Z in either case, RFC 3339 5.6). */
const GRAMMAR = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]00:?00)$/;

function oracle(text: string): number {
  const m = GRAMMAR.exec(text);
  if (m === null) return Number.NaN;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((g) => Number(m[g]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Math.floor(Number(m[7]) * 1000);
  // A leap second exists only as 23:59:60 (RFC 3339 5.7); it is read as the next second.
  const leap = second === 60 && hour === 23 && minute === 59;
  if (year! < 100 || month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || (second > 59 && !leap)) return Number.NaN;
  // The day is checked on the instant before the leap second (which may fall on the next day).
  const before = Date.UTC(year!, month! - 1, day!, hour!, minute!, leap ? 59 : second, ms);
  if (new Date(before).getUTCDate() !== day) return Number.NaN;
  return leap ? before + 1000 : before;
}

describe('parseUtcTimestamp', () => {
  it('reads the forms the interface allows, to the millisecond', () => {
    // 2026-11-21 is day 20,778 after 1970-01-01: 56 years with 14 leap days (56 * 365 + 14 =
    // 20,454) to 2026-01-01, then 304 days of January to October and 20 of November.
    const day = 20_778 * 86_400_000;
    expect(parseUtcTimestamp('2026-11-21T20:00:00Z')).toBe(day + 20 * 3_600_000);
    expect(parseUtcTimestamp('2026-11-21T20:00Z')).toBe(day + 20 * 3_600_000);
    expect(parseUtcTimestamp('2026-11-21T20:05:07+00:00')).toBe(day + 20 * 3_600_000 + 5 * 60_000 + 7_000);
    expect(parseUtcTimestamp('2026-11-21T20:05:07-0000')).toBe(day + 20 * 3_600_000 + 5 * 60_000 + 7_000);
    expect(parseUtcTimestamp('2026-11-21T00:00:00.5Z')).toBe(day + 500);
    expect(parseUtcTimestamp('2026-11-21T00:00:00.123456789Z')).toBe(day + 123);
    expect(parseUtcTimestamp('2028-02-29T12:00Z')).toBe(Date.UTC(2028, 1, 29, 12));
    // the first and last years accepted (docs/hours.md), against Date's own ISO reading
    expect(parseUtcTimestamp('0100-01-01T00:00Z')).toBe(Date.parse('0100-01-01T00:00:00Z'));
    expect(parseUtcTimestamp('9999-12-31T23:59:59.999Z')).toBe(Date.parse('9999-12-31T23:59:59.999Z'));
    // RFC 3339 allows lower-case t and z
    expect(parseUtcTimestamp('2026-11-21t20:00:00z')).toBe(day + 20 * 3_600_000);
    // the leap second at the end of 2016: the first instant of 2017, as POSIX time counts it
    expect(parseUtcTimestamp('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
    expect(parseUtcTimestamp('2016-12-31T23:59:60.25Z')).toBe(Date.UTC(2017, 0, 1) + 250);
  });

  it('refuses the years 0 to 99 (Date.UTC would read them as 1900 to 1999)', () => {
    for (const text of ['0000-01-01T00:00Z', '0001-01-01T12:00:00Z', '0050-06-01T12:00Z', '0099-12-31T23:59Z']) expect(parseUtcTimestamp(text), text).toBeNaN();
  });

  it('refuses what is not such a timestamp', () => {
    for (const text of [
      '',
      '2026-11-21',
      '2026-11-21T20:00:00', // no zone
      '2026-11-21T20:00:00+01:00', // not UTC
      '2026-11-21 20:00:00Z',
      '2026-11-21T20:00:00.Z', // a dot without digits
      '2026-11-21T20:00:00.1234567890Z', // ten digits
      '2026-11-21T20:00.5Z', // a fraction without seconds
      '2026-13-01T00:00Z',
      '2026-00-01T00:00Z',
      '2026-02-29T00:00Z', // not a leap year
      '2026-04-31T00:00Z',
      '2026-11-21T24:00Z',
      '2026-11-21T23:60Z',
      '2026-11-21T22:59:60Z', // a leap second only ends a day
      '2026-11-21T23:58:60Z',
      '2026-11-21T23:59:61Z',
      '2026-11-21T20:00:00Zz',
      '2026-11-21T20:00:00ZZ',
      '2026-11-21T20:00:00+00:0',
      '2026-11-21T20:00:00+00:000',
      '2026-11-21T20:00:00+0:000',
      '２026-11-21T20:00Z', // a digit that is not ASCII
      ' 2026-11-21T20:00Z',
    ]) {
      expect(parseUtcTimestamp(text), text).toBeNaN();
    }
  });

  it('agrees with the regular expression and Date.UTC on mutated texts', () => {
    const rng = new Rng(61);
    const seeds = ['2026-11-21T20:00:00Z', '2026-02-28T23:59:59.999+00:00', '2024-02-29T00:00-0000', '0099-12-31T12:30:45.1Z', '2026-11-21T20:00:00.123456789+0000', '2016-12-31t23:59:60z'];
    const alphabet = '0123456789-:T.Z+ zt٣';
    const pattern = new RegExp(UTC_TIMESTAMP_PATTERN);
    let valid = 0;
    for (let k = 0; k < 20_000; k++) {
      let text = seeds[k % seeds.length]!;
      for (let edits = rng.int(0, 3); edits > 0; edits--) {
        const at = rng.int(0, text.length);
        const c = alphabet[rng.int(0, alphabet.length - 1)]!;
        const op = rng.int(0, 2);
        text = op === 0 ? text.slice(0, at) + c + text.slice(at + 1) : op === 1 ? text.slice(0, at) + c + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      }
      const want = oracle(text);
      expect(parseUtcTimestamp(text), text).toBe(want);
      // the published pattern admits every text the parse takes, and only texts of the grammar
      // (it is stricter than the grammar: audit 65c F2, test/schema/at-time-pattern.test.ts)
      if (!Number.isNaN(want)) expect(pattern.test(text), text).toBe(true);
      if (pattern.test(text)) expect(GRAMMAR.test(text), text).toBe(true);
      if (!Number.isNaN(want)) valid++;
    }
    // both kinds of answer are exercised
    expect(valid).toBeGreaterThan(2_000);
    expect(valid).toBeLessThan(18_000);
  });
});
