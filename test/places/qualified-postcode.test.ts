import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer } from '../../src/places/gazetteer.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 64a F3: a UK postcode followed by an area that holds it ("SW1A 1AA, UK", "SW1A 1AA,
 * London") resolves as the bare postcode; before, it was "not a place we know". Oracles:
 * GeoNames' GB postal file (each outward code's nation, admin1), a hand-known point
 * (Buckingham Palace, SW1A 1AA), GeographicLib geodesics.
 */
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
// en.wikipedia.org/wiki/Buckingham_Palace infobox, 51°30′03″N 0°08′31″W: postcode SW1A 1AA
const BUCKINGHAM_PALACE = { lat: 51.50083, lon: -0.14194 };

const metres = (a: { lat: number; lon: number } | null, b: { lat: number; lon: number }) => (a === null ? Infinity : geodesic(a.lat, a.lon, b.lat, b.lon));

/** Each outward code of the postal file whose rows are all in one nation, with that nation. */
function outcodeNations(): Map<string, string> {
  const nations = new Map<string, Set<string>>();
  for (const f of readFileSync(sharedFile(POSTAL), 'utf8').split('\n').map((l) => l.split('\t'))) {
    if (f.length < 11 || f[3] === '') continue;
    const set = nations.get(f[1]!) ?? new Set<string>();
    set.add(f[3]!);
    nations.set(f[1]!, set);
  }
  return new Map([...nations].filter(([, s]) => s.size === 1).map(([code, s]) => [code, [...s][0]!]));
}

describe.skipIf(!hasShared(POSTAL))('a postcode followed by its area (audit 64a F3)', () => {
  let resolver: DefaultPlaceResolver;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });
  });

  it('every 10th outward code of the postal file, followed by ", UK" or its nation, with or without an inward code, is where the bare code is; another nation is unknown_place', () => {
    const wrong: string[] = [];
    let checked = 0;
    const codes = [...outcodeNations()].filter((_, i) => i % 10 === 0);
    for (const [code, nation] of codes) {
      const bare = resolver.resolve(code);
      if (bare === null) continue;
      checked++;
      for (const q of [`${code}, UK`, `${code} 1AA, UK`, `${code}, ${nation}`, `${code} 9ZZ, ${nation}, United Kingdom`]) {
        if (metres(resolver.resolve(q), bare) > 1) wrong.push(q);
      }
      const other = nation === 'Northern Ireland' ? 'Wales' : 'Northern Ireland';
      expect(() => resolver.resolve(`${code}, ${other}`), `${code}, ${other}`).toThrow(UnknownPlaceError);
    }
    expect(checked).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  describe.skipIf(!hasShared(LONDON_PUBS))('through find on the OSM London pubs', () => {
    let engine: Engine;
    beforeAll(async () => {
      const { records } = await collectRun(importOsm(sharedFile(LONDON_PUBS)));
      engine = createEngine(records as VenueRecord[]);
    });

    it('"SW1A 1AA, UK" and "SW1A 1AA, London" find what "SW1A 1AA" finds, near Buckingham Palace; "SW1A 1AA, Kent" is unknown_place saying where it is', () => {
      const bare = engine.find({ q: 'pub', location: 'SW1A 1AA' });
      expect(metres({ lat: bare.resolvedPlace!.Lat, lon: bare.resolvedPlace!.Lon }, BUCKINGHAM_PALACE)).toBeLessThan(2000);
      for (const location of ['SW1A 1AA, UK', 'SW1A 1AA, London', 'sw1a 1aa, England', 'SW1A 1AA, London, UK']) {
        const r = engine.find({ q: 'pub', location });
        expect(r.resolvedPlace, location).toEqual(bare.resolvedPlace);
        expect(r.totalFound, location).toBe(bare.totalFound);
      }
      try {
        engine.find({ q: 'pub', location: 'SW1A 1AA, Kent' });
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(UnknownPlaceError);
        expect((e as Error).message).toContain('no SW1A 1AA in Kent; SW1A 1AA is in Greater London');
      }
    });
  });
});

/**
 * Audit 65a F12: a postcode of Jersey, Guernsey or the Isle of Man followed by its own
 * country was refused with that country ("no JE2 in Jersey; JE2 is in Jersey Channel
 * Islands"), "IM1 1AA, IOM" too, and "IM1, UK" resolved though the Isle of Man is not in the
 * UK. Oracle: the outward codes of GeoNames' GB postal file in each (JE, GY, IM), and the
 * Crown Dependencies' names.
 */
describe.skipIf(!hasShared(POSTAL))('a postcode of a Crown Dependency followed by its area (audit 65a F12)', () => {
  const COUNTRY: Record<string, readonly string[]> = { JE: ['Jersey'], GY: ['Guernsey'], IM: ['Isle of Man', 'IOM', 'IM'] };
  let resolver: DefaultPlaceResolver;
  let codes: string[];
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([]);
    codes = [...new Set(readFileSync(sharedFile(POSTAL), 'utf8').split('\n').map((l) => l.split('\t')[1] ?? '').filter((c) => /^(?:JE|GY|IM)\d/.test(c)))];
  });
  const outcome = (name: string): string => {
    try {
      return resolver.resolve(name) === null ? 'null' : 'resolved';
    } catch (e) {
      if (e instanceof UnknownPlaceError) return e.message;
      throw e;
    }
  };

  it('each outward code resolves followed by its own country (and short forms), and is refused followed by "UK", naming its country', () => {
    expect(codes.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const code of codes) {
      const names = COUNTRY[code.slice(0, 2)]!;
      for (const area of names) if (outcome(`${code}, ${area}`) !== 'resolved') wrong.push(`${code}, ${area}: ${outcome(`${code}, ${area}`)}`);
      const uk = outcome(`${code}, UK`);
      if (!uk.includes(`no ${code} in UK; ${code} is in ${names[0]!}`)) wrong.push(`${code}, UK: ${uk}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a full postcode with a short form: "IM1 1AA, IOM" resolves as "IM1 1AA"', () => {
    expect(resolver.resolve('IM1 1AA, IOM')).toEqual(resolver.resolve('IM1 1AA'));
  });
});
