import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VenueSearchError } from '../../src/errors.js';
import { ZoneTableBuilder, canonicalTimeZone, zoneForLocation } from '../../src/hours/index.js';
import { CANONICAL_ZONE_CACHE_LIMIT, canonicalZoneCacheSize } from '../../src/hours/time-zone.js';

// Expected zones are the real zones of these named places (an atlas, not our code).
describe('zoneForLocation (@photostructure/tz-lookup)', () => {
  it.each([
    ['London, Charing Cross', 51.5074, -0.1278, 'Europe/London'],
    ['New York, City Hall', 40.7128, -74.006, 'America/New_York'],
    ['Auckland, Queen Street', -36.8485, 174.7633, 'Pacific/Auckland'],
    ['Douglas, Isle of Man', 54.1509, -4.4797, 'Europe/Isle_of_Man'],
  ])('%s -> %s', (_name, lat, lon, zone) => {
    expect(zoneForLocation(lat, lon)).toBe(zone);
  });

  it.each([
    // ~17 km apart across the Spain-Portugal border: one hour apart all year.
    ['Badajoz (Spain)', 38.8794, -6.9707, 'Europe/Madrid'],
    ['Elvas (Portugal)', 38.8816, -7.1631, 'Europe/Lisbon'],
    // ~8 km apart across the Rio Grande: Juarez keeps -07:00 all year, El Paso observes DST.
    ['El Paso (Texas)', 31.7619, -106.485, 'America/Denver'],
    ['Ciudad Juarez (Chihuahua)', 31.6904, -106.4245, 'America/Ciudad_Juarez'],
    // ~5 km apart across the Rhine.
    ['Strasbourg (France)', 48.5734, 7.7521, 'Europe/Paris'],
    ['Kehl (Germany)', 48.5722, 7.8156, 'Europe/Berlin'],
  ])('border: %s -> %s', (_name, lat, lon, zone) => {
    expect(zoneForLocation(lat, lon)).toBe(zone);
  });

  it('at sea: a nautical Etc/GMT zone (mid-Atlantic 50N 30W is UTC-2, written Etc/GMT+2)', () => {
    expect(zoneForLocation(50, -30)).toBe('Etc/GMT+2');
  });

  it.each([
    [Number.NaN, 0],
    [0, Number.NaN],
    [90.5, 0],
    [0, -180.01],
    [Number.POSITIVE_INFINITY, 0],
    ['51.5' as unknown as number, 0],
  ])('invalid coordinates (%s, %s) -> invalid_venue naming location', (lat, lon) => {
    try {
      zoneForLocation(lat, lon, 'v1');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(VenueSearchError);
      expect((err as VenueSearchError).code).toBe('invalid_venue');
      expect((err as VenueSearchError).param).toBe('location');
      expect((err as VenueSearchError).recordId).toBe('v1');
    }
  });

  it('every zone name the library answers (1-degree world grid, poles, antimeridian) is known to Intl', () => {
    const seen = new Set<string>();
    for (let lat = -90; lat <= 90; lat += 1) {
      for (let lon = -180; lon <= 180; lon += 1) seen.add(zoneForLocation(lat, lon));
    }
    expect(seen.size).toBeGreaterThan(200);
    const unknown = [...seen].filter((z) => canonicalTimeZone(z) === null);
    expect(unknown).toEqual([]);
  });
});

describe('canonicalTimeZone', () => {
  it('canonicalises case, rejects unknown names', () => {
    expect(canonicalTimeZone('europe/london')).toBe('Europe/London');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });
});

describe('canonicalTimeZone\'s cache is bounded (audit 69d N1)', () => {
  it('after more distinct spellings than its limit (zones in other letter cases, invalid names) it holds at most the limit, and still answers as Intl does', () => {
    // spellings: zones in three letter cases, then invalid names; the oracle: Intl itself
    const spellings: string[] = [];
    for (const zone of ['Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney']) spellings.push(zone, zone.toLowerCase(), zone.toUpperCase());
    for (let k = 0; spellings.length < CANONICAL_ZONE_CACHE_LIMIT + 500; k++) spellings.push(`Not/A_Zone_${k}`);
    const intl = (name: string): string | null => {
      try {
        return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      } catch {
        return null;
      }
    };
    for (const name of spellings) expect(canonicalTimeZone(name)).toBe(intl(name));
    expect(canonicalZoneCacheSize()).toBeLessThanOrEqual(CANONICAL_ZONE_CACHE_LIMIT);
    expect(canonicalTimeZone('europe/LONDON')).toBe('Europe/London');
  });
});

describe('ZoneTable', () => {
  it('derives zones from coordinates, honours an explicit timeZone, shares codes', () => {
    const b = new ZoneTableBuilder(1);
    b.add(51.5074, -0.1278); // London
    b.add(40.7128, -74.006); // New York
    b.add(40.7128, -74.006, 'europe/london'); // explicit zone wins, canonicalised
    b.add(-36.8485, 174.7633);
    b.add(51.5, -0.1);
    const t = b.finish();
    expect(t.size).toBe(5);
    expect(t.names).toEqual(['Europe/London', 'America/New_York', 'Pacific/Auckland']);
    expect(Array.from(t.codes)).toEqual([0, 1, 0, 2, 0]);
    expect(t.zoneOf(3)).toBe('Pacific/Auckland');
    expect(() => t.zoneOf(5)).toThrow(RangeError);
  });

  it('an explicit timeZone Intl does not know is invalid_venue naming timeZone', () => {
    const b = new ZoneTableBuilder();
    try {
      b.add(51.5, -0.1, 'Europe/Londres', 'pub-9');
      expect.unreachable();
    } catch (err) {
      expect((err as VenueSearchError).code).toBe('invalid_venue');
      expect((err as VenueSearchError).param).toBe('timeZone');
      expect((err as VenueSearchError).recordId).toBe('pub-9');
      expect((err as VenueSearchError).message).toContain('"Europe/Londres"');
    }
  });
});

const LONDON_PUBS = '/work/shared/data/osm-london-pubs/london_pubs_points.ndjson';
if (!existsSync(LONDON_PUBS)) console.warn(`[hours] skipping real-data zone test: ${LONDON_PUBS} is absent`);

describe.skipIf(!existsSync(LONDON_PUBS))('real data: OSM London pubs', () => {
  it('every pub in Greater London is in Europe/London', () => {
    const b = new ZoneTableBuilder();
    let n = 0;
    for (const line of readFileSync(LONDON_PUBS, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const { lat, lon } = JSON.parse(line) as { lat: number; lon: number };
      b.add(lat, lon);
      n++;
    }
    const t = b.finish();
    expect(n).toBeGreaterThan(3000);
    expect(t.names).toEqual(['Europe/London']);
  });
});

const IOM = '/work/shared/data/osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson';
if (!existsSync(IOM)) console.warn(`[hours] skipping real-data zone test: ${IOM} is absent`);

describe.skipIf(!existsSync(IOM))('real data: OSM Isle of Man food and drink', () => {
  it('every point venue on the island is in Europe/Isle_of_Man (GeoJSON is [lon, lat])', () => {
    const geojson = JSON.parse(readFileSync(IOM, 'utf8')) as {
      features: { geometry: { type: string; coordinates: unknown } }[];
    };
    const zones = new Set<string>();
    let n = 0;
    for (const f of geojson.features) {
      if (f.geometry.type !== 'Point') continue;
      const [lon, lat] = f.geometry.coordinates as [number, number];
      zones.add(zoneForLocation(lat, lon));
      n++;
    }
    expect(n).toBeGreaterThan(100);
    expect([...zones]).toEqual(['Europe/Isle_of_Man']);
  });
});
