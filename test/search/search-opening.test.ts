// Opening conditions in search: each venue's own time zone, slots past midnight, both
// Europe/London clock changes, New York and Auckland, unknown hours, atTime against `now`.
// Expected states are worked out by hand from the local wall clock (noted per case).
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { WeeklyHours } from '../../src/schema/common.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createSearchService } from '../../src/search/index.js';
import { slot } from '../hours/oracles.js';

const LONDON = [51.5136, -0.1365] as const;
const NEW_YORK = [40.7308, -73.9973] as const;
const AUCKLAND = [-36.8485, 174.7633] as const;
const ALL_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

function venue(id: string, at: readonly [number, number], hours: WeeklyHours | undefined): VenueRecord {
  const r: VenueRecord = { id, name: id, location: { type: 'Point', coordinates: [at[0], at[1]] }, primaryGenre: 'pub' };
  if (hours) r.regularOpeningHours = hours;
  return r;
}

const venues: VenueRecord[] = [
  // Fri 18:00 - Sat 02:00 local.
  venue('late-friday', LONDON, [{ days: ['Fri'], timeSlots: [slot('18:00', '02:00', { closeNextDay: true })] }]),
  // Sunday 02:00-03:00 local: on 2026-03-29 local 01:00-01:59 never happens.
  venue('sunday-small-hours', LONDON, [{ days: ['Sun'], timeSlots: [slot('02:00', '03:00')] }]),
  // Sat 22:00 - Sun 01:30 local.
  venue('saturday-late', LONDON, [{ days: ['Sat'], timeSlots: [slot('22:00', '01:30', { closeNextDay: true })] }]),
  // Sunday 01:00-01:30 local: on 2026-10-25 that half hour happens twice.
  venue('repeated-half-hour', LONDON, [{ days: ['Sun'], timeSlots: [slot('01:00', '01:30')] }]),
  venue('evenings-london', LONDON, [{ days: [...ALL_DAYS], timeSlots: [slot('17:00', '23:00')] }]),
  venue('evenings-new-york', NEW_YORK, [{ days: [...ALL_DAYS], timeSlots: [slot('17:00', '23:00')] }]),
  venue('evenings-auckland', AUCKLAND, [{ days: [...ALL_DAYS], timeSlots: [slot('12:00', '22:00')] }]),
  venue('closed-sundays', LONDON, [
    { days: ['Sun'], timeSlots: [slot('00:00', '00:00', { isClosed: true })] },
    { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'], timeSlots: [slot('00:00', '00:00')] },
  ]),
  venue('hours-unknown', LONDON, undefined),
];

const engine = createEngine(venues);
const service = createSearchService(engine.store, engine.spatial);
const NOW = Date.UTC(2026, 10, 21, 12, 0); // Sat 2026-11-21 12:00 UTC

/** isOpen of each venue within `radius` of `at` at `atTime` (ISO) or at `now`. */
function openAt(at: readonly [number, number], atTime: string | undefined, now = NOW): Map<string, boolean> {
  const preferences = atTime ? { openingConditions: { state: 'OPEN' as const, atTime } } : undefined;
  const res = service.search(
    { locations: [{ lat: at[0], lon: at[1] }], mode: { mode: 'POINT', maxDistance: 1000 }, ...(preferences ? { preferences } : {}) },
    { limit: 100, now },
  );
  return new Map(res.establishments.map((e) => [e.id, e.isOpen]));
}

describe('search opening hours', () => {
  it('slot past midnight: Friday 18:00-02:00 is open at Saturday 01:30 and closed at 02:30 (GMT = UTC in November)', () => {
    expect(openAt(LONDON, '2026-11-21T01:30:00Z').get('late-friday')).toBe(true);
    expect(openAt(LONDON, '2026-11-21T02:30:00Z').get('late-friday')).toBe(false);
    expect(openAt(LONDON, '2026-11-20T17:59:00Z').get('late-friday')).toBe(false);
  });

  it('Europe/London spring forward (2026-03-29 01:00 UTC): 01:30 UTC is 02:30 BST, 00:30 UTC is 00:30 GMT', () => {
    expect(openAt(LONDON, '2026-03-29T01:30:00Z').get('sunday-small-hours')).toBe(true);
    expect(openAt(LONDON, '2026-03-29T00:30:00Z').get('sunday-small-hours')).toBe(false);
    // Saturday 22:00 - Sunday 01:30: 00:59 UTC is 00:59 GMT (open); 01:00 UTC is already 02:00 BST (closed).
    expect(openAt(LONDON, '2026-03-29T00:59:00Z').get('saturday-late')).toBe(true);
    expect(openAt(LONDON, '2026-03-29T01:00:00Z').get('saturday-late')).toBe(false);
  });

  it('Europe/London fall back (2026-10-25 01:00 UTC): local 01:00-01:30 is open both times it happens', () => {
    expect(openAt(LONDON, '2026-10-25T00:15:00Z').get('repeated-half-hour')).toBe(true); // 01:15 BST
    expect(openAt(LONDON, '2026-10-25T01:15:00Z').get('repeated-half-hour')).toBe(true); // 01:15 GMT
    expect(openAt(LONDON, '2026-10-25T01:45:00Z').get('repeated-half-hour')).toBe(false); // 01:45 GMT
    expect(openAt(LONDON, '2026-10-24T23:45:00Z').get('repeated-half-hour')).toBe(false); // 00:45 BST
  });

  it('America/New_York: 17:00-23:00 local is 22:00-04:00 UTC in November (EST, UTC-5)', () => {
    expect(openAt(NEW_YORK, '2026-11-21T22:30:00Z').get('evenings-new-york')).toBe(true); // 17:30 EST
    expect(openAt(NEW_YORK, '2026-11-21T21:30:00Z').get('evenings-new-york')).toBe(false); // 16:30 EST
    expect(openAt(NEW_YORK, '2026-11-22T03:59:00Z').get('evenings-new-york')).toBe(true); // 22:59 EST
    // the same hours in London at the same instant are evaluated on London's clock
    expect(openAt(LONDON, '2026-11-21T23:30:00Z').get('evenings-london')).toBe(false); // 23:30 GMT
    expect(openAt(NEW_YORK, '2026-11-21T23:30:00Z').get('evenings-new-york')).toBe(true); // 18:30 EST
  });

  it('America/New_York in July is EDT (UTC-4): 21:30 UTC is 17:30 local', () => {
    expect(openAt(NEW_YORK, '2026-07-15T21:30:00Z').get('evenings-new-york')).toBe(true);
    expect(openAt(NEW_YORK, '2026-07-15T20:30:00Z').get('evenings-new-york')).toBe(false);
  });

  it('Pacific/Auckland: NZDT (UTC+13) in November, the local day is a day ahead of UTC', () => {
    expect(openAt(AUCKLAND, '2026-11-21T07:00:00Z').get('evenings-auckland')).toBe(true); // Sat 20:00 NZDT
    expect(openAt(AUCKLAND, '2026-11-21T10:00:00Z').get('evenings-auckland')).toBe(false); // Sat 23:00 NZDT
    expect(openAt(AUCKLAND, '2026-11-20T22:30:00Z').get('evenings-auckland')).toBe(false); // Sat 11:30 NZDT
  });

  it('an isClosed slot never matches: closed-sundays is closed all Sunday and open on Saturday', () => {
    expect(openAt(LONDON, '2026-11-22T12:00:00Z').get('closed-sundays')).toBe(false);
    expect(openAt(LONDON, '2026-11-21T12:00:00Z').get('closed-sundays')).toBe(true);
  });

  it('atTime against an injected now: isOpen is computed for atTime when given, else for now', () => {
    const sundayNoon = Date.UTC(2026, 10, 22, 12, 0);
    const saturdayNoon = '2026-11-21T12:00:00Z';
    expect(openAt(LONDON, saturdayNoon, sundayNoon).get('closed-sundays')).toBe(true);
    expect(openAt(LONDON, undefined, sundayNoon).get('closed-sundays')).toBe(false);
    expect(openAt(LONDON, undefined, Date.UTC(2026, 10, 21, 12, 0)).get('closed-sundays')).toBe(true);
  });

  it('unknown hours never satisfy a non-compromise OPEN (nor CLOSED), score 0.5 when soft, and report isOpen false', () => {
    const base = { locations: [{ lat: LONDON[0], lon: LONDON[1] }], mode: { mode: 'POINT' as const, maxDistance: 1000 } };
    for (const state of ['OPEN', 'CLOSED'] as const) {
      const hard = service.search(
        { ...base, preferences: { openingConditions: { state, atTime: '2026-11-21T20:00:00Z' }, nonCompromise: ['openingConditions'] } },
        { limit: 100, now: NOW },
      );
      expect(hard.establishments.map((e) => e.id)).not.toContain('hours-unknown');
    }
    const soft = service.search({ ...base, preferences: { openingConditions: { state: 'OPEN', atTime: '2026-11-21T20:00:00Z' } } }, { limit: 100, now: NOW });
    const unknown = soft.establishments.find((e) => e.id === 'hours-unknown')!;
    expect(unknown.isOpen).toBe(false);
    expect(unknown.matchScore.openingMatch).toBe(0.5);
    expect(unknown.relaxed).toEqual(['openingConditions']);
  });

  it('state CLOSED with nonCompromise keeps exactly the venues closed at that instant (Sat 20:00 GMT)', () => {
    const res = service.search(
      {
        locations: [{ lat: LONDON[0], lon: LONDON[1] }],
        mode: { mode: 'POINT', maxDistance: 1000 },
        preferences: { openingConditions: { state: 'CLOSED', atTime: '2026-11-21T20:00:00Z' }, nonCompromise: ['openingConditions'] },
      },
      { limit: 100, now: NOW },
    );
    // Sat 20:00 GMT: evenings-london (17-23) and closed-sundays (open all Saturday) are open.
    expect(res.establishments.map((e) => e.id).sort()).toEqual(['late-friday', 'repeated-half-hour', 'saturday-late', 'sunday-small-hours']);
    expect(res.establishments.every((e) => !e.isOpen)).toBe(true);
  });

  // A stay is real minutes, whatever the wall clock does meanwhile (each case hand-computed).
  const staysOpen = (id: string, atTime: string, stayMinutes: number): boolean => {
    const one = createEngine([venues.find((v) => v.id === id) ?? smallHours]);
    return createSearchService(one.store, one.spatial)
      .search(
        {
          locations: [{ lat: LONDON[0], lon: LONDON[1] }],
          mode: { mode: 'POINT', maxDistance: 1000 },
          preferences: { openingConditions: { state: 'OPEN', atTime, stayMinutes }, nonCompromise: ['openingConditions'] },
        },
        { limit: 100, now: NOW },
      )
      .establishments.some((e) => e.id === id);
  };
  // Sunday 01:00-02:00 local
  const smallHours = venue('sunday-one-to-two', LONDON, [{ days: ['Sun'], timeSlots: [slot('01:00', '02:00')] }]);

  it('across the spring-forward jump: saturday-late (to 01:30 local) closes at the jump, 01:00 UTC; from 00:45 UTC 15 minutes fit, 16 do not', () => {
    // 2026-03-29: 00:59 GMT is followed by 02:00 BST, so 01:30 local never comes
    expect(staysOpen('saturday-late', '2026-03-29T00:45:00Z', 15)).toBe(true);
    expect(staysOpen('saturday-late', '2026-03-29T00:45:00Z', 16)).toBe(false);
    expect(staysOpen('saturday-late', '2026-03-29T00:45:00Z', 75)).toBe(false);
    // a week earlier, no change: it closes at 01:30 GMT = 01:30 UTC
    expect(staysOpen('saturday-late', '2026-03-22T00:45:00Z', 45)).toBe(true);
    expect(staysOpen('saturday-late', '2026-03-22T00:45:00Z', 46)).toBe(false);
  });

  it('across the fall-back repeat: Sunday 01:00-02:00 local happens twice, so from 00:30 UTC (01:30 BST) 90 real minutes fit, 91 do not', () => {
    // 2026-10-25: 00:00-00:59 UTC is 01:00-01:59 BST, then 01:00-01:59 UTC is 01:00-01:59 GMT; closed from 02:00 UTC
    expect(staysOpen('sunday-one-to-two', '2026-10-25T00:30:00Z', 60)).toBe(true);
    expect(staysOpen('sunday-one-to-two', '2026-10-25T00:30:00Z', 90)).toBe(true);
    expect(staysOpen('sunday-one-to-two', '2026-10-25T00:30:00Z', 91)).toBe(false);
    // a week later, no change: 01:30 GMT + 30 minutes is the close
    expect(staysOpen('sunday-one-to-two', '2026-11-01T01:30:00Z', 30)).toBe(true);
    expect(staysOpen('sunday-one-to-two', '2026-11-01T01:30:00Z', 31)).toBe(false);
  });
});
