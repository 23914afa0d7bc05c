/**
 * A venue's distance does not depend on the radius asked (audit 60b: once `maxDistance`
 * passed the local frame's 10 km, every venue was measured by the ellipsoidal formula, so a
 * venue 4 km away moved by millimetres, equal-score neighbours swapped, and its
 * `distanceMeters` differed from its own `travel` distance). One distance rule per pair
 * (docs/search.md "travel"): within 10 km the local frame, beyond it the ellipsoidal formula.
 * Oracle: GeographicLib's WGS84 geodesic for the order and the error bound, and the same
 * venues' distances from a search whose radius the frame holds.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { geodesic } from '../support/oracle.js';
import { loadLondonPubs } from './support.js';
import { RING_LATITUDES, accuracyAt10km, ringVenues } from './ten-km-ring.js';

const venues = loadLondonPubs();
const byId = new Map(venues.map((v) => [v.id, v]));
const engine = createEngine(venues);
const SOHO = { lat: 51.5136, lon: -0.1365 };
const NOW = Date.UTC(2026, 10, 21, 12);

/** Every venue within `maxDistance` of Soho in the order given, page after page. */
function distances(maxDistance: number): Map<string, { d: number; travel: number }> {
  const out = new Map<string, { d: number; travel: number }>();
  for (let offset = 0; ; offset += 100) {
    const r = engine.search({ locations: [SOHO], mode: { mode: 'POINT', maxDistance } }, { limit: 100, offset, now: NOW });
    for (const e of r.establishments) out.set(e.id, { d: e.distanceMeters, travel: e.travel['0']!.distanceMeters });
    if (offset + 100 >= r.totalResults) {
      expect(out.size).toBe(r.totalResults);
      return out;
    }
  }
}

describe.skipIf(venues.length === 0)('distances and order whatever the radius (London pubs)', () => {
  it('search: every venue within 10 km has the same distance at 10, 12 and 50 km, equal to its travel distance, and within 1 mm + 1e-6 of GeographicLib', () => {
    const near = distances(10_000);
    expect(near.size).toBeGreaterThan(1500);
    for (const radius of [10_001, 12_000, 50_000]) {
      const wide = distances(radius);
      for (const [id, { d }] of near) expect(wide.get(id)?.d, `${id} at radius ${radius}`).toBe(d);
      for (const [id, { d, travel }] of wide) expect(travel, `travel of ${id} at radius ${radius}`).toBe(Math.round(d * 10) / 10);
      // within 1 mm + 1e-6 of the geodesic within 10 km (the frame), 1 mm + 2e-6 beyond (the blend, then the geodesic formula: far inside it)
      const list = [...wide.keys()];
      let checked = 0;
      for (let k = 0; k < list.length; k++) {
        const v = byId.get(list[k]!)!;
        const exact = geodesic(SOHO.lat, SOHO.lon, v.location.coordinates[0], v.location.coordinates[1]);
        const got = wide.get(list[k]!)!.d;
        expect(Math.abs(got - exact), list[k]).toBeLessThanOrEqual(exact <= 10_000 ? 0.001 + exact * 1e-6 : 0.001 + exact * 2e-6);
        checked++;
      }
      expect(checked).toBe(wide.size);
    }
  });

  it('find: the same venue at the same distance with a 5 km and a 20 km centre', () => {
    const q = { q: 'arms', lat: SOHO.lat, lon: SOHO.lon, limit: 100 };
    const small = engine.find({ ...q, maxDistanceMeters: 5000 }, { now: NOW });
    const large = engine.find({ ...q, maxDistanceMeters: 20_000 }, { now: NOW });
    expect(small.establishments.length).toBeGreaterThan(20);
    const inLarge = new Map(large.establishments.map((r) => [r.id, r.distanceMeters]));
    let same = 0;
    for (const r of small.establishments) {
      if (!inLarge.has(r.id)) continue;
      expect(inLarge.get(r.id), r.id).toBe(r.distanceMeters);
      same++;
    }
    expect(same).toBeGreaterThan(20);
  });
});

/**
 * Across the 10 km switch (audit 61b N4): the frame within 10 km and Lambert's formula beyond
 * differed by up to 1.4 cm there, so a venue 10,000.001 m away was reported nearer than one
 * at 9,999.999 m on the same bearing. Venues on rings straddling 10 km (and the end of the
 * blend band at 11 km) around centres at 0, 30, 51.5, 60 and 70 degrees, 8 bearings.
 */
describe('order and distances across the 10 km switch (synthetic rings, GeographicLib)', () => {
  const METERS = [9_999.99, 9_999.999, 10_000, 10_000.001, 10_000.01, 10_500, 10_999.999, 11_000.001];
  for (const lat of RING_LATITUDES) {
    it(`centre at ${lat} degrees: geodesic order, documented accuracy, the same distance at every radius`, () => {
      const ring = ringVenues(lat, 10, METERS);
      const ringEngine = createEngine(ring.map((v) => v.record));
      const at = (maxDistance: number) => {
        const r = ringEngine.search({ locations: [{ lat, lon: 10 }], mode: { mode: 'POINT', maxDistance } }, { limit: 100, now: NOW });
        expect(r.totalResults).toBe(r.establishments.length);
        return r.establishments.map((e) => ({ id: e.id, d: e.distanceMeters, travel: e.travel['0']!.distanceMeters }));
      };
      const all = at(12_000);
      expect(all.length).toBe(ring.length);
      const reported = new Map(all.map((e) => [e.id, e.d]));
      const accuracy = accuracyAt10km(lat);
      // on one bearing the reported distance grows with the geodesic one, whatever the gap (2 mm here)
      for (const a of ring) {
        for (const b of ring) {
          if (a.geodesic >= b.geodesic) continue;
          const da = reported.get(a.id)!;
          const db = reported.get(b.id)!;
          if (a.azimuth === b.azimuth) expect(da, `${a.id} before ${b.id}: ${da} vs ${db}`).toBeLessThan(db);
          else if (b.geodesic - a.geodesic > 2 * accuracy) expect(da, `${a.id} before ${b.id}: ${da} vs ${db}`).toBeLessThan(db);
        }
      }
      // within the documented accuracy of GeographicLib
      for (const v of ring) expect(Math.abs(reported.get(v.id)! - v.geodesic), `${v.id}: ${reported.get(v.id)}`).toBeLessThanOrEqual(accuracy);
      // the answer lists them in that order (equal scores: distanceMeters ascending)
      for (let k = 1; k < all.length; k++) expect(all[k]!.d).toBeGreaterThanOrEqual(all[k - 1]!.d);
      // radius-independent: the same distances (to the bit) from every radius that holds them
      for (const radius of [9_999.99, 10_000, 10_000.001, 10_001, 11_000, 50_000]) {
        const some = at(radius);
        expect(some.length).toBe([...reported.values()].filter((d) => d <= radius).length);
        for (const e of some) {
          expect(e.d, `${e.id} at radius ${radius}`).toBe(reported.get(e.id));
          expect(e.travel).toBe(Math.round(e.d * 10) / 10);
        }
      }
    });
  }
});
