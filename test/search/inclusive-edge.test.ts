/**
 * The radius is inclusive as reported (docs/search.md "within maxDistance metres
 * (inclusive)"): asked again with `maxDistance` equal to a venue's reported `distanceMeters`,
 * the venue is in (audit 60b: `radius * radius` could round below its squared distance, and
 * 18 of 120 such venues were left out on the London pubs). Oracle: the engine's own reported
 * distances fed back, for search (the local walk under 10 km, the ruled walk beyond) and find.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { prng } from '../support/oracle.js';
import { loadLondonPubs } from './support.js';

const venues = loadLondonPubs();
const engine = createEngine(venues);
const SOHO = { lat: 51.5136, lon: -0.1365 };
const NOW = Date.UTC(2026, 10, 21, 12);

describe.skipIf(venues.length === 0)('maxDistance equal to a reported distance includes that venue', () => {
  it('search: 300 venues, each asked for at exactly its distance (under and over 10 km)', () => {
    const random = prng(60);
    let checked = 0;
    for (const wide of [9_000, 30_000]) {
      const total = engine.search({ locations: [SOHO], mode: { mode: 'POINT', maxDistance: wide } }, { limit: 1, now: NOW }).totalResults;
      for (let k = 0; k < 150; k++) {
        const offset = Math.floor(random() * total);
        const [venue] = engine.search({ locations: [SOHO], mode: { mode: 'POINT', maxDistance: wide } }, { limit: 1, offset, now: NOW }).establishments;
        // nearest first: a venue at exactly the radius is among the last of the answer
        const body = { locations: [SOHO], mode: { mode: 'POINT', maxDistance: venue!.distanceMeters } };
        const count = engine.search(body, { limit: 1, now: NOW }).totalResults;
        const last = engine.search(body, { limit: 20, offset: Math.max(0, count - 20), now: NOW }).establishments;
        expect(last.some((e) => e.id === venue!.id), `${venue!.id} at ${venue!.distanceMeters}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(300);
  });

  it('find: 100 venues named "arms", each asked for at exactly its distance', () => {
    const all = engine.find({ q: 'arms', lat: SOHO.lat, lon: SOHO.lon, maxDistanceMeters: 20_000, limit: 100 }, { now: NOW }).establishments;
    expect(all.length).toBeGreaterThan(50);
    for (const venue of all) {
      const at = engine.find({ q: 'arms', lat: SOHO.lat, lon: SOHO.lon, maxDistanceMeters: venue.distanceMeters!, limit: 100 }, { now: NOW }).establishments;
      expect(at.some((e) => e.id === venue.id), `${venue.id} at ${venue.distanceMeters}`).toBe(true);
    }
  });
});
