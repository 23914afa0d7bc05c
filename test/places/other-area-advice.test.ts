import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer } from '../../src/places/gazetteer.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 64a F4: a name qualified by an area it is not in is answered with the areas it is
 * in; each is named by the most specific area in which the name resolves to that place. Leeds
 * the city was named by its nation ("e.g. "Leeds, England""), as its first county is its own
 * borough, while "Leeds, West Yorkshire" resolves. Oracles: a hand-known point (Wikipedia)
 * and GeoNames' postal file (the ceremonial county of each place's rows); GeographicLib.
 */
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';
const NATIONS = ['England', 'Scotland', 'Wales', 'Northern Ireland'];
// en.wikipedia.org/wiki/Leeds infobox, 53°47′59″N 1°32′57″W
const LEEDS = { lat: 53.7997, lon: -1.5492 };

const metres = (a: { lat: number; lon: number } | null, b: { lat: number; lon: number }) => (a === null ? Infinity : geodesic(a.lat, a.lon, b.lat, b.lon));

describe.skipIf(!hasShared(POSTAL))('the areas named for a place qualified by an area it is not in (audit 64a F4)', () => {
  let resolver: DefaultPlaceResolver;
  let postal: Array<{ name: string; nation: string; county: string; lat: number; lon: number }>;
  beforeAll(() => {
    resolver = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });
    postal = readFileSync(sharedFile(POSTAL), 'utf8')
      .split('\n')
      .map((l) => l.split('\t'))
      .filter((f) => f.length >= 11 && f[5] !== '')
      .map((f) => ({ name: f[2]!, nation: f[3]!, county: f[5]!, lat: Number(f[9]), lon: Number(f[10]) }));
  });
  const refused = (name: string): UnknownPlaceError | null => {
    try {
      resolver.resolve(name);
      return null;
    } catch (e) {
      if (e instanceof UnknownPlaceError) return e;
      throw e;
    }
  };

  it('"Leeds, Scotland" names the city by West Yorkshire, and "Leeds, West Yorkshire" is the city', () => {
    const e = refused('Leeds, Scotland')!;
    expect(e.message).toContain('e.g. "Leeds, West Yorkshire"');
    expect(e.suggestions).toContain('Leeds, West Yorkshire');
    expect(e.suggestions).not.toContain('Leeds, England');
    expect(metres(resolver.resolve('Leeds, West Yorkshire'), LEEDS)).toBeLessThan(1500);
  });

  it('for every postal name in several counties, qualified by a nation it is not in: each suggestion resolves, and names a nation only when no county the postal file gives that place would name it', () => {
    const byName = new Map<string, typeof postal>();
    for (const r of postal) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
    const wrong: string[] = [];
    let checked = 0;
    for (const [name, rows] of byName) {
      if (new Set(rows.map((r) => r.county)).size < 2) continue;
      const away = NATIONS.find((n) => !rows.some((r) => r.nation === n) && n !== 'Northern Ireland') ?? 'Northern Ireland';
      if (rows.some((r) => r.nation === away)) continue;
      const e = refused(`${name}, ${away}`);
      if (e === null || !e.message.includes(`no ${name} in ${away}`)) continue;
      for (const s of e.suggestions) {
        checked++;
        const p = refused(s) === null ? resolver.resolve(s) : null;
        if (p === null) {
          wrong.push(`${s}: does not resolve`);
          continue;
        }
        const area = s.slice(name.length + 2);
        if (!NATIONS.includes(area)) continue;
        // a nation named while a county the postal file gives the place would have named it
        // (a county named like the place is never offered: "Newport, Newport" reads as a mistake)
        const counties = [...new Set(rows.filter((r) => metres(p, r) < 5000).map((r) => r.county))].filter((c) => !c.toLowerCase().includes(name.toLowerCase()));
        const finer = counties.find((c) => {
          const q = refused(`${name}, ${c}`) === null ? resolver.resolve(`${name}, ${c}`) : null;
          return metres(q, p) < 1;
        });
        if (finer !== undefined) wrong.push(`${s}: a nation, while "${name}, ${finer}" is that place`);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
  });

  it('names a place by an area that is not the place taken (audit 65a F4): "Newcastle, Tyne and Wear", not "Newcastle, Newcastle upon Tyne"; "Durham, County Durham", not "Durham, England"', () => {
    // GeoNames cities1000 rows (gb_places_geonames.csv): Newcastle upon Tyne 54.97328,-1.61396;
    // Southend-on-Sea 51.53782,0.71433; Durham 54.77676,-1.57566
    const cases = [
      { asked: 'Newcastle, Kent', offered: 'Newcastle, Tyne and Wear', not: 'Newcastle, Newcastle upon Tyne', at: { lat: 54.97328, lon: -1.61396 } },
      { asked: 'Southend, Kent', offered: 'Southend, Essex', not: 'Southend, Southend-on-Sea', at: { lat: 51.53782, lon: 0.71433 } },
      { asked: 'Durham, Kent', offered: 'Durham, County Durham', not: 'Durham, England', at: { lat: 54.77676, lon: -1.57566 } },
    ];
    for (const { asked, offered, not, at } of cases) {
      const e = refused(asked)!;
      expect(e.suggestions, asked).toContain(offered);
      expect(e.suggestions, asked).not.toContain(not);
      expect(metres(resolver.resolve(offered), at), offered).toBeLessThan(1500);
    }
  });

  it('for every postal name of a place named "<name> upon/on/under ...", its short name qualified by a nation it is not in never offers the place by an area named as the place', () => {
    const wrong: string[] = [];
    let checked = 0;
    const long = [...new Set(postal.map((r) => r.name))].filter((n) => / (?:upon|on|under) /i.test(n) || /-(?:upon|on|under)-/i.test(n));
    for (const full of long) {
      const short = full.split(/[ -](?:upon|on|under)[ -]/i)[0]!;
      for (const away of NATIONS) {
        const e = refused(`${short}, ${away}`);
        if (e === null) continue;
        for (const s of e.suggestions) {
          checked++;
          const area = s.slice(short.length + 2).toLowerCase();
          if (area === full.toLowerCase()) wrong.push(`${short}, ${away}: offers "${s}"`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });
});
