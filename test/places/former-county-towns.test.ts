import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import type { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';
import { hasShared } from '../support/real-data.js';
import { GEONAMES_POSTAL, postalPointsByNameAndCode } from './support/geonames-rows.js';
import { resolvesAtPostalRow } from './support/resolves-at-postal-row.js';
import { resolverRefusal } from './support/refusals.js';

/**
 * Audit 66f F1, F2, F6: towns of Greater Manchester's split districts qualified by the county they
 * were in and addressed under (Cheshire), and the two Hayes of Greater London (Middlesex's UB3,
 * Kent's BR2). Oracles: GeoNames' postal file rows (the town's Greater Manchester / Greater
 * London row by outward code), hand-known county facts (Wikipedia: "Trafford", "Tameside",
 * "Metropolitan Borough of Stockport", "Postal counties of the United Kingdom"), GeographicLib.
 */
const POSTAL = GEONAMES_POSTAL;

/** Historic and postal Cheshire towns of Greater Manchester, each with its postal district (hand-known). */
const CHESHIRE_TOWNS: ReadonlyArray<readonly [name: string, outcode: string]> = [
  ['Altrincham', 'WA14'],
  ['Sale', 'M33'],
  ['Hale', 'WA15'],
  ['Timperley', 'WA15'],
  ['Partington', 'M31'],
  ['Hyde', 'SK14'],
  ['Dukinfield', 'SK16'],
  ['Stalybridge', 'SK15'],
  ['Stockport', 'SK1'],
  ['Bramhall', 'SK7'],
  ['Marple', 'SK6'],
  ['Romiley', 'SK6'],
  ['Cheadle', 'SK8'],
  ['Cheadle Hulme', 'SK8'],
];

describe.skipIf(!hasShared(POSTAL))('towns of former counties within metropolitan counties (audit 66f F1, F2)', () => {
  let resolver: DefaultPlaceResolver;
  let rows: Map<string, { lat: number; lon: number }>;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
    rows = postalPointsByNameAndCode();
  });
  const refused = (name: string): UnknownPlaceError => resolverRefusal(resolver, name);
  const expectAt = resolvesAtPostalRow(() => resolver);

  it('F1: a Cheshire town of Trafford, Tameside or Stockport resolves under Cheshire and is refused under Lancs and Lancashire', () => {
    for (const [name, outcode] of CHESHIRE_TOWNS) {
      expectAt(`${name}, Cheshire`, name, outcode);
      for (const county of ['Lancs', 'Lancashire']) expect(refused(`${name}, ${county}`).code).toBe('unknown_place');
    }
    // namesakes elsewhere keep their own counties: Cheadle, Staffordshire (ST10), Hale, Surrey (GU9; the places
    // file's Hale, Surrey row lies 1.5 km from the postal row, the Greater Manchester Hale 200 km away)
    expectAt('Cheadle, Staffordshire', 'Cheadle', 'ST10');
    expectAt('Hale, Surrey', 'Hale', 'GU9', 5000);
  });

  it('F1: the Lancashire towns of the split districts Trafford and Tameside, and postal-only rows of Manchester and Wigan, resolve under Lancs', () => {
    // hand-known historic Lancashire (north of the Mersey, west of the Tame)
    for (const [name, outcode] of [['Stretford', 'M32'], ['Urmston', 'M41'], ['Ashton-under-Lyne', 'OL7'], ['Denton', 'M34'], ['Droylsden', 'M43'], ['Withington', 'M20'], ['Bryn', 'WN4']] as const) {
      expectAt(`${name}, Lancs`, name, outcode);
      expectAt(`${name}, Lancashire`, name, outcode);
      expect(refused(`${name}, Cheshire`).code).toBe('unknown_place');
    }
  });

  it('F6: Middlesex is an area we know: "Brentford, Middlesex" (TW8, a Greater London post town, hand-known Middlesex) resolves; "Staines, Middlesex" (Surrey since 1965) is not listed under it, not "not an area we know"', () => {
    const listed = ['Hounslow, Middlesex', 'Feltham, Middlesex'].map((q) => resolver.resolve(q)!);
    expect(resolver.resolve('Harrow, Middlesex')).not.toBeNull();
    for (const county of ['Middlesex', 'Middx']) expectAt(`Brentford, ${county}`, 'Brentford', 'TW8');
    const row = rows.get('Staines|TW18')!;
    // the message's claim: a place listed under Middlesex (Hounslow, Feltham) lies within 10 km of it
    expect(Math.min(...listed.map((p) => geodesic(row.lat, row.lon, p.lat, p.lon)))).toBeLessThan(10_000);
    for (const county of ['Middlesex', 'Middx']) {
      const m = refused(`Staines, ${county}`).message;
      expect(m).not.toContain('not an area we know');
      expect(m).toContain(`we do not list Staines under ${county}, though places we list there lie within 10 km of it`);
    }
  });

  it('a former county is an area we know also for a name with places in Ireland: "Newport, Hunts" (Newports in Wales, England and County Mayo; none in Huntingdonshire, whose towns are PE19 and PE26-PE29) is none there, not "not an area we know"', () => {
    // the oracle: GeoNames' postal rows named Newport lie in no Huntingdonshire district
    const hunts = ['PE19', 'PE26', 'PE27', 'PE28', 'PE29'];
    expect([...rows.keys()].filter((k) => k.startsWith('Newport|') && hunts.includes(k.split('|')[1]!))).toEqual([]);
    expect(resolver.resolve('St Ives, Hunts')).not.toBeNull(); // PE27: the county is known
    for (const county of ['Hunts', 'Huntingdonshire']) {
      const m = refused(`Newport, ${county}`).message;
      expect(m).not.toContain('not an area we know');
      expect(m).toContain(`no Newport in ${county}; Newport is in Wales, Isle of Wight`);
    }
  });

  it('F2: "Hayes, Middlesex" is Hayes UB3, "Hayes, Kent" Hayes BR2, 31 km apart', () => {
    const ub3 = rows.get('Hayes|UB3')!;
    const br2 = rows.get('Hayes|BR2')!;
    expect(geodesic(ub3.lat, ub3.lon, br2.lat, br2.lon)).toBeGreaterThan(30_000);
    for (const q of ['Hayes, Middlesex', 'Hayes, Middx']) expectAt(q, 'Hayes', 'UB3');
    expectAt('Hayes, Kent', 'Hayes', 'BR2');
  });
});
