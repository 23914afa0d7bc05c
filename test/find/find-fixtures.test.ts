import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { distance as turfDistance } from '@turf/turf';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createFindService } from '../../src/find/find.js';
import { FindResponseSchema } from '../../src/schema/find.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url));
const venues = readFileSync(FIXTURES, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as VenueRecord);
const engine = createEngine(venues, { validate: false });
const find = createFindService(engine.store, engine.spatial);
const check = TypeCompiler.Compile(FindResponseSchema);
const NOW = Date.UTC(2026, 5, 12, 18, 0);

describe('find with a place name on the bundled fixtures (default resolver)', () => {
  it.each(['Soho', 'Shoreditch', 'Camden', 'Covent Garden', 'NW1', 'Manchester'])(
    'location "%s": centre = resolved place, every result within 5 km of it by turf, ordered by distance, response validates',
    (location) => {
      const r = find.find({ q: 'the', location, limit: 100 }, NOW);
      expect(check.Check(r)).toBe(true);
      expect(r.resolvedPlace).toBeDefined();
      expect(r.searchLocation).toEqual({ Lat: r.resolvedPlace!.Lat, Lon: r.resolvedPlace!.Lon });
      expect(r.totalFound).toBeGreaterThan(0);
      let prev = 0;
      for (const e of r.establishments) {
        const d = turfDistance([r.resolvedPlace!.Lon, r.resolvedPlace!.Lat], [e.location.coordinates[1], e.location.coordinates[0]], { units: 'meters' });
        expect(d).toBeLessThanOrEqual(5000 * 1.005);
        expect(Math.abs(d - e.distanceMeters!)).toBeLessThanOrEqual(d * 0.005 + 0.5);
        expect(e.distanceMeters!).toBeGreaterThanOrEqual(prev);
        prev = e.distanceMeters!;
      }
    },
  );

  it('an unknown place is unknown_place naming it', () => {
    expect(() => find.find({ q: 'red', location: 'Gondor' }, NOW)).toThrow(/Gondor/);
  });

  it('"Fuller\'s" finds venues named with Fuller\'s; "garcia" finds "García" (accent in a surname)', () => {
    const fullers = venues.filter((v) => /fuller'?s/i.test(v.name));
    const got = new Set(find.find({ q: "Fuller's", limit: 100 }, NOW).establishments.map((e) => e.id));
    for (const v of fullers.slice(0, 100)) expect(got.has(v.id)).toBe(true);
    const garcia = venues.filter((v) => v.name.includes('García'));
    if (garcia.length > 0) expect(find.find({ q: 'garcia', limit: 100 }, NOW).totalFound).toBeGreaterThanOrEqual(garcia.length);
  });
});
