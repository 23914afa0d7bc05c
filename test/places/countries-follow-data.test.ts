import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOverture } from '../../src/import/index.js';
import { DEFAULT_GAZETTEER_COUNTRIES } from '../../src/places/gazetteer.js';
import { gazetteerCountriesFor } from '../../src/places/gazetteer-countries.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Walk-through 32, fault 2: on American data the default resolver used the British-Isles
 * gazetteer only, so "New York" was the village in North Tyneside (55.03, -1.51), "Houston"
 * the one in Scotland and "Philadelphia" unknown. The gazetteer's countries now follow where
 * the venues are. Reference points: Wikipedia infobox coordinates of each city.
 */
const CITIES: ReadonlyArray<readonly [string, { lat: number; lon: number }]> = [
  ['New York', { lat: 40.7128, lon: -74.006 }], // en.wikipedia.org/wiki/New_York_City: 40°42′46″N 74°00′22″W
  ['Houston', { lat: 29.7628, lon: -95.3831 }], // en.wikipedia.org/wiki/Houston: 29°45′46″N 95°22′59″W
  ['Philadelphia', { lat: 39.9528, lon: -75.1636 }], // en.wikipedia.org/wiki/Philadelphia: 39°57′10″N 75°09′49″W
];
const SAMPLE = 'overture-places-sample/overture_places_us_sample.parquet';

describe('gazetteerCountriesFor: the default countries unless more than 1 % of the venues lie outside the British Isles (hand-made points)', () => {
  const london = { lat: 51.5, lon: -0.12 };
  const columns = (points: Array<{ lat: number; lon: number }>) => [new Float64Array(points.map((p) => p.lat)), new Float64Array(points.map((p) => p.lon))] as const;

  it('no venues, or all in GB and Ireland (Shetland 60.15, -1.15; Dublin 53.35, -6.26): the default countries', () => {
    expect(gazetteerCountriesFor(...columns([]))).toBe(DEFAULT_GAZETTEER_COUNTRIES);
    expect(gazetteerCountriesFor(...columns([london, { lat: 60.15, lon: -1.15 }, { lat: 53.35, lon: -6.26 }]))).toBe(DEFAULT_GAZETTEER_COUNTRIES);
  });

  it('200 London venues and 2 at (0, 0): still the default (2 <= 1 %); 3 outside: the world (null)', () => {
    const many = Array.from({ length: 200 }, () => london);
    const nulls = (n: number) => Array.from({ length: n }, () => ({ lat: 0, lon: 0 }));
    expect(gazetteerCountriesFor(...columns([...many, ...nulls(2)]))).toBe(DEFAULT_GAZETTEER_COUNTRIES);
    expect(gazetteerCountriesFor(...columns([...many, ...nulls(3)]))).toBeNull();
  });

  it('one venue in New York (40.71, -74.0), or NaN coordinates: the world', () => {
    expect(gazetteerCountriesFor(...columns([{ lat: 40.71, lon: -74.0 }]))).toBeNull();
    expect(gazetteerCountriesFor(new Float64Array([NaN]), new Float64Array([0]))).toBeNull();
  });
});

describe.skipIf(!hasShared(SAMPLE))('walk-through 32: place names on American data (the Overture US sample)', () => {
  let engine: Engine;
  let restored: Engine;
  const dir = mkdtempSync(join(tmpdir(), 'countries-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const { records } = await collectRun(importOverture(sharedFile(SAMPLE)));
    engine = createEngine(records);
    writeSnapshot(engine, join(dir, 'us.snapshot'));
    restored = readSnapshot(join(dir, 'us.snapshot'));
  }, 60_000);

  it.each(CITIES)('find({ q: "joe", location: %j }) resolves within 25 km of the city (Wikipedia), from records and from a snapshot', (name, ref) => {
    for (const e of [engine, restored]) {
      const centre = e.find({ q: 'joe', location: name }).searchLocation!;
      expect(geodesic(centre.Lat, centre.Lon, ref.lat, ref.lon)).toBeLessThan(25_000);
    }
  });
});
