import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { createDefaultPlaceResolver, type DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { Gazetteer } from '../../src/places/gazetteer.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 64a F15: a country or nation after a place's name only filters the places the bare
 * name may be; it never makes the name another place ("Kingston, UK" was a West Sussex
 * locality 70 km from Kingston upon Thames, "Newcastle, England" a Shropshire one).
 * Oracles: hand-known points (Wikipedia infoboxes) and GeoNames' GB CSV (its names with
 * 10,000 people or more, and the nation, admin1, of the row at the bare name's point);
 * distances are GeographicLib geodesics.
 */
const CSV = 'geonames-gb/gb_places_geonames.csv';
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';

// en.wikipedia.org/wiki/Kingston_upon_Thames infobox, 51°24′45″N 0°18′23″W (the town centre)
const KINGSTON_UPON_THAMES = { lat: 51.4125, lon: -0.3064 };
// en.wikipedia.org/wiki/Kingston_upon_Hull infobox, 53°44′41″N 0°19′57″W: the bare name without venues (the larger Kingston)
const KINGSTON_UPON_HULL = { lat: 53.7447, lon: -0.3325 };
// en.wikipedia.org/wiki/Newcastle_upon_Tyne infobox, 54°58′40″N 1°36′48″W
const NEWCASTLE_UPON_TYNE = { lat: 54.9778, lon: -1.6133 };

interface Row {
  name: string;
  lat: number;
  lon: number;
  admin1: string;
  population: number;
}

/** The CSV's rows (quoted fields may hold commas; none holds a line break). */
function readRows(): Row[] {
  const split = (line: string) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((f) => f.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
  const [header, ...lines] = readFileSync(sharedFile(CSV), 'utf8').split(/\r?\n/).filter((l) => l !== '');
  const col = split(header!);
  const at = (n: string) => col.indexOf(n);
  return lines.map((l) => {
    const f = split(l);
    return { name: f[at('name')]!, lat: Number(f[at('lat')]), lon: Number(f[at('lon')]), admin1: f[at('admin1_name')]!, population: Number(f[at('population')] || 0) };
  });
}

const metres = (a: { lat: number; lon: number } | null, b: { lat: number; lon: number }) => (a === null ? Infinity : geodesic(a.lat, a.lon, b.lat, b.lon));

describe.skipIf(!hasShared(CSV))('a country or nation qualifier only filters the bare name\'s places (audit 64a F15)', () => {
  let rows: Row[];
  let resolver: DefaultPlaceResolver;
  beforeAll(() => {
    rows = readRows();
    resolver = createDefaultPlaceResolver([], { gazetteer: Gazetteer.embedded(['GB']) });
  });

  it('without venues "Kingston, UK" / "Kingston, England" are Kingston upon Hull, "Newcastle, UK" / "Newcastle, England" Newcastle upon Tyne, as the bare names are', () => {
    for (const name of ['Kingston', 'Kingston, UK', 'Kingston, England', 'Kingston, GB', 'Kingston, United Kingdom']) {
      expect(metres(resolver.resolve(name), KINGSTON_UPON_HULL), name).toBeLessThan(1500);
    }
    expect(metres(resolver.resolve('Kingston, London'), KINGSTON_UPON_THAMES)).toBeLessThan(1500);
    for (const name of ['Newcastle', 'Newcastle, UK', 'Newcastle, England', 'Newcastle, GB', 'Newcastle, Great Britain']) {
      expect(metres(resolver.resolve(name), NEWCASTLE_UPON_TYNE), name).toBeLessThan(1500);
    }
  });

  /** `name, UK` and `name, <nation of the oracle's row at the bare point>` for each name that resolves bare, farther than `tolerance` metres from the bare point. */
  const differing = (names: Iterable<string>, tolerance: number): { checked: number; differing: string[] } => {
    const nations = new Set(['England', 'Scotland', 'Wales', 'Northern Ireland']);
    const out: string[] = [];
    let checked = 0;
    for (const name of names) {
      const bare = resolver.resolve(name);
      if (bare === null) continue;
      // the oracle's row at the bare name's point tells its nation
      const near = rows.filter((r) => Math.abs(r.lat - bare.lat) < 0.05 && Math.abs(r.lon - bare.lon) < 0.08);
      const at = near.reduce<Row | null>((a, b) => (a === null || metres(bare, b) < metres(bare, a) ? b : a), null);
      const qualified = [`${name}, UK`];
      if (at !== null && metres(bare, at) < 5000 && nations.has(at.admin1)) qualified.push(`${name}, ${at.admin1}`);
      for (const q of qualified) {
        checked++;
        const got = resolver.resolve(q);
        if (metres(got, bare) > tolerance) out.push(`${q}: ${got?.name ?? 'null'} (bare: ${bare.name})`);
      }
    }
    return { checked, differing: out };
  };

  it('every GeoNames GB name of 10,000+ people resolves, followed by ", UK" and by its own nation, to the bare name\'s point', () => {
    const got = differing(new Set(rows.filter((r) => r.population >= 10_000).map((r) => r.name)), 1);
    expect(got.checked).toBeGreaterThan(1500);
    expect(got.differing).toEqual([]);
  });

  it('so does the short name of each (before "upon", "on", "under", or without "Town", "City", ...: "Newcastle", "Kingston", "Stoke"), to the same place (within 5 km)', () => {
    const heads = new Set<string>();
    for (const r of rows.filter((x) => x.population >= 10_000)) {
      const upon = /^(.+?)[ -](?:upon|on|under)[ -].+$/i.exec(r.name);
      if (upon !== null) heads.add(upon[1]!);
      const suffix = /^(.+) (?:Town|Village|City|Centre)$/i.exec(r.name);
      if (suffix !== null) heads.add(suffix[1]!);
    }
    const got = differing(heads, 5000);
    expect(got.checked).toBeGreaterThan(30);
    expect(got.differing).toEqual([]);
  });

  describe.skipIf(!hasShared(LONDON_PUBS))('through find on the OSM London pubs', () => {
    let engine: Engine;
    beforeAll(async () => {
      const { records } = await collectRun(importOsm(sharedFile(LONDON_PUBS)));
      engine = createEngine(records as VenueRecord[]);
    });

    it('"Kingston, UK" finds the pubs around Kingston upon Thames that "Kingston" finds', () => {
      const bare = engine.find({ q: 'pub', location: 'Kingston' });
      for (const location of ['Kingston, UK', 'Kingston, England', 'Kingston, London']) {
        const r = engine.find({ q: 'pub', location });
        expect(metres({ lat: r.resolvedPlace!.Lat, lon: r.resolvedPlace!.Lon }, KINGSTON_UPON_THAMES), location).toBeLessThan(1500);
        expect(r.totalFound, location).toBe(bare.totalFound);
        expect(r.totalFound).toBeGreaterThan(0);
      }
    });
  });
});
