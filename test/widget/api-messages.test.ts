/**
 * The widget's words for failed API calls (src/widget/page/api.ts), a pure function: what a
 * person reads when the key is over its limit, out of credit, on the wrong site or revoked.
 * Expected strings are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { describeFailure, secondsUntilAdmitted } from '../../src/widget/page/api.js';

describe('describeFailure', () => {
  it('429 names the plan limit and the wait from Retry-After (seconds, minutes, hours; missing or non-numeric: later)', () => {
    expect(describeFailure(429, 'rate_limited', 'x', '1')).toBe("This site's venue search has reached its plan's request limit. Try again in 1 second.");
    expect(describeFailure(429, 'rate_limited', 'x', '45')).toBe("This site's venue search has reached its plan's request limit. Try again in 45 seconds.");
    expect(describeFailure(429, 'rate_limited', 'x', '600')).toBe("This site's venue search has reached its plan's request limit. Try again in 10 minutes.");
    expect(describeFailure(429, 'rate_limited', 'x', '39600')).toBe("This site's venue search has reached its plan's request limit. Try again in 11 hours.");
    expect(describeFailure(429, 'rate_limited', 'x', null)).toBe("This site's venue search has reached its plan's request limit. Try again later.");
    expect(describeFailure(429, 'rate_limited', 'x', 'Wed, 21 Oct 2026 07:28:00 GMT')).toBe("This site's venue search has reached its plan's request limit. Try again later.");
  });

  it('402, origin_not_allowed, 401 and 5xx get fixed sentences; a 400 passes the service\'s own message through', () => {
    expect(describeFailure(402, 'insufficient_balance', 'x', null)).toContain('run out of credit');
    expect(describeFailure(403, 'origin_not_allowed', 'x', null)).toContain('not allowed on this site');
    expect(describeFailure(403, 'public_key_not_permitted', 'a public key may not call GET /v1/vocabulary', null)).toBe(
      "This widget's key may not do that: a public key may not call GET /v1/vocabulary",
    );
    expect(describeFailure(401, 'invalid_api_key', 'x', null)).toContain('not valid any more');
    expect(describeFailure(503, 'service_unavailable', 'x', null)).toBe('The venue search service had a problem. Please try again in a moment.');
    expect(describeFailure(400, 'unknown_place', 'location "Nowhere" is not a place we know', null)).toBe('location "Nowhere" is not a place we know');
    expect(describeFailure(400, 'http_error', '', null)).toBe('The request failed (HTTP 400).');
  });
});

describe('secondsUntilAdmitted (the RateLimit header: wait before the next call)', () => {
  it('waits for a used-up window that resets within 10 s, not for one with requests left or a daily one', () => {
    expect(secondsUntilAdmitted('"second";r=0;t=1, "day";r=298;t=80000')).toBe(1);
    expect(secondsUntilAdmitted('"second";r=1;t=1, "day";r=998;t=80000')).toBeUndefined();
    expect(secondsUntilAdmitted('"second";r=0;t=1, "day";r=0;t=80000')).toBe(1);
    expect(secondsUntilAdmitted('"second";r=4;t=1, "day";r=0;t=5000')).toBeUndefined();
    expect(secondsUntilAdmitted('"second";r=0;t=10')).toBe(10);
    expect(secondsUntilAdmitted('"second";r=0;t=11')).toBeUndefined();
    expect(secondsUntilAdmitted(null)).toBeUndefined();
  });
});
