import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { hasShared } from '../support/real-data.js';
import { GEONAMES_POSTAL } from './support/geonames-rows.js';
import { resolvesAtPostalRow } from './support/resolves-at-postal-row.js';
import { resolverRefusal } from './support/refusals.js';

/**
 * Audit 67b F1, F2, F3, F6: places of metropolitan counties qualified by the historic county
 * they were in. Oracles: GeoNames' postal file rows (the place's row by outward code, read here
 * directly), hand-known historic county facts (Wikipedia: "Historic counties of England";
 * Standish, Worsley, Levenshulme, Irlam, Cadishead, Reddish and the Heatons Lancashire, north
 * of the Mersey and west of the Tame; Saddleworth (Diggle) the West Riding of Yorkshire; the
 * County of London's parishes north of the Thames and west of the Lea taken from Middlesex in
 * 1889; Birmingham and Coventry Warwickshire; Furness "Lancashire over Sands"; Kendal
 * Westmorland, Carlisle Cumberland, Huntingdon Huntingdonshire), and GeographicLib.
 */
const POSTAL = GEONAMES_POSTAL;

describe.skipIf(!hasShared(POSTAL))('places of metropolitan counties under their historic county (audit 67b)', () => {
  let resolver: DefaultPlaceResolver;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
  });
  const expectAt = resolvesAtPostalRow(() => resolver);

  it('F1: Greater Manchester places of historic Lancashire that GeoNames gives no district resolve under Lancashire and Lancs', () => {
    const lancashire = [
      ['Standish', 'WN6'],
      ['Worsley', 'M28'],
      ['Levenshulme', 'M12'],
      ['Cadishead', 'M44'],
      ['Gorton', 'M18'],
      ['Pendlebury', 'M27'],
      ['Lowton', 'WA3'],
    ] as const;
    for (const [name, outcode] of lancashire) for (const county of ['Lancashire', 'Lancs']) expectAt(`${name}, ${county}`, name, outcode);
  });

  it('F2: Reddish (SK5) and Heaton Moor (SK4) are Lancashire, not Cheshire', () => {
    for (const [name, outcode] of [['Reddish', 'SK5'], ['Heaton Moor', 'SK4']] as const) {
      expectAt(`${name}, Lancs`, name, outcode);
      expect(resolverRefusal(resolver, `${name}, Cheshire`).message).not.toContain(`no ${name} in`);
    }
  });

  it('F3: central and east London places of historic Middlesex resolve under Middlesex and Middx, never "no X in Middlesex"', () => {
    const middlesex = [
      ['Soho', 'W1'],
      ['Islington', 'N1'],
      ['Camden Town', 'NW1'],
      ['Hackney', 'E8'],
      ['Bow', 'E3'],
      ['Bethnal Green', 'E2'],
      ['Kentish Town', 'NW5'],
    ] as const;
    for (const [name, outcode] of middlesex) for (const county of ['Middlesex', 'Middx']) expectAt(`${name}, ${county}`, name, outcode, 3000);
    // south of the Thames is Surrey, not Middlesex
    expectAt('Brixton, Surrey', 'Brixton', 'SW2', 3000);
    expect(resolverRefusal(resolver, 'Brixton, Middlesex').code).toBe('unknown_place');
  });

  it('F6: Birmingham is Warwickshire, Barrow-in-Furness Lancashire, Diggle Yorkshire (not Lancs), Kendal Westmorland, Carlisle Cumberland, Huntingdon Huntingdonshire', () => {
    expectAt('Birmingham, Warwickshire', 'Birmingham', 'B1', 3000);
    expectAt('Coventry, Warwickshire', 'Coventry', 'CV1', 3000);
    expectAt('Barrow-in-Furness, Lancashire', 'Barrow-in-Furness', 'LA14', 3000);
    expectAt('Dalton-in-Furness, Lancashire', 'Dalton-in-Furness', 'LA15', 3000);
    expectAt('Diggle, Yorkshire', 'Diggle', 'OL3', 1000);
    expect(resolverRefusal(resolver, 'Diggle, Lancs').code).toBe('unknown_place');
    expectAt('Kendal, Westmorland', 'Kendal', 'LA9', 3000);
    expectAt('Carlisle, Cumberland', 'Carlisle', 'CA1', 3000);
    expectAt('Huntingdon, Huntingdonshire', 'Huntingdon', 'PE29', 3000);
    // Kendal was never Cumberland, Carlisle never Westmorland
    expect(resolverRefusal(resolver, 'Kendal, Cumberland').code).toBe('unknown_place');
    expect(resolverRefusal(resolver, 'Carlisle, Westmorland').code).toBe('unknown_place');
    // Rowley Regis and Old Hill (B65, B64) were Staffordshire, never Warwickshire, although their
    // codes begin with Birmingham's B; Mossley (OL5) straddled Lancashire, Cheshire and Yorkshire
    expect(resolverRefusal(resolver, 'Rowley Regis, Warwickshire').code).toBe('unknown_place');
    expect(resolverRefusal(resolver, 'Old Hill, Warwickshire').code).toBe('unknown_place');
  });
});
