/**
 * The `atTime` pattern the OpenAPI document publishes is as strict as a regular expression
 * reasonably is (audit 65c F2): on a generated grid of timestamps, ajv (JSON Schema 2020-12,
 * the served document's own schema) accepts every one the server's parse accepts, and refuses
 * every one it refuses except the two kinds the description names (February 29 of a year that
 * is not a leap year, 9999-12-31T23:59:60). The oracle is a calendar written here: days per
 * month with the Gregorian leap-year rule, never the code under test.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSupportedInstant } from '../../src/hours/local-clock.js';
import { parseUtcTimestamp } from '../../src/search/validate-request.js';
import { createHarness, type Harness } from '../http/support/harness.js';

let h: Harness;
let atTimeSchema: Record<string, unknown>;
beforeAll(async () => {
  h = await createHarness();
  const res = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  atTimeSchema = findProperty(res.json(), 'atTime')!;
});
afterAll(async () => {
  await h.close();
});

/** The first schema in `doc` with a property `name`, that property's schema. */
function findProperty(doc: unknown, name: string): Record<string, unknown> | undefined {
  if (typeof doc !== 'object' || doc === null) return undefined;
  const properties = (doc as { properties?: Record<string, Record<string, unknown>> }).properties;
  if (properties?.[name] !== undefined) return properties[name];
  for (const value of Object.values(doc)) {
    const found = findProperty(value, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Does this timestamp exist (years 100-9999, a real calendar day, leap second only at 23:59:60, not past 9999)? */
function exists(p: Parts): boolean {
  if (p.year < 100 || p.year > 9999 || p.month < 1 || p.month > 12 || p.hour > 23 || p.minute > 59 || p.second > 60) return false;
  const days = p.month === 2 && isLeapYear(p.year) ? 29 : DAYS[p.month - 1]!;
  if (p.day < 1 || p.day > days) return false;
  if (p.second === 60 && !(p.hour === 23 && p.minute === 59)) return false;
  return !(p.second === 60 && p.year === 9999 && p.month === 12 && p.day === 31);
}

/** The two refusals the description states are beyond the pattern. */
function refusedBeyondThePattern(p: Parts): boolean {
  const otherwiseValid = p.year >= 100 && p.hour <= 23 && p.minute <= 59 && p.second <= 60 && (p.second < 60 || (p.hour === 23 && p.minute === 59));
  const feb29OfCommonYear = otherwiseValid && p.month === 2 && p.day === 29 && !isLeapYear(p.year);
  const lastLeapSecond = p.year === 9999 && p.month === 12 && p.day === 31 && p.hour === 23 && p.minute === 59 && p.second === 60;
  return feb29OfCommonYear || lastLeapSecond;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function* grid(): Generator<{ text: string; parts: Parts }> {
  const years = [0, 99, 100, 101, 1900, 2000, 2024, 2026, 9999];
  const days = [0, 1, 9, 10, 19, 20, 28, 29, 30, 31, 32];
  const hours = [0, 9, 10, 19, 20, 23, 24, 29];
  const minutes = [0, 59, 60];
  const seconds = [0, 9, 59, 60, 61];
  const tails = ['Z', '.5+00:00', '.123456789z', '-0000'];
  let k = 0;
  for (const year of years)
    for (let month = 0; month <= 13; month++)
      for (const day of days)
        for (const hour of hours)
          for (const minute of minutes) {
            const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}`;
            yield { text: `${date}Z`, parts: { year, month, day, hour, minute, second: 0 } };
            for (const second of seconds) yield { text: `${date}:${pad(second, 2)}${tails[k++ % tails.length]}`, parts: { year, month, day, hour, minute, second } };
          }
}

describe('the published atTime pattern (audit 65c F2)', () => {
  it('admits every timestamp the server accepts, and refuses every other one but the two the description names', () => {
    expect(typeof atTimeSchema['pattern']).toBe('string');
    expect(String(atTimeSchema['description'])).toContain('February 29');
    const check = new Ajv2020({ strict: false }).compile(atTimeSchema);
    let accepted = 0;
    let beyond = 0;
    for (const { text, parts } of grid()) {
      const valid = exists(parts);
      const parsed = parseUtcTimestamp(text);
      // the server's reading agrees with the calendar
      expect([text, !Number.isNaN(parsed) && isSupportedInstant(parsed)]).toEqual([text, valid]);
      const admitted = check(text);
      if (valid) {
        accepted++;
        expect([text, admitted]).toEqual([text, true]);
      } else if (refusedBeyondThePattern(parts)) {
        beyond++;
        expect([text, admitted]).toEqual([text, true]);
      } else expect([text, admitted]).toEqual([text, false]);
    }
    // both answers and the stated exceptions are exercised
    expect(accepted).toBeGreaterThan(5_000);
    expect(beyond).toBeGreaterThan(50);
  });

  it.each(['0000-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '2026-11-21T12:00:60Z', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-11-21T24:00:00Z', '2026-11-21T23:60:00Z'])(
    'the audit\'s schema-valid refusal %s is now outside the pattern',
    (text) => {
      expect(new Ajv2020({ strict: false }).compile(atTimeSchema)(text)).toBe(false);
    },
  );
});
