import { expect } from 'vitest';
import type { PlaceResolver } from '../../../src/places/place-resolver.js';
import { geodesic } from '../../support/oracle.js';
import { postalPointsByNameAndCode } from './geonames-rows.js';

/**
 * `expectAt(qualified, name, outcode, meters = 1000)`: `qualified` resolves within `meters`
 * (GeographicLib) of the GeoNames postal row of `name` in `outcode`. The rows are read at the
 * first call.
 */
export function resolvesAtPostalRow(resolver: () => PlaceResolver): (qualified: string, name: string, outcode: string, meters?: number) => void {
  let rows: Map<string, { lat: number; lon: number }> | undefined;
  return (qualified, name, outcode, meters = 1000) => {
    rows ??= postalPointsByNameAndCode();
    const row = rows.get(`${name}|${outcode}`);
    expect(row, `${name} ${outcode} in the postal file`).toBeDefined();
    const got = resolver().resolve(qualified);
    expect(got, qualified).not.toBeNull();
    expect(geodesic(got!.lat, got!.lon, row!.lat, row!.lon), qualified).toBeLessThan(meters);
  };
}
