import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer, type GazetteerEntry } from '../../src/places/gazetteer.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared } from '../support/real-data.js';
import { GEONAMES_PLACES, GEONAMES_POSTAL, readGeoNamesPlaces, readGeoNamesPostal, type GeoNamesPlace } from './support/geonames-rows.js';

/**
 * Audit 62d finding 4: a place name qualified by its county or nation after a comma ("St Ives,
 * Cambridgeshire", "Newport, Wales") resolves to the place of that name in that area, and a
 * known name qualified by an area it is not in is unknown_place naming the areas it is in.
 * Oracle: GeoNames' GB places file (the raw CSV, read here with a small RFC 4180 splitter,
 * with its admin1 and admin2 names) and its postal file; distances are GeographicLib geodesics.
 */
const CSV = GEONAMES_PLACES;
const POSTAL = GEONAMES_POSTAL;

type OracleRow = GeoNamesPlace;
const readOracle = readGeoNamesPlaces;
const readPostal = readGeoNamesPostal;

/** The oracle's spelling of a name folded as a person types it ("Saint Ives" is "St Ives"). */
const folded = (name: string) => name.toLowerCase().replace(/^saint /, 'st ');

describe.skipIf(!hasShared(CSV) || !hasShared(POSTAL))('a place name qualified by its county or nation (audit 62d finding 4; GeoNames oracle)', () => {
  let oracle: OracleRow[];
  let postal: ReturnType<typeof readPostal>;
  let resolver: DefaultPlaceResolver;
  beforeAll(() => {
    oracle = readOracle().filter((r) => r.admin2 !== '');
    postal = readPostal();
    resolver = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });
  });
  const row = (name: string, admin: string) => {
    const rows = oracle.filter((r) => r.name === name && (r.admin2 === admin || r.admin1 === admin));
    return rows.reduce((a, b) => (b.population > a.population ? b : a));
  };
  const metresFrom = (got: { lat: number; lon: number } | null, r: OracleRow) => (got === null ? Infinity : geodesic(got.lat, got.lon, r.lat, r.lon));
  /** find's resolvedPlace ({ Lat, Lon }) as a point. */
  const point = (p: { Lat: number; Lon: number } | undefined) => (p === undefined ? null : { lat: p.Lat, lon: p.Lon });

  it('"St Ives, Cambridgeshire" is GeoNames\' Saint Ives (Cambridgeshire), "St Ives, Cornwall" the Cornish town; bare "St Ives" stays Cornwall', () => {
    expect(metresFrom(resolver.resolve('St Ives, Cambridgeshire'), row('Saint Ives', 'Cambridgeshire'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('St Ives, Cornwall'), row('St Ives', 'Cornwall'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('St Ives'), row('St Ives', 'Cornwall'))).toBeLessThan(1);
  });

  it('"Richmond, North Yorkshire" and "Richmond, Greater London" (also "Richmond, London") are the two Richmonds', () => {
    expect(metresFrom(resolver.resolve('Richmond, North Yorkshire'), row('Richmond', 'North Yorkshire'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Richmond, Greater London'), row('Richmond', 'Greater London'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Richmond, London'), row('Richmond', 'Greater London'))).toBeLessThan(1);
  });

  it('"Newport, Wales" (admin1) is the most populous Newport in Wales (the city), "Newport, Isle of Wight" the island\'s', () => {
    const newportWales = row('Newport', 'Wales');
    expect(newportWales.population).toBeGreaterThan(100_000);
    expect(metresFrom(resolver.resolve('Newport, Wales'), newportWales)).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Newport, Isle of Wight'), row('Newport', 'Isle of Wight'))).toBeLessThan(1);
  });

  it('the qualifier folds case, accents and punctuation, and "Saint"/"St", as place names do', () => {
    const cambs = row('Saint Ives', 'Cambridgeshire');
    for (const name of ['st. ives,CAMBRIDGESHIRE', '  Saint Ives ,  cambridgeshire ', 'St-Ives, Cambridgéshire']) expect(metresFrom(resolver.resolve(name), cambs), name).toBeLessThan(1);
  });

  it('every GeoNames name found in several counties resolves, qualified by each county it is unique in (in both files), to that row', () => {
    // Another place of the name in that county per the postal file: a postal row of the name
    // and county more than 10 km from the row (Yatton, Herefordshire: two villages).
    const postalByName = new Map<string, typeof postal>();
    for (const p of postal) postalByName.set(folded(p.name), [...(postalByName.get(folded(p.name)) ?? []), p]);
    const postalOf = (name: string) => postalByName.get(folded(name)) ?? [];
    const postalElsewhere = (r: OracleRow, county: string) => postalOf(r.name).some((p) => p.admin2 === county && geodesic(p.lat, p.lon, r.lat, r.lon) > 10_000);
    const counties = new Map<string, Map<string, OracleRow[]>>();
    for (const r of oracle) {
      const byCounty = counties.get(folded(r.name)) ?? counties.set(folded(r.name), new Map()).get(folded(r.name))!;
      byCounty.set(r.admin2, [...(byCounty.get(r.admin2) ?? []), r]);
    }
    let checked = 0;
    const wrong: string[] = [];
    for (const byCounty of counties.values()) {
      if (byCounty.size < 2) continue;
      for (const [county, rows] of byCounty) {
        if (rows.length !== 1) continue;
        const r = rows[0]!;
        // Also in that county under its ceremonial name (Kingswood, South Gloucestershire is in Gloucestershire too).
        if (oracle.some((o) => o !== r && folded(o.name) === folded(r.name) && postalOf(o.name).some((p) => p.admin2 === county && geodesic(p.lat, p.lon, o.lat, o.lon) < 10_000))) continue;
        if (postalElsewhere(r, county)) continue;
        const d = metresFrom(resolver.resolve(`${r.name}, ${county}`), r);
        checked++;
        if (d > 1) wrong.push(`${r.name}, ${county}: ${Math.round(d)} m`);
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(wrong).toEqual([]);
  });

  it('"St Ives, Devon" is unknown_place listing the areas St Ives is in (GeoNames: Cornwall, Cambridgeshire; postal: Hampshire), each suggestion resolving there', () => {
    const areas = new Set([...oracle.filter((r) => folded(r.name) === 'st ives').map((r) => r.admin2), ...postal.filter((p) => folded(p.name) === 'st ives').map((p) => p.admin2)]);
    expect(areas).toEqual(new Set(['Cornwall', 'Cambridgeshire', 'Hampshire']));
    let error: unknown;
    try {
      resolver.resolve('St Ives, Devon');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownPlaceError);
    const e = error as UnknownPlaceError;
    expect(e.code).toBe('unknown_place');
    expect(e.message).toBe('location "St Ives, Devon": no St Ives in Devon; St Ives is in Cornwall, Cambridgeshire and Hampshire; say which, e.g. "St Ives, Cornwall"');
    expect(new Set(e.suggestions)).toEqual(new Set([...areas].map((a) => `St Ives, ${a}`)));
    for (const s of e.suggestions) expect(resolver.resolve(s), s).not.toBeNull();
  });

  it('the UK by any of its names, and a county or nation followed by the country, qualify a GB place (audit 63a F3)', () => {
    for (const country of ['UK', 'U.K.', 'United Kingdom', 'GB', 'Britain', 'Great Britain', 'England']) {
      expect(metresFrom(resolver.resolve(`London, ${country}`), row('London', 'Greater London')), country).toBeLessThan(1);
    }
    expect(metresFrom(resolver.resolve('Edinburgh, Scotland'), row('Edinburgh', 'Scotland'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Swansea, Wales, GB'), row('Swansea', 'Wales'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Belfast, Northern Ireland, UK'), row('Belfast', 'Northern Ireland'))).toBeLessThan(1);
    // place, area, country: the county chooses among the places of that name
    expect(metresFrom(resolver.resolve('Richmond, North Yorkshire, UK'), row('Richmond', 'North Yorkshire'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Richmond, Greater London, England'), row('Richmond', 'Greater London'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('St Ives, Cornwall, England'), row('St Ives', 'Cornwall'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('St Ives, Cambridgeshire, UK'), row('Saint Ives', 'Cambridgeshire'))).toBeLessThan(1);
    expect(metresFrom(resolver.resolve('Cardiff, Wales, UK'), row('Cardiff', 'Wales'))).toBeLessThan(1);
    expect(resolver.resolve('Camden, London, UK')).toMatchObject({ name: 'Camden' });
  });

  it('a wrong qualifier is named alone, never beside an area of the place listed as one it is in; no "e.g." repeats the name (audit 63a F3)', () => {
    const message = (name: string) => {
      try {
        resolver.resolve(name);
      } catch (e) {
        return (e as UnknownPlaceError).message;
      }
      return 'resolved';
    };
    // Belfast is in the UK but not in Great Britain
    expect(message('Belfast, Great Britain')).toBe('location "Belfast, Great Britain": no Belfast in Great Britain; Belfast is in Northern Ireland; say which, e.g. "Belfast, Northern Ireland"');
    expect(message('Richmond, North Yorkshire, Wales')).toBe(
      'location "Richmond, North Yorkshire, Wales": no Richmond in Wales; Richmond is in North Yorkshire and Greater London; say which, e.g. "Richmond, North Yorkshire"',
    );
    expect(message('St Ives, Cornwall, Cambridgeshire')).toBe(
      'location "St Ives, Cornwall, Cambridgeshire": no one St Ives is in all of Cornwall, Cambridgeshire; St Ives is in Cornwall, Cambridgeshire and Hampshire; say which, e.g. "St Ives, Cornwall"',
    );
    // the county named like the place (a unitary authority): the nation tells it apart
    expect(message('Cardiff, Devon')).toBe('location "Cardiff, Devon": no Cardiff in Devon; Cardiff is in Wales; say which, e.g. "Cardiff, Wales"');
    // (Gwent, Newport's former county, is read since audit 66a F2: see postal-county-forms.test.ts)
    const newport = message('Newport, Kent');
    expect(newport).toMatch(/^location "Newport, Kent": no Newport in Kent; Newport is in Wales, Isle of Wight, /);
    expect(newport).toContain('e.g. "Newport, Wales"');
    for (const name of ['Cardiff, Devon', 'Newport, Kent', 'Belfast, Great Britain', 'St Ives, Devon']) {
      let error: UnknownPlaceError | undefined;
      try {
        resolver.resolve(name);
      } catch (e) {
        error = e as UnknownPlaceError;
      }
      for (const s of error!.suggestions) {
        const [place, area] = s.split(', ');
        expect(area, s).not.toBe(place);
        expect(resolver.resolve(s), s).not.toBeNull();
      }
    }
  });

  it('through find: the qualifier chooses the place whatever the venues, and a wrong one is a 400-class unknown_place', () => {
    const v = (id: string, lat: number, lon: number): VenueRecord => ({ id, name: `Cafe ${id}`, location: { type: 'Point', coordinates: [lat, lon] } });
    // Venues around St Ives, Cornwall only: the bare name is the Cornish town, the qualified one the Cambridgeshire town.
    const engine = createEngine([v('a', 50.2086, -5.4875), v('b', 50.21, -5.48), v('c', 50.207, -5.49)]);
    const cambs = row('Saint Ives', 'Cambridgeshire');
    expect(metresFrom(point(engine.find({ q: 'cafe', location: 'St Ives, Cambridgeshire' }).resolvedPlace), cambs)).toBeLessThan(1);
    expect(metresFrom(point(engine.find({ q: 'cafe', location: 'St Ives' }).resolvedPlace), row('St Ives', 'Cornwall'))).toBeLessThan(1);
    expect(() => engine.find({ q: 'cafe', location: 'St Ives, Devon' })).toThrow(/St Ives is in Cornwall, Cambridgeshire and Hampshire/);
  });
});

describe.skipIf(!hasShared(CSV))('the embedded GB gazetteer carries GeoNames\' admin names', () => {
  it('each GeoNames row has an entry of its name at its point with its admin1 as nation and admin2 as first county', () => {
    const byName = new Map<string, GazetteerEntry[]>();
    for (const e of Gazetteer.embedded(['GB']).entries()) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
    const missing: string[] = [];
    for (const r of readOracle()) {
      if (r.admin1 === '') continue; // Dhekelia, Cyprus: not in the file
      const e = (byName.get(r.name) ?? []).find((x) => geodesic(x.lat, x.lon, r.lat, r.lon) < 1 && x.nation === r.admin1 && x.counties?.[0] === r.admin2);
      if (e === undefined) missing.push(`${r.name} (${r.admin2}, ${r.admin1})`);
    }
    expect(missing.slice(0, 10)).toEqual([]);
  });
});
