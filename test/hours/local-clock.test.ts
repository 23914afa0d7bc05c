import { describe, expect, it } from 'vitest';
import { VenueSearchError } from '../../src/errors.js';
import { LocalClock } from '../../src/hours/index.js';
import { processLocalMinuteOfWeek, withProcessTimeZone } from './oracles.js';

const at = (day: number, hh: number, mm = 0): number => day * 1440 + hh * 60 + mm; // Mon = 0
const SUN = 6;
const utc = (iso: string): number => Date.parse(iso);

// Hand-computed from the published 2026 clock changes.
describe('LocalClock.minuteOfWeek: named DST cases (wall-clock time)', () => {
  const clock = new LocalClock();
  it.each([
    // Europe/London, spring forward Sun 29 March 2026 01:00 UTC (01:00 GMT -> 02:00 BST)
    ['Europe/London', '2026-03-29T00:59:00Z', at(SUN, 0, 59), 0],
    ['Europe/London', '2026-03-29T01:00:00Z', at(SUN, 2, 0), 60],
    // Europe/London, fall back Sun 25 October 2026 01:00 UTC (02:00 BST -> 01:00 GMT):
    // local 01:00-01:59 happens twice
    ['Europe/London', '2026-10-25T00:30:00Z', at(SUN, 1, 30), 60],
    ['Europe/London', '2026-10-25T00:59:00Z', at(SUN, 1, 59), 60],
    ['Europe/London', '2026-10-25T01:00:00Z', at(SUN, 1, 0), 0],
    ['Europe/London', '2026-10-25T01:30:00Z', at(SUN, 1, 30), 0],
    // America/New_York: spring forward Sun 8 March 07:00 UTC, fall back Sun 1 November 06:00 UTC
    ['America/New_York', '2026-03-08T06:59:00Z', at(SUN, 1, 59), -300],
    ['America/New_York', '2026-03-08T07:00:00Z', at(SUN, 3, 0), -240],
    ['America/New_York', '2026-11-01T05:59:00Z', at(SUN, 1, 59), -240],
    ['America/New_York', '2026-11-01T06:00:00Z', at(SUN, 1, 0), -300],
    // Pacific/Auckland (a day ahead of UTC): DST ends Sun 5 April 03:00 NZDT = Sat 4 April
    // 14:00 UTC; starts Sun 27 September 02:00 NZST = Sat 26 September 14:00 UTC
    ['Pacific/Auckland', '2026-04-04T13:59:00Z', at(SUN, 2, 59), 780],
    ['Pacific/Auckland', '2026-04-04T14:00:00Z', at(SUN, 2, 0), 720],
    ['Pacific/Auckland', '2026-09-26T13:59:00Z', at(SUN, 1, 59), 720],
    ['Pacific/Auckland', '2026-09-26T14:00:00Z', at(SUN, 3, 0), 780],
    ['Pacific/Auckland', '2026-03-06T20:00:00Z', at(5, 9, 0), 780], // Friday UTC is Saturday there
    // half- and quarter-hour zones
    ['Asia/Kolkata', '2026-01-05T00:00:00Z', at(0, 5, 30), 330],
    ['Asia/Kathmandu', '2026-01-04T20:00:00Z', at(0, 1, 45), 345],
    // seconds are dropped; week wrap at Sunday 23:59 -> Monday 00:00
    ['UTC', '2026-01-04T23:59:59.999Z', at(SUN, 23, 59), 0],
    ['UTC', '2026-01-05T00:00:00Z', 0, 0],
    // before the epoch (1969-12-31 was a Wednesday)
    ['UTC', '1969-12-31T23:59:00Z', at(2, 23, 59), 0],
    // edges of the accepted range: 0100-01-01 was a Friday; local time there is still year 99
    ['UTC', '0100-01-01T00:00:00Z', at(4, 0, 0), 0],
    ['America/New_York', '0100-01-01T12:00:00Z', at(4, 7, 3), -297], // LMT -4:56:02, floored
    ['UTC', '9999-12-31T23:59:00Z', at(4, 23, 59), 0],
    // before a zone's first standard time, the tz database's local mean time (docs/hours.md):
    // London is LMT -0:01:15 until 1847-12-01 (a Wednesday), so noon UTC the day before is 11:58:45
    ['Europe/London', '1847-11-30T12:00:00Z', at(1, 11, 58), -2],
    ['Europe/London', '1847-12-01T12:00:00Z', at(2, 12, 0), 0],
  ])('%s at %s is minute %i (offset %i min)', (zone, iso, minute, offset) => {
    expect(clock.minuteOfWeek(zone, utc(iso))).toBe(minute);
    expect(clock.utcOffsetMinutes(zone, utc(iso))).toBe(offset);
  });
});

// Oracle: V8's own local-time computation (Date getters under process.env.TZ), a different
// code path from the Intl formatter the clock uses.
describe('LocalClock.minuteOfWeek against Date local getters under process.env.TZ', () => {
  const zones = [
    'Europe/London',
    'America/New_York',
    'Pacific/Auckland',
    'Australia/Lord_Howe', // 30-minute DST
    'Pacific/Chatham', // +12:45 / +13:45
    'America/St_Johns', // -03:30 / -02:30
    'Asia/Kathmandu',
    'Etc/GMT+2',
  ];
  it.each(zones)('%s: every 17 minutes through 2026 (30,000+ instants)', (zone) => {
    const clock = new LocalClock();
    const start = utc('2026-01-01T00:00:00Z');
    const end = utc('2027-01-01T00:00:00Z');
    const step = 17 * 60_000 + 13_000; // drifts across minute and hour boundaries
    const mismatches = withProcessTimeZone(zone, () => {
      const bad: string[] = [];
      for (let t = start; t < end; t += step) {
        if (clock.minuteOfWeek(zone, t) !== processLocalMinuteOfWeek(t)) bad.push(new Date(t).toISOString());
      }
      return bad;
    });
    expect(mismatches).toEqual([]);
  });
});

describe('LocalClock: batches, memo and errors', () => {
  it('minutesOfWeek answers per zone code, into a caller buffer too', () => {
    const clock = new LocalClock();
    const t = utc('2026-07-01T12:00:00Z'); // a Wednesday
    const names = ['Europe/London', 'America/New_York', 'Pacific/Auckland'];
    expect(Array.from(clock.minutesOfWeek(names, t))).toEqual([at(2, 13), at(2, 8), at(3, 0)]);
    const out = new Uint16Array(4);
    expect(clock.minutesOfWeek(names, t, out)).toBe(out);
    expect(() => clock.minutesOfWeek(names, t, new Uint16Array(2))).toThrow(RangeError);
  });

  it('the same UTC minute answers the same; the next minute moves on', () => {
    const clock = new LocalClock();
    const t = utc('2026-03-29T00:59:00Z');
    expect(clock.minuteOfWeek('Europe/London', t + 59_999)).toBe(at(SUN, 0, 59));
    expect(clock.minuteOfWeek('Europe/London', t)).toBe(at(SUN, 0, 59));
    expect(clock.minuteOfWeek('Europe/London', t + 60_000)).toBe(at(SUN, 2, 0));
  });

  it('NaN, Infinity or outside years 100-9999 is invalid_request atTime; unknown zone is invalid_request timeZone', () => {
    const clock = new LocalClock();
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 9e15, Date.UTC(100, 0, 1) - 1, Date.UTC(10000, 0, 1)]) {
      try {
        clock.minuteOfWeek('UTC', bad);
        expect.unreachable();
      } catch (err) {
        expect((err as VenueSearchError).code).toBe('invalid_request');
        expect((err as VenueSearchError).param).toBe('atTime');
      }
    }
    try {
      clock.minuteOfWeek('Mars/Olympus_Mons', 0);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(VenueSearchError);
      expect((err as VenueSearchError).param).toBe('timeZone');
    }
  });
});
