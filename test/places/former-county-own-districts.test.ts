import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { hasShared } from '../support/real-data.js';
import { geodesic } from '../support/oracle.js';
import { GEONAMES_POSTAL, readGeoNamesPlaces, readGeoNamesPostal } from './support/geonames-rows.js';
import { resolvesAtPostalRow } from './support/resolves-at-postal-row.js';
import { resolverRefusal } from './support/refusals.js';

/**
 * Audit 67f F1: a place of a county split between former counties (Cumbria, Cambridgeshire,
 * the West Midlands, Greater London, Greater Manchester) is read by its own postcode district,
 * and a district that straddles a boundary by its places. Before, the district was the one
 * whose point lay nearest: Tebay (CA10, Westmorland) lay nearer Sedbergh's LA10 and was
 * "Tebay, Yorkshire"; Lazonby (CA10, Cumberland) was Westmorland with all of CA10; Stilton was
 * "no Stilton in Huntingdonshire".
 * Oracles: the GeoNames postal row of each place in its district (read here from the postal
 * file: the place resolved lies at it, GeographicLib), and hand-stated historic county facts
 * (the parishes' histories, as audits 67f and 68b stated them): Leath Ward's villages east of the Eden
 * and Great Salkeld Cumberland; Tebay, Pooley Bridge, Glenridding (Patterdale) and Meathop
 * Westmorland; Hawkshead and Near Sawrey (Hawkshead and Claife parishes) and Cartmel Fell
 * Lancashire; Ulpha (Duddon) Cumberland; Grasscroft (Saddleworth) the West Riding; Streetly
 * (Aldridge) Staffordshire; Rubery and Bartley Green (Northfield) Worcestershire; Stilton,
 * Yaxley and Old Fletton Huntingdonshire; Eaton Socon Bedfordshire; North Woolwich (Woolwich
 * parish) Kent; Barnet and Totteridge Hertfordshire; Hadfield Derbyshire, Mellor Cheshire since 1936; Old Street (EC1, Finsbury)
 * and Shoreditch (EC2A) Middlesex.
 */
const POSTAL = GEONAMES_POSTAL;

describe.skipIf(!hasShared(POSTAL))("former counties by a place's own postcode district (audit 67f F1)", () => {
  let resolver: DefaultPlaceResolver;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
  });
  const expectAt = resolvesAtPostalRow(() => resolver);
  const refusedUnder = (qualified: string) => expect(resolverRefusal(resolver, qualified).code, qualified).toBe('unknown_place');

  /** [place, its district, the historic county it lay in, a former county it did not]. */
  const FACTS: ReadonlyArray<readonly [string, string, string, string]> = [
    ['Tebay', 'CA10', 'Westmorland', 'Yorkshire'],
    ['Lazonby', 'CA10', 'Cumberland', 'Westmorland'],
    ['Langwathby', 'CA10', 'Cumberland', 'Westmorland'],
    ['Pooley Bridge', 'CA10', 'Westmorland', 'Cumberland'],
    ['Great Salkeld', 'CA11', 'Cumberland', 'Westmorland'],
    ['Glenridding', 'CA11', 'Westmorland', 'Cumberland'],
    ['Hawkshead', 'LA22', 'Lancashire', 'Westmorland'],
    ['Near Sawrey', 'LA22', 'Lancashire', 'Westmorland'],
    ['Cartmel Fell', 'LA11', 'Lancashire', 'Westmorland'],
    ['Meathop', 'LA11', 'Westmorland', 'Lancashire'],
    ['Ulpha', 'LA20', 'Cumberland', 'Lancashire'],
    ['Grasscroft', 'OL4', 'Yorkshire', 'Lancashire'],
    ['Streetly', 'B74', 'Staffordshire', 'Warwickshire'],
    ['Rubery', 'B45', 'Worcestershire', 'Warwickshire'],
    ['Stilton', 'PE7', 'Huntingdonshire', 'Warwickshire'],
    ['Yaxley', 'PE7', 'Huntingdonshire', 'Warwickshire'],
    ['Old Fletton', 'PE2', 'Huntingdonshire', 'Warwickshire'],
    // audit 68h F1: the Conington by Sawtry, Holme and Denton (PE7) were Huntingdonshire too
    ['Conington', 'PE7', 'Huntingdonshire', 'Warwickshire'],
    ['Holme', 'PE7', 'Huntingdonshire', 'Warwickshire'],
    ['Denton', 'PE7', 'Huntingdonshire', 'Warwickshire'],
    ['North Woolwich', 'E16', 'Kent', 'Essex'],
    ['Old Street', 'EC1', 'Middlesex', 'Surrey'],
    // Shoreditch parish lay in Middlesex (County of London from 1889), outside the City, though
    // its nearest own district is the City's EC2 (EC2A): it was refused under Middlesex
    ['Shoreditch', 'EC2', 'Middlesex', 'Surrey'],
    // audit 68b F6: Barnet and Totteridge were Hertfordshire until 1965
    ['Barnet', 'EN5', 'Hertfordshire', 'Middlesex'],
    ['Totteridge', 'N20', 'Hertfordshire', 'Middlesex'],
  ];

  it('each place resolves under the historic county it lay in, at its own postal row', () => {
    for (const [name, district, county] of FACTS) expectAt(`${name}, ${county}`, name, district);
  });

  it('and is refused under a former county it did not lie in', () => {
    for (const [name, , , notCounty] of FACTS) refusedUnder(`${name}, ${notCounty}`);
  });

  it("a place that lay in a county the table does not hold resolves under none of its district's", () => {
    // Eaton Socon (PE19, Huntingdonshire's district) was Bedfordshire; Hadfield (SK14, Cheshire's) Derbyshire
    for (const qualified of ['Eaton Socon, Huntingdonshire', 'Hadfield, Cheshire']) refusedUnder(qualified);
    // while its district's other places keep the district's county
    expectAt('Great Paxton, Huntingdonshire', 'Great Paxton', 'PE19');
    expectAt('Whetstone, Middlesex', 'Whetstone', 'N20', 3000);
    expectAt('Marple, Cheshire', 'Marple', 'SK6', 3000);
    // Mellor (SK6) was Derbyshire's until 1936, Cheshire's since: its postal county (audit 68h F2)
    expectAt('Mellor, Cheshire', 'Mellor', 'SK6');
  });

  it('towns no postal row names are read by their own district, not the nearest district point: Kimbolton and Sawtry (PE28) are Huntingdonshire\'s', () => {
    // the premise: GeoNames' postal file names neither in Cambridgeshire, and the nearest district points are
    // MK44 (Bedfordshire) and PE7 (Peterborough), which read them as in no former county
    const postalNames = new Set(readGeoNamesPostal().filter((r) => r.admin2 === 'Cambridgeshire').map((r) => r.name));
    const places = readGeoNamesPlaces();
    for (const name of ['Kimbolton', 'Sawtry']) {
      expect(postalNames.has(name), name).toBe(false);
      const row = places.find((p) => p.name === name && p.admin2 === 'Cambridgeshire');
      expect(row, `${name}, Cambridgeshire in the places file`).toBeDefined();
      const got = resolver.resolve(`${name}, Huntingdonshire`);
      expect(got, `${name}, Huntingdonshire`).not.toBeNull();
      expect(geodesic(got!.lat, got!.lon, row!.lat, row!.lon)).toBeLessThan(100);
      refusedUnder(`${name}, Bedfordshire`);
    }
    // the Herefordshire Kimbolton (HR6) keeps its own district's reading
    expectAt('Kimbolton, Herefordshire', 'Kimbolton', 'HR6');
  });
});
