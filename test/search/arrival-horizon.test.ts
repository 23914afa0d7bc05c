/**
 * Open on arrival, when the arrival comes more than two days after the departure (audit
 * 59a): a long route on foot crossing the night British clocks go forward. The venue's
 * clock must be read with the offset of the arrival, not the departure's.
 * Oracle: Intl's own Europe/London clock at the arrival instant, the arrival being the
 * departure plus docs/search.md's WALK minutes (1.3 x the distance at 4.8 km/h) of the
 * venue's position along the route; arrivals are placed 30 minutes from any opening edge,
 * so the travel model's rounding cannot decide them.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';

const pub = {
  id: 'sunday-pub',
  name: 'Sunday Noon Pub',
  location: { type: 'Point' as const, coordinates: [51.51, -0.13] as [number, number] },
  timeZone: 'Europe/London',
  regularOpeningHours: [{ days: ['Sun' as const], timeSlots: [{ open: '12:00', close: '22:00', isClosed: false, closeNextDay: false }] }],
};
/** About 300 km on foot, west to east, ending at the pub: some 80 hours. */
const route = [{ lat: 51.51, lon: -4.5, travelMode: 'WALK' as const }, { lat: 51.51, lon: -0.13 }];
const WALK_MINUTES_PER_METRE = (1.3 / 4800) * 60;
/** Minutes on foot to a venue of a PATH answer: its position along the route, then off it. */
const travelMinutes = (v: { alongRouteMeters?: number | undefined; distanceMeters: number }) => (v.alongRouteMeters! + v.distanceMeters) * WALK_MINUTES_PER_METRE;

function londonClock(ms: number): { weekday: string; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { weekday: get('weekday'), minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

describe('open on arrival more than 48 hours after the departure', () => {
  const engine = createEngine([pub]);
  const search = (departureMs: number, stayMinutes = 0) =>
    engine.search(
      { locations: route, mode: { mode: 'PATH', maxDistance: 1000 }, preferences: { openingConditions: { state: 'OPEN', atTime: new Date(departureMs).toISOString(), onArrival: true, stayMinutes } } },
      { limit: 1 },
    ).establishments[0]!;

  it.each([
    // clocks go forward at 01:00 UTC on Sunday 29 March 2026
    ['12:30 BST, open (read with the departure offset: 11:30, before opening)', '2026-03-29T11:30:00Z', true],
    ['22:30 BST, closed (read with the departure offset: 21:30, open)', '2026-03-29T21:30:00Z', false],
  ])('arriving at %s', (_label, arrivalIso, open) => {
    const arrivalTarget = Date.parse(arrivalIso);
    const probe = search(arrivalTarget - 4 * 86_400_000);
    const departure = arrivalTarget - Math.round(travelMinutes(probe)) * 60_000;
    const venue = search(departure);
    const arrival = departure + travelMinutes(venue) * 60_000;
    expect(arrival - departure).toBeGreaterThan(48 * 3_600_000);
    const clock = londonClock(arrival);
    expect(clock.weekday).toBe('Sun');
    expect(clock.minute >= 12 * 60 && clock.minute < 22 * 60).toBe(open);
    expect(venue.isOpen).toBe(open);
  });

  it('a stay that runs past closing, arriving 30 minutes before it, is not open through', () => {
    // arrival 21:30 BST: open, but a 60-minute stay runs to 22:30 BST, past the 22:00 closing
    const arrivalTarget = Date.parse('2026-03-29T20:30:00Z');
    const departure = arrivalTarget - Math.round(travelMinutes(search(arrivalTarget - 4 * 86_400_000))) * 60_000;
    const arrival = departure + travelMinutes(search(departure, 60)) * 60_000;
    expect(londonClock(arrival).minute).toBeGreaterThan(21 * 60 + 25);
    expect(londonClock(arrival).minute).toBeLessThan(21 * 60 + 35);
    // isOpen is the state at the arrival (docs/search.md); the stay decides the preference
    expect(search(departure, 0).isOpen).toBe(true);
    expect(search(departure, 0).relaxed).not.toContain('openingConditions');
    expect(search(departure, 60).isOpen).toBe(true);
    expect(search(departure, 60).relaxed).toContain('openingConditions');
  });
});
