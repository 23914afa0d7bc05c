// The planar bounds of a route piece (route-piece.ts: chordOffsetSq, planarSurelyWithin,
// planarSurelyBeyond), which let the nearest corridor walk count a point, or pass it over,
// without its exact distance: held to GeographicLib's distance from the route's geodesic
// (test/support/oracle.ts), for pieces of every length up to 20 km, in every direction, at
// latitudes up to the polar limit, and points up to 12 km off them (a PATH corridor is at
// most 10 km wide either side).
import { describe, expect, it } from 'vitest';
import { POLAR_LIMIT_DEG } from '../../src/geo/distance.js';
import { PreparedRoute } from '../../src/geo/polyline.js';
import { PieceScreen, chordFoot, chordOffsetSq, planarSurelyBeyond, planarSurelyWithin } from '../../src/geo/route-piece.js';
import { prng, routeDistance } from '../support/oracle.js';

describe('a piece planar distance bounds its exact distance', () => {
  it('for 3,000 random points near 300 random pieces', () => {
    const rnd = prng(23);
    let worstBelow = Number.POSITIVE_INFINITY; // min over points of (upper bound - exact)
    let worstAbove = Number.POSITIVE_INFINITY; // min over points of (exact - lower bound)
    for (let p = 0; p < 300; p++) {
      const lat = (rnd() * 2 - 1) * (POLAR_LIMIT_DEG - 3);
      const lon = rnd() * 360 - 180;
      const len = 50 + rnd() * 17_950; // metres: one piece (under 20 km, MAX_PIECE_METERS, with room for the degrees approximation)
      const bearing = rnd() * 2 * Math.PI;
      const dLat = (len * Math.cos(bearing)) / 111_000;
      const dLon = (len * Math.sin(bearing)) / (111_000 * Math.cos((lat * Math.PI) / 180));
      const vertices: Array<[number, number]> = [[lat, lon], [lat + dLat, lon + dLon]];
      const route = new PreparedRoute([lat, lat + dLat], [lon, lon + dLon]);
      expect(route.pieceCount).toBe(1);
      const ps = new PieceScreen().fill(route.pieces, 0, 1e9); // a screen that rejects nothing
      expect(ps.polar).toBe(0);
      for (let q = 0; q < 10; q++) {
        const along = rnd() * 1.2 - 0.1;
        const spread = rnd();
        const off = (spread < 0.5 ? rnd() * 300 : spread < 0.8 ? rnd() * 3000 : rnd() * 12_000) * (rnd() < 0.5 ? -1 : 1);
        const qLat = lat + along * dLat + (off * Math.sin(bearing)) / 111_000;
        const qLon = lon + along * dLon - (off * Math.cos(bearing)) / (111_000 * Math.cos((lat * Math.PI) / 180));
        const t = chordFoot(qLat, qLon, ps.lat0, ps.lon0, ps.kx, ps.ky, ps.vx, ps.vy, ps.invVV, ps.screenSq);
        expect(t).toBeGreaterThanOrEqual(0);
        const e = Math.sqrt(chordOffsetSq(qLat, qLon, t, ps.lat0, ps.lon0, ps.kx, ps.ky, ps.vx, ps.vy));
        const exact = routeDistance(vertices, qLat, qLon).distance;
        const where = `piece ${p} (${lat.toFixed(3)}, ${lon.toFixed(3)}, ${len.toFixed(0)} m), point ${q}: planar ${e.toFixed(3)} m, exact ${exact.toFixed(3)} m`;
        // surely within m: exact <= m for every m with e <= planarSurelyWithin(m), i.e. at m = exact: e >= planarSurelyWithin(exact) is the claim
        expect(planarSurelyWithin(exact, ps.bulge), where).toBeLessThanOrEqual(e + 1e-9);
        // surely beyond m: exact > m for every m with e > planarSurelyBeyond(m), i.e. e <= planarSurelyBeyond(exact)
        expect(e, where).toBeLessThanOrEqual(planarSurelyBeyond(exact, ps.bulge) + 1e-9);
        worstBelow = Math.min(worstBelow, e - planarSurelyWithin(exact, ps.bulge));
        worstAbove = Math.min(worstAbove, planarSurelyBeyond(exact, ps.bulge) - e);
      }
    }
    // the bounds hold with room to spare, and are not vacuous
    expect(worstBelow).toBeGreaterThan(0);
    expect(worstAbove).toBeGreaterThan(0);
  });
});
