// Random weekly hours against the `opening_hours` library (the OSM reference evaluator).
//
// The library evaluates in the PROCESS's local time zone (Date getters), so each comparison
// runs with process.env.TZ set to the venue's zone (withProcessTimeZone), and instants are
// plain UTC epoch milliseconds on both sides: `new Date(t)` for the library, `t` for us.
import fc from 'fast-check';
import OpeningHours from 'opening_hours';
import { describe, expect, it } from 'vitest';
import { OpenState, openStateAt } from '../../src/hours/index.js';
import { toOsmString, weeklyHoursArb, withProcessTimeZone } from './oracles.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Each zone's 2026 clock changes (UTC instants) and which of them springs forward. */
const ZONES: Record<string, { readonly springForward: string; readonly fallBack: string }> = {
  'Europe/London': { springForward: '2026-03-29T01:00:00Z', fallBack: '2026-10-25T01:00:00Z' },
  'America/New_York': { springForward: '2026-03-08T07:00:00Z', fallBack: '2026-11-01T06:00:00Z' },
  'Pacific/Auckland': { springForward: '2026-09-26T14:00:00Z', fallBack: '2026-04-04T14:00:00Z' },
};

/** 36 h either side of each change every 23 min (crosses minute/hour edges), plus 80 seeded random instants of 2026. */
function instantsFor(zone: string): number[] {
  const { springForward, fallBack } = ZONES[zone] as { springForward: string; fallBack: string };
  const out: number[] = [];
  for (const change of [springForward, fallBack]) {
    const t0 = Date.parse(change);
    for (let t = t0 - 36 * HOUR; t <= t0 + 36 * HOUR; t += 23 * MINUTE) out.push(t);
  }
  const start = Date.parse('2026-01-01T00:00:00Z');
  let x = 12345;
  for (let i = 0; i < 80; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(start + (x % (365 * 24 * 60)) * MINUTE);
  }
  return out;
}

const SCHEDULES = fc
  .sample(weeklyHoursArb(15), { numRuns: 75, seed: 20260329 })
  .filter((g) => g !== undefined && g.length > 0);

describe('openStateAt against opening_hours 3.15 on random weekly hours', () => {
  const report: string[] = [];

  for (const zone of Object.keys(ZONES)) {
    it(`${zone}: ${SCHEDULES.length} random schedules around both 2026 clock changes and through the year`, () => {
      const instants = instantsFor(zone);
      const springForwardDay = new Date(Date.parse((ZONES[zone] as { springForward: string }).springForward));
      let compared = 0;
      let phantom = 0;
      const disagreements: string[] = [];
      withProcessTimeZone(zone, () => {
        // Local calendar date of the Monday after the spring-forward Sunday, in this zone.
        const sunday = new Date(springForwardDay.getTime());
        const mondayY = sunday.getFullYear();
        const mondayM = sunday.getMonth();
        const mondayD = sunday.getDate() + 1;
        for (const hours of SCHEDULES) {
          const osm = toOsmString(hours ?? []);
          const oh = new OpeningHours(osm);
          for (const t of instants) {
            compared++;
            const ours = openStateAt(hours, zone, t) === OpenState.OPEN;
            const local = new Date(t);
            const library = oh.getState(local);
            if (ours === library) continue;
            // Known pitfall (CONTRACT "Known pitfalls"): opening_hours 3.15 misreports Monday
            // 00:00-01:00 in the week of a spring-forward change for slots past midnight.
            // There only, compare with the library at the same local weekday and time one
            // week later (no clock change) and count the case.
            const inPitfall =
              local.getFullYear() === mondayY &&
              local.getMonth() === mondayM &&
              local.getDate() === mondayD &&
              local.getHours() === 0;
            if (inPitfall) {
              const nextWeek = new Date(mondayY, mondayM, mondayD + 7, 0, local.getMinutes());
              if (oh.getState(nextWeek) === ours) {
                phantom++;
                continue;
              }
            }
            disagreements.push(`${local.toString()} ours=${ours} library=${library} :: ${osm}`);
          }
        }
      });
      report.push(`${zone}: ${compared} comparisons, ${phantom} in the known Monday 00:00-01:00 pitfall`);
      expect(disagreements.slice(0, 10)).toEqual([]);
      expect(compared).toBeGreaterThan(20_000);
      // The pitfall is rare; a large count would mean we, not the library, are off.
      expect(phantom).toBeLessThan(compared / 100);
    });
  }

  it('report', () => {
    console.log(`[hours oracle] ${report.join('; ')}`);
    expect(report.length).toBe(Object.keys(ZONES).length);
  });
});
