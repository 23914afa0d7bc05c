import geographiclib from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createFindService } from '../../src/find/find.js';
import { CellWindow, postingCells } from '../../src/find/posting-cells.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

// Issue 16: a find with a centre skips the postings whose venue's 0.01-degree cell lies
// outside the box covering its circle. The oracle is GeographicLib (exact WGS84 geodesics),
// independent of src/geo: every point within the radius must fall in the window's cells,
// and a centred find must return what a brute-force scan returns.
const wgs84 = geographiclib.Geodesic.WGS84;

/** The cell postingCells gives a venue at (lat, lon). */
function cellOf(lat: number, lon: number): number {
  return postingCells(Uint32Array.of(0), Float64Array.of(lat), Float64Array.of(lon))[0]!;
}

describe('CellWindow (issue 16): conservative, by GeographicLib', () => {
  // London; a centre on a cell corner; Tromsø (narrow longitude degrees); near the
  // antimeridian (the window then takes every cell); near the South Pole.
  const centres: Array<[string, number, number]> = [
    ['London', 51.5074, -0.1278],
    ['a cell corner', 51.51, -0.13],
    ['Tromsø, 69.6 N', 69.6492, 18.9553],
    ['Fiji, by the antimeridian', -17.7134, 179.995],
    ['the South Pole', -89.995, 12.3],
  ];
  for (const [where, lat, lon] of centres) {
    it(`every point within 10 m to 20 km of ${where} lies in the window's cells`, () => {
      const next = seededRandom(16);
      const win = new CellWindow();
      for (const radius of [10, 300, 1000, 5000, 20_000]) {
        win.around(lat, lon, radius);
        for (let k = 0; k < 720; k++) {
          // Bearings all round, distances up to the radius (the edge itself included).
          const azi = k * 0.5;
          const s = k % 3 === 0 ? radius : radius * next();
          const p = wgs84.Direct(lat, lon, azi, s);
          const lon2 = ((((p.lon2 as number) + 180) % 360) + 360) % 360 - 180;
          expect(win.has(cellOf(p.lat2 as number, lon2)), `${radius} m at ${azi}°`).toBe(true);
        }
      }
    });
  }

  it('drops cells clearly outside: 5 km around London leaves out Manchester and Brighton', () => {
    const win = new CellWindow().around(51.5074, -0.1278, 5000);
    expect(win.has(cellOf(53.4808, -2.2426))).toBe(false);
    expect(win.has(cellOf(50.8225, -0.1372))).toBe(false);
    expect(win.has(cellOf(51.5074, -0.1278))).toBe(true);
  });
});

describe('find with a centre (issue 16): the cell test drops no match, vs brute force + GeographicLib', () => {
  // Venues in three clusters (London, Tromsø, by the antimeridian in Fiji), names from a
  // small vocabulary so that common words have many postings far from any one centre.
  const WORDS = ['red', 'lion', 'crown', 'anchor', 'rose', 'royal', 'oak', 'cross', 'crooked', 'coffee', 'cafe', 'kings', 'head'];
  const CLUSTERS: Array<[number, number, number]> = [
    [51.5074, -0.1278, 0.25],
    [69.6492, 18.9553, 0.1],
    [-17.7134, 179.98, 0.05],
  ];
  const next = seededRandom(7);
  const venues: VenueRecord[] = [];
  for (let i = 0; i < 6000; i++) {
    const [clat, clon, spread] = CLUSTERS[i % 3]!;
    const lat = clat + (next() * 2 - 1) * spread;
    let lon = clon + (next() * 2 - 1) * spread * 1.6;
    if (lon > 180) lon -= 360;
    const name = `${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} ${i}`;
    venues.push({ id: `v${String(i).padStart(5, '0')}`, name, location: { type: 'Point', coordinates: [lat, lon] } });
  }
  const engine = createEngine(venues);
  const find = createFindService(engine.store, engine.spatial, { places: null });

  it('every query: totalFound and the set equal the scan within 0.1 % of the edge, names-then-distance taken', () => {
    let plans = 0;
    for (let k = 0; k < 120; k++) {
      const v = venues[Math.floor(next() * venues.length)]!;
      const lat = v.location.coordinates[0];
      const lon = v.location.coordinates[1];
      const radius = [200, 1000, 5000, 15_000][k % 4]!;
      const q = k % 2 === 0 ? WORDS[k % WORDS.length]! : `${WORDS[k % WORDS.length]!} ${WORDS[(k * 7) % WORDS.length]!.slice(0, 2)}`;
      const qw = q.split(' ');
      const found = find.collect(q, { lat, lon }, radius, venues.length);
      if (find.lastPlan === 'names-then-distance') plans++;
      const got = new Set(found.venues.map((i) => engine.store.id(i)));
      expect(found.total).toBe(got.size);
      const nameMatches = (name: string) => qw.every((w) => name.split(' ').some((x) => x.startsWith(w)));
      for (const u of venues) {
        if (!nameMatches(u.name)) continue;
        const d = wgs84.Inverse(lat, lon, u.location.coordinates[0], u.location.coordinates[1]).s12 as number;
        if (d < radius * 0.999) expect(got.has(u.id), `${q} within ${radius} m: ${u.id} at ${d.toFixed(1)} m`).toBe(true);
        if (d > radius * 1.001) expect(got.has(u.id), `${q} within ${radius} m: ${u.id} at ${d.toFixed(1)} m`).toBe(false);
      }
    }
    // Most of these take the postings plan (the one with the cell test).
    expect(plans).toBeGreaterThan(30);
  });
});
