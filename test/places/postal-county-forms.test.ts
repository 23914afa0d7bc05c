import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer, isInArea } from '../../src/places/gazetteer.js';
import { FORMER_COUNTY_KEYS, SHORT_FORM_AREAS } from '../../src/places/loose-area.js';
import type { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';
import { hasShared } from '../support/real-data.js';
import { GEONAMES_PLACES, GEONAMES_POSTAL, readGeoNamesPlaces, readGeoNamesPostal } from './support/geonames-rows.js';
import { resolverRefusal } from './support/refusals.js';

/**
 * Audit 66a F2, F3, F10: a place qualified by the county people write on its address was
 * refused with a falsehood ("no Belfast in County Antrim", "no Bury in Lancs", "no JE2 in
 * Channel Islands"), and most of Royal Mail's postal county abbreviations ("E Sussex", "Derbys",
 * "IOW") were "not an area we know". Oracles: GeoNames' GB places CSV (each town's own row,
 * picked by its admin2 name) and postal file (JE2, GY1), hand-known facts of which historic or
 * postal county each town is in (Wikipedia, "Postal counties of the United Kingdom"), GeographicLib.
 */
const PLACES = GEONAMES_PLACES;
const POSTAL = GEONAMES_POSTAL;

/** A qualified name, the GeoNames row it means (name, admin2), hand-known to lie in the qualifier's county. */
const IN_FORMER_COUNTY: ReadonlyArray<readonly [qualified: string, name: string, admin2: string]> = [
  ['Belfast, County Antrim', 'Belfast', 'City of Belfast'],
  ['Belfast, Co. Antrim', 'Belfast', 'City of Belfast'],
  ['Bury, Lancs', 'Bury', 'Borough of Bury'],
  ['Bury, Lancashire', 'Bury', 'Borough of Bury'],
  ['Middlesbrough, Cleveland', 'Middlesbrough', 'Middlesbrough'],
  ['Stockton, Cleveland', 'Stockton-on-Tees', 'Stockton-on-Tees'],
  ['Kingston upon Thames, Surrey', 'Kingston upon Thames', 'Greater London'],
  ['Croydon, Surrey', 'Croydon', 'Greater London'],
  ['Bromley, Kent', 'Bromley', 'Greater London'],
  ['Romford, Essex', 'Romford', 'Greater London'],
  ['Harrow, Middx', 'Harrow', 'Greater London'],
  ['Wembley, Middlesex', 'Wembley', 'Greater London'],
  ['Newport, Gwent', 'Newport', 'Newport'],
  ['Washington, Co. Durham', 'Washington', 'Sunderland'],
  ['Stockport, Cheshire', 'Stockport', 'Borough of Stockport'],
];

/** Royal Mail's former postal county abbreviations with a town of that county, and the GeoNames row (name, admin2) of the town. */
const ABBREVIATIONS: ReadonlyArray<readonly [qualified: string, name: string, admin2: string]> = [
  ['Lewes, E Sussex', 'Lewes', 'East Sussex'],
  ['Chichester, W Sussex', 'Chichester', 'West Sussex'],
  ['Leeds, W Yorks', 'Leeds', 'City and Borough of Leeds'],
  ['Sheffield, S Yorks', 'Sheffield', 'Sheffield'],
  ['Kingston upon Hull, E Yorks', 'Kingston upon Hull', 'City of Kingston upon Hull'],
  ['Derby, Derbys', 'Derby', 'Derby'],
  ['Warwick, Warks', 'Warwick', 'Warwickshire'],
  ['Shrewsbury, Shrops', 'Shrewsbury', 'Shropshire'],
  ['Shrewsbury, Salop', 'Shrewsbury', 'Shropshire'],
  ['Hereford, Herefs', 'Hereford', 'Herefordshire'],
  ['Alnwick, Northd', 'Alnwick', 'Northumberland'],
  ['Dudley, W Midlands', 'Dudley', 'Dudley'],
  ['Coventry, W Mids', 'Coventry', 'Coventry'],
  ['Newport, IOW', 'Newport', 'Isle of Wight'],
  ['Newport, I.O.W.', 'Newport', 'Isle of Wight'],
  ['Gateshead, T&W', 'Gateshead', 'Gateshead'],
];

describe.skipIf(!hasShared(PLACES) || !hasShared(POSTAL))('places qualified by a postal or historic county (audit 66a F2, F3, F10)', () => {
  let resolver: DefaultPlaceResolver;
  let rows: Map<string, { lat: number; lon: number }>;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
    rows = new Map(readGeoNamesPlaces().map((r) => [`${r.name}|${r.admin2}`, { lat: r.lat, lon: r.lon }]));
  });
  const refused = (name: string): UnknownPlaceError => resolverRefusal(resolver, name);
  const expectAt = (qualified: string, name: string, admin2: string): void => {
    const row = rows.get(`${name}|${admin2}`);
    expect(row, `${name}, ${admin2} in the GeoNames file`).toBeDefined();
    const got = resolver.resolve(qualified);
    expect(got, qualified).not.toBeNull();
    expect(geodesic(got!.lat, got!.lon, row!.lat, row!.lon), qualified).toBeLessThan(1000);
  };

  it('a town qualified by its former postal or historic county resolves to the town (F2)', () => {
    for (const [qualified, name, admin2] of IN_FORMER_COUNTY) expectAt(qualified, name, admin2);
  });

  it('a town qualified by a Royal Mail postal county abbreviation resolves to the town (F3)', () => {
    for (const [qualified, name, admin2] of ABBREVIATIONS) expectAt(qualified, name, admin2);
  });

  it('a town the gazetteer lists in a district split between counties is not said to be absent from its county (F2)', () => {
    // Omagh is County Tyrone's county town, Lisburn a city of County Antrim (hand-known)
    for (const [qualified, place, area] of [
      ['Omagh, County Tyrone', 'Omagh', 'County Tyrone'],
      ['Omagh, Co. Tyrone', 'Omagh', 'Co. Tyrone'],
      ['Lisburn, Co. Antrim', 'Lisburn', 'Co. Antrim'],
    ] as const) {
      const m = refused(qualified).message;
      expect(m, qualified).not.toContain(`no ${place} in`);
      expect(m, qualified).toContain(`we do not list ${place} under ${area}, though places we list there lie within 10 km of it`);
    }
    // far from every place of the area, the plain statement stays (St Ives, Cornwall is 60 km from Devon's nearest town)
    expect(refused('St Ives, Devon').message).toContain('no St Ives in Devon;');
    expect(refused('Leeds, Gwent').message).toContain('no Leeds in Gwent;');
  });

  it('"Greater Manchester" and "Belfast Greater" are not read as Manchester and Belfast districts (audit 66f F1, F4)', () => {
    // historic and postal Cheshire (Trafford, Stockport, Tameside) and County Down (Lisburn and Castlereagh): not Lancashire, not Antrim
    for (const q of ['Altrincham, Lancs', 'Sale, Lancashire', 'Stockport, Lancs', 'Hyde, Lancs', 'Carryduff, Co. Antrim', 'Dundonald, Co. Antrim']) {
      expect(() => refused(q)).not.toThrow();
    }
  });

  it('an unknown qualifier is never offered as the place named twice ("Derby, Derby": F3)', () => {
    const e = refused('Derby, Derbi');
    for (const s of e.suggestions) expect(s).not.toBe('Derby, Derby');
    expect(e.message).not.toContain('"Derby, Derby"');
  });

  it('every short form is written for an area the GB gazetteer holds, or a former county the table covers (F3)', () => {
    const g = Gazetteer.embedded(['GB']);
    const missing = SHORT_FORM_AREAS.filter((k) => !FORMER_COUNTY_KEYS.includes(k) && !['isle of man', 'united states'].includes(k) && ![...g.entries()].some((e) => isInArea(e, k)));
    expect(missing).toEqual([]);
  });

  it('Jersey and Guernsey postcodes and places qualified by "Channel Islands" resolve as bare (F10)', () => {
    // the postal file's rows of JE2 and GY1
    const postal = new Map(readGeoNamesPostal().filter((r) => r.outcode === 'JE2' || r.outcode === 'GY1').map((r) => [r.outcode, { lat: r.lat, lon: r.lon }]));
    for (const [code, town] of [
      ['JE2', 'St Helier'],
      ['GY1', 'St Peter Port'],
    ] as const) {
      const row = postal.get(code)!;
      for (const qualified of [`${code}, Channel Islands`, `${town}, Channel Islands`]) {
        const got = resolver.resolve(qualified);
        expect(got, qualified).not.toBeNull();
        expect(geodesic(got!.lat, got!.lon, row.lat, row.lon), qualified).toBeLessThan(2000);
      }
    }
    // a UK postcode is not in the Channel Islands
    expect(refused('SW1A 1AA, Channel Islands').message).toContain('no SW1A 1AA in Channel Islands');
  });
});
