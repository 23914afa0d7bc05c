import { describe, expect, it } from 'vitest';
import { quickStart } from '../examples/quick-start.js';
import { geodesic } from './support/oracle.js';

describe('README quick start (examples/quick-start.ts)', () => {
  it('runs, and its answers hold against independent checks', async () => {
    const { meetUp, onTheWay, found, menus } = await quickStart();
    expect(meetUp.establishments.length).toBe(3);
    // Weighted centre recomputed here from unit vectors (weights 1, 1, 1, 0.5).
    const pts = [[51.539, -0.1426, 1], [51.5136, -0.1365, 1], [51.5265, -0.0787, 1], [51.4613, -0.1156, 0.5]] as const;
    let x = 0, y = 0, z = 0;
    for (const [la, lo, w] of pts) {
      const p = (la * Math.PI) / 180, l = (lo * Math.PI) / 180;
      x += w * Math.cos(p) * Math.cos(l); y += w * Math.cos(p) * Math.sin(l); z += w * Math.sin(p);
    }
    const cLat = (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI;
    const cLon = (Math.atan2(y, x) * 180) / Math.PI;
    expect(geodesic(meetUp.centerPoint.Lat, meetUp.centerPoint.Lon, cLat, cLon)).toBeLessThan(0.01);
    for (const v of meetUp.establishments) {
      expect(v.catersFlags).toContain('vegan'); // non-compromise
      const [la, lo] = v.location.coordinates;
      expect(Math.abs(geodesic(cLat, cLon, la, lo) - v.distanceMeters)).toBeLessThan(0.05);
      expect(v.distanceMeters).toBeLessThanOrEqual(3000);
      expect(Object.keys(v.travel).sort()).toEqual(['Brixton', 'Camden', 'Shoreditch', 'Soho']);
    }
    for (const v of onTheWay.establishments) {
      expect(v.primaryGenre).toBe('coffee_shop');
      expect(v.distanceMeters).toBeLessThanOrEqual(200);
    }
    const lion = found.establishments[0]!;
    expect(lion.name).toBe('The Red Lion');
    const [la, lo] = lion.location.coordinates;
    expect(geodesic(51.5136, -0.1365, la, lo)).toBeLessThanOrEqual(5000);
    for (const m of menus) for (const s of m.sections) for (const i of s.items) if (i.price !== undefined) expect(Number.isInteger(i.price)).toBe(true);
  });
});
