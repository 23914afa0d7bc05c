import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 65a F3 and F14: a qualifier that names no area the gazetteer knows ("County Cork",
 * "Lodnon") was answered "no Cork in County Cork", a false statement; the forms people write
 * for a county ("Co. Durham", "Herts", "NI") were not read; a misspelt area had no
 * did-you-mean; "Soho London" (no comma) had no suggestion; ", London" resolved to London.
 * Oracles: GeoNames' GB places CSV (each town's row), hand-written expected messages,
 * GeographicLib geodesics.
 */
const PLACES = 'geonames-gb/gb_places_geonames.csv';

/** Royal Mail's postal county abbreviations, each with its county town (Wikipedia, "Postal counties of the United Kingdom"). */
const ABBREVIATIONS: ReadonlyArray<readonly [abbreviation: string, town: string]> = [
  ['Cambs', 'Cambridge'], ['Herts', 'Hertford'], ['Lancs', 'Lancaster'], ['Oxon', 'Oxford'], ['Beds', 'Bedford'],
  ['Bucks', 'Aylesbury'], ['Glos', 'Gloucester'], ['Staffs', 'Stafford'], ['N Yorks', 'Northallerton'],
  ['N. Yorks', 'Northallerton'], ['Hants', 'Winchester'], ['Wilts', 'Trowbridge'], ['Worcs', 'Worcester'],
  ['Northants', 'Northampton'], ['Notts', 'Nottingham'], ['Leics', 'Leicester'], ['Lincs', 'Lincoln'], ['Berks', 'Reading'],
];

describe.skipIf(!hasShared(PLACES))('a qualifier that is no area the gazetteer knows (audit 65a F3, F14)', () => {
  let resolver: DefaultPlaceResolver;
  let rows: Map<string, { lat: number; lon: number; people: number }>;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
    rows = new Map();
    for (const line of readFileSync(sharedFile(PLACES), 'utf8').split('\n').slice(1)) {
      const f = line.split(',');
      if (f.length !== 11 || line.includes('"')) continue;
      // the most populous row of a name (GeoNames lists several Newcastles)
      const people = Number(f[10] || 0);
      if ((rows.get(f[0]!)?.people ?? -1) < people) rows.set(f[0]!, { lat: Number(f[1]), lon: Number(f[2]), people });
    }
  });
  const refused = (name: string): UnknownPlaceError => {
    try {
      resolver.resolve(name);
    } catch (e) {
      if (e instanceof UnknownPlaceError) return e;
      throw e;
    }
    throw new Error(`${name} resolved`);
  };
  const metresTo = (name: string, town: string): number => {
    const p = resolver.resolve(name);
    const r = rows.get(town)!;
    return p === null ? Infinity : geodesic(p.lat, p.lon, r.lat, r.lon);
  };

  it('"Cork, County Cork" says the county is not an area we know, not that Cork is not in it', () => {
    const e = refused('Cork, County Cork');
    expect(e.message).toBe('location "Cork, County Cork": "County Cork" is not an area we know; Cork is in Ireland; say which, e.g. "Cork, Ireland"');
    expect(refused('Washington, District of Columbia').message).toContain('"District of Columbia" is not an area we know; Washington is in ');
  });

  it('a real area the place is not in is still "no X in Y"', () => {
    expect(refused('St Ives, Devon').message).toContain('no St Ives in Devon; ');
  });

  it('"Co." and "County" before a county, and "NI", qualify a place (GeoNames rows)', () => {
    expect(metresTo('Durham, Co. Durham', 'Durham')).toBeLessThan(2000);
    expect(metresTo('Belfast, NI', 'Belfast')).toBeLessThan(2000);
    // GB postal file BT33 Newcastle, Northern Ireland: 54.218,-5.8898 (its GeoNames county is Newry Mourne and Down)
    for (const name of ['Newcastle, Co. Down', 'Newcastle, County Down']) {
      const p = resolver.resolve(name)!;
      expect(geodesic(p.lat, p.lon, 54.218, -5.8898), name).toBeLessThan(2000);
    }
  });

  it('each postal county abbreviation qualifies its county town (GeoNames row within 2 km)', () => {
    const far = ABBREVIATIONS.map(([abbreviation, town]) => ({ name: `${town}, ${abbreviation}`, m: metresTo(`${town}, ${abbreviation}`, town) })).filter((r) => !(r.m < 2000));
    expect(far).toEqual([]);
  });

  it('a misspelt area is offered the known area it resembles, when the place is there', () => {
    const e = refused('Soho, Lodnon');
    expect(e.message).toBe('location "Soho, Lodnon": "Lodnon" is not an area we know; did you mean "Soho, London"?');
    expect(e.suggestions).toEqual(['Soho, London']);
    expect(metresTo('Soho, London', 'Soho')).toBeLessThan(1000);
    expect(refused('Douglas, Isle of Mann').suggestions).toEqual(['Douglas, Isle of Man']);
  });

  it('a place and its area written without a comma is offered with one', () => {
    for (const name of ['Soho London', 'Soho (London)', 'Soho - London', 'Soho/London']) {
      expect(resolver.resolve(name), name).toBeNull();
      expect(resolver.suggest(name, 3), name).toEqual(['Soho, London']);
    }
  });

  it('an area with no place name before it is refused, naming the location', () => {
    const e = refused(', London');
    expect(e.param).toBe('location');
    expect(e.value).toBe(', London');
    expect(e.message).toBe('location ", London" has no place name before its comma; name a place, then its area ("Soho, London")');
  });
});
