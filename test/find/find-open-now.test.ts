import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';

/**
 * find's `isOpen` (read from a venue's stored values, its `timeZone` picked apart) against
 * the local clock as Intl tells it: a venue open 09:00-17:00 every day is open exactly when
 * the wall clock of its zone (its own `timeZone`, else its coordinates' zone) reads 09:00 to
 * 16:59. Venues in London without a zone, and in London with another zone given.
 */
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const nineToFive = [{ days: [...DAYS], timeSlots: [{ open: '09:00', close: '17:00', isClosed: false, closeNextDay: false }] }];
const zones = [undefined, 'Asia/Tokyo', 'America/New_York', 'Australia/Adelaide', 'Europe/London'] as const;

const venues: VenueRecord[] = zones.map((timeZone, k) => ({
  id: `z${k}`,
  name: `Clockwork Cafe ${k}`,
  location: { type: 'Point', coordinates: [51.5074 + k * 0.001, -0.1278] },
  primaryGenre: 'cafe',
  regularOpeningHours: nineToFive,
  ...(timeZone !== undefined && { timeZone }),
}));
venues.push({ id: 'z-none', name: 'Clockwork Cafe without hours', location: { type: 'Point', coordinates: [51.51, -0.13] }, primaryGenre: 'cafe' });

/** Whether the wall clock of `zone` at `ms` reads from 09:00 to 16:59 (Intl, not our hours code). */
function openByIntl(zone: string, ms: number): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(ms);
  const hour = Number(parts.find((p) => p.type === 'hour')!.value);
  return hour >= 9 && hour < 17;
}

describe('find: isOpen in each venue\'s own zone', () => {
  it('every 50 minutes over two days, with and without a centre, matches the zone\'s local clock; a venue without hours is never open', () => {
    const engine = createEngine(venues);
    const problems: string[] = [];
    for (let ms = Date.UTC(2026, 5, 14, 0, 5); ms < Date.UTC(2026, 5, 16); ms += 50 * 60_000) {
      for (const params of [{ q: 'clockwork', limit: 20 }, { q: 'clockwork', lat: 51.508, lon: -0.128, maxDistanceMeters: 2000, limit: 20 }]) {
        const page = engine.find(params, { now: ms });
        if (page.establishments.length !== venues.length) problems.push(`${ms}: ${page.establishments.length} results`);
        for (const e of page.establishments) {
          const k = venues.findIndex((v) => v.id === e.id);
          const expected = venues[k]!.regularOpeningHours === undefined ? false : openByIntl(zones[k] ?? 'Europe/London', ms);
          if (e.isOpen !== expected) problems.push(`${new Date(ms).toISOString()} ${e.id} (${zones[k] ?? 'no zone'}): isOpen ${e.isOpen}, the clock says ${expected}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
