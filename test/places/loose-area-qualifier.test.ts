import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer } from '../../src/places/gazetteer.js';
import { placeKey } from '../../src/places/place-name.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { MISNAMED_POSTAL_ROWS } from '../../data/gazetteer/postal-data-exceptions.js';

/**
 * Audit 64c F2: qualifiers people type after a place's name. Oracles: hand-known points
 * (Douglas, South Lanarkshire about 55.55,-3.85; Douglas, Isle of Man about 54.15,-4.48;
 * Richmond, Virginia about 37.54,-77.44; Richmond, California about 37.94,-122.35),
 * GeographicLib distances, and GeoNames' postal file for the names in several counties.
 */
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';
const near = (got: { lat: number; lon: number } | null, lat: number, lon: number) => (got === null ? Infinity : geodesic(got.lat, got.lon, lat, lon));
/** The error a resolve throws (or null). */
function refusal(resolver: DefaultPlaceResolver, name: string): UnknownPlaceError | null {
  try {
    resolver.resolve(name);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(UnknownPlaceError);
    return err as UnknownPlaceError;
  }
}

describe('a qualifier that is part of an area\'s name, or its short form (audit 64c F2)', () => {
  const resolver = createDefaultPlaceResolver([]);

  it('"Douglas, Lanarkshire" is Douglas, South Lanarkshire (GeoNames\' county), also with ", Scotland"', () => {
    for (const name of ['Douglas, Lanarkshire', 'Douglas, lanarkshire, Scotland']) expect(near(resolver.resolve(name), 55.55, -3.85), name).toBeLessThan(3000);
  });

  it('"Douglas, IOM" and "Douglas, IM" are the Isle of Man\'s capital, as "Douglas, Isle of Man" is', () => {
    for (const name of ['Douglas, IOM', 'Douglas, IM', 'douglas, i.o.m.', 'Douglas, Isle of Man']) expect(near(resolver.resolve(name), 54.15, -4.48), name).toBeLessThan(2000);
  });

  it('a part of a word is not a suffix: "Douglas, shire" and "Douglas, arkshire" are refused', () => {
    for (const name of ['Douglas, shire', 'Douglas, arkshire']) expect(refusal(resolver, name), name).not.toBeNull();
  });
});

describe.runIf(hasShared(POSTAL))('a suffix qualifier several areas end with (audit 64c F2; postal-file oracle)', () => {
  let resolver: DefaultPlaceResolver;
  let countiesOf: Map<string, Set<string>>;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });
    countiesOf = new Map();
    for (const f of readFileSync(sharedFile(POSTAL), 'utf8').split('\n').map((l) => l.split('\t'))) {
      // A row the gazetteer leaves out as misnamed (PA80 "Castlebay", "Isle of Barra") names no county of the place.
      if (f.length < 11 || f[5] === '' || MISNAMED_POSTAL_ROWS.has(`${f[1]} ${f[2]}`)) continue;
      const set = countiesOf.get(f[2]!) ?? new Set<string>();
      set.add(f[5]!);
      countiesOf.set(f[2]!, set);
    }
  });

  it('"Sowerby, Yorkshire" (North and West Yorkshire both have one) asks which, naming both, and each resolves', () => {
    expect([...countiesOf.get('Sowerby')!].sort()).toEqual(['North Yorkshire', 'West Yorkshire']);
    const err = refusal(resolver, 'Sowerby, Yorkshire')!;
    expect(err).not.toBeNull();
    expect(err.message).not.toMatch(/no Sowerby in/);
    expect([...err.suggestions].sort()).toEqual(['Sowerby, North Yorkshire', 'Sowerby, West Yorkshire']);
    for (const s of err.suggestions) expect(resolver.resolve(s), s).not.toBeNull();
  });

  it('no refusal says a name is not in an area and then lists an area that ends with it (every postal name in several counties, by each county\'s last word)', () => {
    let checked = 0;
    for (const [name, counties] of countiesOf) {
      if (counties.size < 2 || name.includes(',')) continue;
      for (const county of counties) {
        const words = county.split(' ');
        if (words.length < 2) continue;
        const q = words[words.length - 1]!;
        const err = refusal(resolver, `${name}, ${q}`);
        checked++;
        if (err === null) continue;
        // a name the gazetteer holds only as a stray district estimate there ("St John's, Man"):
        // said so, offering the district's outward codes, which the postal file gives it
        if (/ is known only by its postal district's estimate /.test(err.message)) {
          expect(err.suggestions.length, `${name}, ${q}`).toBeGreaterThan(0);
          for (const code of err.suggestions) expect(/^[A-Z]{1,2}\d[A-Z\d]?$/.test(code), `${name}, ${q}: ${code}`).toBe(true);
          continue;
        }
        const listed = /; \S.* is in (.+); say which/.exec(err.message)?.[1] ?? '';
        const endsWithQ = (area: string) => placeKey(area) === placeKey(q) || placeKey(area).endsWith(` ${placeKey(q)}`);
        if (/: no .+ in /.test(err.message)) expect(err.suggestions.some((s) => endsWithQ(s.slice(s.lastIndexOf(',') + 1))), `${name}, ${q}: ${err.message}`).toBe(false);
        else expect(listed === '' && err.suggestions.every((s) => endsWithQ(s.slice(s.lastIndexOf(',') + 1))), `${name}, ${q}: ${err.message}`).toBe(true);
      }
    }
    expect(checked).toBe(1098); // counted from the postal file with awk, PA80 "Castlebay" left out (docs/find.md)
  });
});

describe('US states, and countries by their ISO code, on the world gazetteer (audit 64c F2)', () => {
  const world = createDefaultPlaceResolver([], { countries: null });

  it('"Richmond, Virginia" and "Richmond, VA" are Virginia\'s capital; "Richmond, California" the Bay Area city', () => {
    for (const name of ['Richmond, Virginia', 'Richmond, VA', 'Richmond, Virginia, USA']) expect(near(world.resolve(name), 37.54, -77.44), name).toBeLessThan(5000);
    expect(near(world.resolve('Richmond, California'), 37.94, -122.35)).toBeLessThan(5000);
  });

  it('"Richmond, CA" may be California or Canada: refused, naming both, without saying there is no Richmond there', () => {
    const err = refusal(world, 'Richmond, CA')!;
    expect(err).not.toBeNull();
    expect(err.message).not.toMatch(/no Richmond in/);
    expect([...err.suggestions].sort()).toEqual(['Richmond, California', 'Richmond, Canada']);
  });

  it('"Richmond, USA" and "Richmond, US" are a US Richmond; "Douglas, IM" the Isle of Man\'s', () => {
    for (const name of ['Richmond, USA', 'Richmond, US']) {
      const p = world.resolve(name);
      expect(p !== null && p.lat > 24 && p.lat < 50 && p.lon > -125 && p.lon < -66, name).toBe(true);
    }
    expect(near(world.resolve('Douglas, IM'), 54.15, -4.48)).toBeLessThan(2000);
  });
});
