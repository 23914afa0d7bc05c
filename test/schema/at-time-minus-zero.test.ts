/**
 * Audit 70c F4: `atTime` ending `-00:00` (RFC 3339 §4.3: "UTC, local offset unknown") is
 * accepted and read as UTC, though docs/search.md named only `Z` and `+00:00`. The docs now say
 * so; this pins the reading. Oracle: the instant 2026-03-29T01:30:00 UTC computed by hand:
 * 1970..2025 is 56 years with 14 leap days (1972..2024), 20,454 days; then January 31 +
 * February 28 + 28 days of March = 87, so 20,541 days, * 86,400 s + 1.5 h = 1,774,747,800 s.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUtcTimestamp } from '../../src/search/validate-request.js';
import { createHarness, type Harness } from '../http/support/harness.js';

const INSTANT_MS = 1_774_747_800_000;

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('atTime with -00:00', () => {
  it('reads -00:00 and -0000 as the same instant as Z and +00:00; other offsets are refused', () => {
    for (const zone of ['Z', 'z', '+00:00', '+0000', '-00:00', '-0000']) expect([zone, parseUtcTimestamp(`2026-03-29T01:30:00${zone}`)]).toEqual([zone, INSTANT_MS]);
    for (const zone of ['-01:00', '+01:00', '-00:30', '']) expect([zone, parseUtcTimestamp(`2026-03-29T01:30:00${zone}`)]).toEqual([zone, Number.NaN]);
  });

  it('the service answers a search at -00:00 exactly as at Z', async () => {
    const acct = await h.open('Enterprise');
    const body = (atTime: string) => ({
      locations: [{ lat: 51.5136, lon: -0.1365 }],
      mode: { mode: 'POINT', maxDistance: 2000 },
      preferences: { openingConditions: { state: 'OPEN', atTime } },
    });
    const answer = async (atTime: string) => {
      const res = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=100', headers: { 'api-key': acct.secretKey }, payload: body(atTime) });
      expect([atTime, res.statusCode]).toEqual([atTime, 200]);
      return (res.json() as { establishments: Array<{ id: string; matchScore: unknown }> }).establishments;
    };
    const atZ = await answer('2026-03-29T01:30:00Z');
    expect(atZ.length).toBeGreaterThan(0);
    expect(await answer('2026-03-29T01:30:00-00:00')).toEqual(atZ);
  });

  it('docs/search.md and the OpenAPI description say -00:00 is accepted and read as UTC', async () => {
    const doc = readFileSync(new URL('../../docs/search.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('`-00:00` and `-0000`, which RFC 3339 §4.3 defines as "UTC, local offset unknown", are accepted and read as UTC');
    const document = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      components: { schemas: { SearchBody: { properties: { preferences: { properties: { openingConditions: { properties: { atTime: { description: string } } } } } } } } };
    };
    const atTime = document.components.schemas.SearchBody.properties.preferences.properties.openingConditions.properties.atTime;
    expect(atTime.description).toContain('`-00:00` and `-0000`, in RFC 3339 "UTC, local offset unknown", are read as UTC too');
  });
});
