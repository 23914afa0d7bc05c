/**
 * Rate limits (interface section 8): both windows per account, shared by all its keys,
 * the 24 h count surviving a restart, headers on every guarded answer, 429 with Retry-After.
 * The clock is injected; no test sleeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DAY_MS, SECOND_MS, type RateWindow } from '../../src/accounts/plans.js';
import { decideRate, rateLimitHeaders, type ClockLead, type WindowCounter } from '../../src/accounts/rate-limit.js';
import { createHarness, FakeClock } from './support/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-rate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('decideRate against a brute-force oracle', () => {
  it('admits exactly when every epoch-aligned window has fewer admitted requests than its limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 2500 }), { minLength: 1, maxLength: 60 }),
        (perSecond, perDay, gaps) => {
          // a "day" of 10 s keeps the property fast while exercising day boundaries
          const windows: RateWindow[] = [
            { name: 'second', limit: perSecond, windowMs: SECOND_MS },
            { name: 'day', limit: perDay, windowMs: 10_000 },
          ];
          const admittedAt: number[] = [];
          let counters: (WindowCounter | undefined)[] = [undefined, undefined];
          let t = 1_773_144_000_000;
          for (const gap of gaps) {
            t += gap;
            const { decision, next } = decideRate(windows, counters, t);
            const inWindow = (w: RateWindow) => admittedAt.filter((a) => Math.floor(a / w.windowMs) === Math.floor(t / w.windowMs)).length;
            const expectAdmit = windows.every((w) => inWindow(w) < w.limit);
            expect(decision.admitted).toBe(expectAdmit);
            if (expectAdmit) admittedAt.push(t);
            windows.forEach((w, i) => {
              expect(decision.windows[i]!.remaining).toBe(w.limit - inWindow(w));
              expect(decision.windows[i]!.resetAtMs).toBe((Math.floor(t / w.windowMs) + 1) * w.windowMs);
            });
            if (!expectAdmit) expect(decision.blockedBy).toBeDefined();
            counters = next;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('decideRate across processes whose clocks differ (one stored counter per window)', () => {
  // Builder-like: 1 per second, 3 per day. Process A's clock is 400 ms behind B's.
  const windows: RateWindow[] = [
    { name: 'second', limit: 1, windowMs: SECOND_MS },
    { name: 'day', limit: 3, windowMs: 86_400_000 },
  ];
  const midnight = Date.UTC(2027, 1, 10);

  it('a process behind never resets the window the one ahead started: A (day full, 23:59:59.7) and B (00:00:00.1) alternating admit only B\'s first', () => {
    // A's day is full: three requests admitted on the 9th, in three seconds
    let counters: (WindowCounter | undefined)[] = [undefined, undefined];
    for (const t of [midnight - 5000, midnight - 3000, midnight - 2000]) {
      const { decision, next } = decideRate(windows, counters, t);
      expect(decision.admitted).toBe(true);
      counters = next;
    }
    const outcomes: string[] = [];
    for (let k = 0; k < 10; k++) {
      const who = k % 2 === 0 ? 'A' : 'B';
      // both advance 20 ms per request; A stays 400 ms behind B
      const t = (who === 'A' ? midnight - 300 : midnight + 100) + k * 20;
      const { decision, next } = decideRate(windows, counters, t);
      outcomes.push(`${who}:${decision.admitted ? 200 : 429}`);
      counters = next;
    }
    // hand-computed: A's first request finds the 9th full; B starts the 10th (1 of 3, 1 of 1
    // in its second); every later request, A's or B's, counts in B's second, already used
    expect(outcomes.join(' ')).toBe('A:429 B:200 A:429 B:429 A:429 B:429 A:429 B:429 A:429 B:429');
    expect(counters[1]).toEqual({ windowStart: midnight, count: 1 });
  });

  it('the process behind reports the window it counted in: its reset is the later window\'s end', () => {
    const ahead = decideRate(windows, [undefined, undefined], midnight + 100).next;
    const { decision } = decideRate(windows, ahead, midnight - 300);
    expect(decision.admitted).toBe(false);
    expect(decision.windows[0]!.resetAtMs).toBe(midnight + 1000);
    expect(decision.windows[1]!.resetAtMs).toBe(midnight + 86_400_000);
  });
});

describe('decideRate with a clock far behind the one that stored the window (audit 66d F6)', () => {
  // StartUp-like: 5 per second, 10,000 per day. B's clock is 7.6 h (27,360 s) ahead of A's.
  const windows: RateWindow[] = [
    { name: 'second', limit: 5, windowMs: SECOND_MS },
    { name: 'day', limit: 10_000, windowMs: DAY_MS },
  ];
  const bNow = Date.UTC(2026, 10, 30, 8, 36, 0, 0);
  const aNow = bNow - 27_360_000;

  it('a second window stored 7.6 h ahead is not shared: A starts its own second (hand-computed), and still shares the day', () => {
    let counters: (WindowCounter | undefined)[] = [undefined, undefined];
    for (let k = 0; k < 5; k++) counters = decideRate(windows, counters, bNow + k).next; // B fills its second
    const { decision, next } = decideRate(windows, counters, aNow + 250);
    expect(decision.admitted).toBe(true);
    // A's own second: [aNow, aNow + 1000), its first request; reset 750 ms on, not 7.6 h on
    expect(next[0]).toEqual({ windowStart: aNow, count: 1 });
    expect(decision.windows[0]!.resetAtMs).toBe(aNow + 1000);
    // 7.6 h is less than a day: the day B started (the 30th, UTC) holds its 5, and A counts in it
    // (A's clock reads the 30th too: 01:00 UTC)
    expect(next[1]).toEqual({ windowStart: Date.UTC(2026, 10, 30), count: 6 });
  });

  it('A then admits 5 and refuses the 6th of its second, with Retry-After counted from its own clock', () => {
    let counters: (WindowCounter | undefined)[] = [{ windowStart: bNow, count: 5 }, undefined];
    const decisions = [];
    for (let k = 0; k < 6; k++) {
      const r = decideRate(windows, counters, aNow + 100 + k * 10);
      decisions.push(r.decision);
      counters = r.next;
    }
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, true, true, false]);
    expect(decisions[5]!.blockedBy?.resetAtMs).toBe(aNow + 1000);
  });

  it('two processes 1.5 s apart, a client alternating between them: one count, 5 per second (audit 67g F1; hand-computed)', () => {
    // A reads 12:00:00.600 (its second: 12:00:00), B 12:00:02.100 (its second: 12:00:02), 2 windows apart
    const t0 = Date.UTC(2026, 10, 30, 12, 0, 0, 600);
    let counters: (WindowCounter | undefined)[] = [undefined, undefined];
    const outcomes: string[] = [];
    for (let k = 0; k < 12; k++) {
      const who = k % 2 === 0 ? 'A' : 'B';
      const { decision, next } = decideRate(windows, counters, (who === 'A' ? t0 : t0 + 1500) + k * 10);
      outcomes.push(`${who}:${decision.admitted ? 200 : 429}`);
      counters = next;
    }
    // A's first counts in its own second; B starts its own (A's is behind it); from then on A
    // counts in B's (2 s ahead, shared): 1 + 5 admitted, every later one refused
    expect(outcomes.join(' ')).toBe('A:200 B:200 A:200 B:200 A:200 B:200 A:429 B:429 A:429 B:429 A:429 B:429');
  });

  it('a stored window one window ahead (a skew under two windows) is still shared', () => {
    const { decision } = decideRate(windows, [{ windowStart: aNow + 1000, count: 5 }, undefined], aNow + 999);
    expect(decision.admitted).toBe(false);
    expect(decision.blockedBy?.resetAtMs).toBe(aNow + 2000);
  });
});

describe('decideRate on a clock 59 s behind the one that stored the window (audit 68b F1)', () => {
  // StartUp-like: 5 per second, 10,000 per day. B's clock reads 59 s ahead of A's.
  const windows: RateWindow[] = [
    { name: 'second', limit: 5, windowMs: SECOND_MS },
    { name: 'day', limit: 10_000, windowMs: DAY_MS },
  ];
  const aStart = Date.UTC(2026, 10, 30, 12, 0, 0, 300);
  const skew = 59_000;

  /** B serves one request, then A alone 20 a second for 10 s (A's 12:00:00.300 to 12:00:10.250), each process with its own lead. */
  function run(): { admittedAt: number[]; retryAfterS: number[]; aLead: ClockLead; bLead: ClockLead; counters: (WindowCounter | undefined)[] } {
    const aLead: ClockLead = { ms: 0 };
    const bLead: ClockLead = { ms: 0 };
    let counters: (WindowCounter | undefined)[] = decideRate(windows, [undefined, undefined], aStart + skew, bLead).next;
    const admittedAt: number[] = [];
    const retryAfterS: number[] = [];
    for (let k = 0; k < 200; k++) {
      const t = aStart + 50 * k;
      const { decision, next } = decideRate(windows, counters, t, aLead);
      if (decision.admitted) admittedAt.push(t - aStart);
      else retryAfterS.push(Math.ceil((decision.blockedBy!.resetAtMs - decision.atMs) / 1000));
      counters = next;
    }
    return { admittedAt, retryAfterS, aLead, bLead, counters };
  }

  it('A admits 5 a second after at most 2 s in B\'s window, not 4 in 10 s (hand-computed)', () => {
    const { admittedAt, retryAfterS } = run();
    // A learns B's lead less one second (58 s) at its first request and counts in B's second
    // (12:00:59 by B, 1 used) until its clock plus 58 s passes that second's end: A's 12:00:02.000,
    // so 4 admitted before that; then each of A's seconds 2..9 admits 5 (40), and 10.000-10.250 5
    expect(admittedAt.filter((ms) => ms < 1700)).toHaveLength(4);
    expect(admittedAt.filter((ms) => ms >= 1700 && ms < 9700)).toHaveLength(40);
    expect(admittedAt.filter((ms) => ms >= 9700)).toHaveLength(5);
    expect(admittedAt).toHaveLength(49);
    // no refusal tells a client to wait more than 2 s for a 1 s window (before: 59)
    expect(Math.max(...retryAfterS)).toBeLessThanOrEqual(2);
  });

  it('A\'s X-RateLimit-Reset is on A\'s own clock: at most 2 s after its request, as its Retry-After, not the 58 s lead (audit 68j F2; hand-computed)', () => {
    const aLead: ClockLead = { ms: 0 };
    let counters: (WindowCounter | undefined)[] = decideRate(windows, [undefined, undefined], aStart + skew, { ms: 0 }).next;
    for (let k = 0; k < 200; k++) {
      const t = aStart + 50 * k;
      const { decision, next } = decideRate(windows, counters, t, aLead);
      counters = next;
      const headers = rateLimitHeaders(decision, decision.atMs);
      // the binding window is the second (at most 5 left against the day's thousands): on A's
      // clock it ends at A's next whole second, or the one after while A still counts in B's
      // second; the header is whole seconds, rounded up
      const resetS = Number(headers['x-ratelimit-reset']);
      expect(resetS - t / 1000).toBeGreaterThan(0);
      expect(resetS - t / 1000).toBeLessThanOrEqual(2);
      if (headers['retry-after'] !== undefined) expect(resetS).toBeLessThanOrEqual(Math.ceil(t / 1000) + Number(headers['retry-after']));
    }
    expect(aLead.ms).toBe(58_000);
  });

  it('the lead is learnt by the clock behind only: B learns none from A\'s windows, so the clocks never push each other forward', () => {
    const { aLead, bLead, counters } = run();
    expect(aLead.ms).toBe(58_000);
    // B at A's 12:00:10.300 plus 59 s: A stored its second 12:01:08 (its 12:00:10 + 58 s), behind B's 12:01:09
    const { decision } = decideRate(windows, counters, aStart + 10_000 + skew, bLead);
    expect(bLead.ms).toBe(0);
    expect(decision.admitted).toBe(true);
    expect(decision.windows[1]!.used).toBe(1 + 49 + 1); // one day count for both processes
  });
});

describe('two keys of one account hammering one plan', () => {
  it('Hobbyist (2/s): 10 concurrent requests from sk and pk in one second -> exactly 2 served, 8 x 429 with headers; the next second 2 more', async () => {
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 12, 0, 0, 250));
    const h = await createHarness({ clock });
    const acct = await h.open('Hobbyist');
    const fire = () =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': i % 2 === 0 ? acct.secretKey : acct.publicKey } }),
        ),
      );
    const first = await fire();
    const served = first.filter((r) => r.statusCode === 200);
    const limited = first.filter((r) => r.statusCode === 429);
    expect(served).toHaveLength(2);
    expect(limited).toHaveLength(8);
    const nextSecondEpoch = String(Date.UTC(2026, 2, 10, 12, 0, 1) / 1000);
    for (const r of limited) {
      expect(r.json()).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(r.headers['retry-after']).toBe('1'); // 750 ms left in the second, rounded up
      expect(r.headers['x-ratelimit-limit']).toBe('2');
      expect(r.headers['x-ratelimit-remaining']).toBe('0');
      expect(r.headers['x-ratelimit-reset']).toBe(nextSecondEpoch);
      expect(r.headers['ratelimit-policy']).toBe('"second";q=2;w=1, "day";q=1000;w=86400');
      // 12:00:00.250 -> midnight is 11 h 59 min 59.75 s -> 43200 s rounded up
      expect(r.headers['ratelimit']).toBe('"second";r=0;t=1, "day";r=998;t=43200');
    }
    expect(served.map((r) => r.headers['x-ratelimit-remaining']).sort()).toEqual(['0', '1']);
    expect(h.engine.calls.find).toBe(2);
    // only the two served requests were charged
    expect(await h.accounts.balanceMicros(acct.accountId)).toBe(10_000_000 - 2 * 6000);

    clock.advance(1000);
    const second = await fire();
    expect(second.filter((r) => r.statusCode === 200)).toHaveLength(2);
    await h.close();
  });

  it('Builder (1/s, 300/24 h): the 301st request of the day is refused until 00:00 UTC, and the count survives a restart', async () => {
    const dbPath = join(tmp, 'builder.sqlite');
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 12, 0, 0, 0));
    let h = await createHarness({ clock, dbPath });
    const acct = await h.open('Builder');
    const keys = [acct.secretKey, acct.publicKey];
    let served = 0;
    let limited = 0;
    for (let s = 0; s < 300; s++) {
      for (const key of keys) {
        const r = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': key } });
        if (r.statusCode === 200) served++;
        else if (r.statusCode === 429) limited++;
      }
      clock.advance(1000);
    }
    expect(served).toBe(300);
    expect(limited).toBe(300);
    const refused = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': acct.secretKey } });
    expect(refused.statusCode).toBe(429);
    const midnight = Date.UTC(2026, 2, 11);
    expect(refused.headers['retry-after']).toBe(String(Math.ceil((midnight - clock.nowMs) / 1000)));
    expect(refused.headers['x-ratelimit-limit']).toBe('300');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-reset']).toBe(String(midnight / 1000));
    expect(refused.json().message).toContain('24 hours');

    await h.close(); // restart: a new store and app on the same file
    h = await createHarness({ clock, dbPath });
    clock.advance(60_000);
    const afterRestart = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': acct.publicKey } });
    expect(afterRestart.statusCode).toBe(429);
    expect(afterRestart.headers['x-ratelimit-limit']).toBe('300');

    clock.nowMs = midnight + 5; // a new day
    const nextDay = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': acct.publicKey } });
    expect(nextDay.statusCode).toBe(200);
    expect(nextDay.headers['ratelimit']).toBe(`"second";r=0;t=1, "day";r=299;t=${DAY_MS / 1000}`);
    await h.close();
  });

  it('two apps (two "processes") on one database share the windows: Hobbyist, 10 concurrent across both -> exactly 2 served', async () => {
    const dbPath = join(tmp, 'shared.sqlite');
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 12, 0, 0, 0));
    const a = await createHarness({ clock, dbPath });
    const b = await createHarness({ clock, dbPath });
    const acct = await a.open('Hobbyist');
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': i % 3 ? acct.secretKey : acct.publicKey } }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(8);
    await a.close();
    await b.close();
  });

  it('Enterprise has no daily window: headers describe the per-second window only', async () => {
    const h = await createHarness();
    const acct = await h.open('Enterprise');
    const r = await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': acct.secretKey } });
    expect(r.headers['ratelimit-policy']).toBe('"second";q=100;w=1');
    expect(r.headers['x-ratelimit-limit']).toBe('100');
    expect(r.headers['x-ratelimit-remaining']).toBe('99');
    await h.close();
  });
});
