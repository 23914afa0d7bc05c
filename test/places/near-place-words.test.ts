import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { createDefaultPlaceResolver } from '../../src/places/default-resolver.js';
import { GB_GAZETTEER_FILE, gazetteerDataDir } from '../../src/places/gazetteer.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { findRefusal, resolverRefusal } from './support/refusals.js';

/**
 * Audit 77c F2, F3: a place qualified by a nearby place rather than an area ("Angel,
 * Islington": a London borough said by its town), and a place written after "near", "in"...
 * Oracles: the GB file's own rows (read here from its text) and GeographicLib distances.
 */
function gbRows(name: string): Array<{ lat: number; lon: number }> {
  return readFileSync(gazetteerDataDir() + GB_GAZETTEER_FILE, 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f[0] === 'P' && f[1] === name)
    .map((f) => ({ lat: Number(f[2]), lon: Number(f[3]) }));
}

/** The GB file's one place of that name. */
function gbRow(name: string): { lat: number; lon: number } {
  const rows = gbRows(name);
  expect(rows, name).toHaveLength(1);
  return rows[0]!;
}

describe('a place qualified by a nearby place (audit 77c F3)', () => {
  const resolver = createDefaultPlaceResolver([]);

  it('"Angel, Islington" is the Angel within 5 km of Islington (no area is called Islington)', () => {
    const angel = gbRow('Angel');
    const islington = gbRow('Islington');
    expect(geodesic(angel.lat, angel.lon, islington.lat, islington.lon)).toBeLessThan(5000);
    const place = resolver.resolve('Angel, Islington');
    expect(place).not.toBeNull();
    expect(place!.name).toBe('Angel');
    expect([place!.lat, place!.lon]).toEqual([angel.lat, angel.lon]);
    const soho = gbRow('Soho');
    const westminster = resolver.resolve('Soho, Westminster');
    expect([westminster!.lat, westminster!.lon]).toEqual([soho.lat, soho.lon]);
  });

  it('a place further than 5 km is still no area: "Angel, Brighton" is refused, naming Brighton', () => {
    const angel = gbRow('Angel');
    const brightons = gbRows('Brighton');
    expect(brightons.length).toBeGreaterThan(0);
    for (const b of brightons) expect(geodesic(angel.lat, angel.lon, b.lat, b.lon)).toBeGreaterThan(50_000);
    const err = resolverRefusal(resolver, 'Angel, Brighton');
    expect(err.message).toContain('"Brighton" is not an area we know');
  });
});

describe('a place after "near", "in", "around" (audit 77c F2)', () => {
  let engine: Engine;
  beforeAll(() => {
    const path = fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url));
    const records = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as VenueRecord);
    engine = createEngine(records);
  });

  it('is refused, offering the place without the word when that resolves', () => {
    expect(findRefusal(engine, 'near Islington').message).toContain('did you mean "Islington"?');
    expect(findRefusal(engine, 'in Soho').message).toContain('did you mean "Soho"?');
    expect(findRefusal(engine, 'Nr Camden Town').message).toContain('did you mean "Camden Town"?');
    // misspelt after the word: the names close to the rest
    expect(findRefusal(engine, 'near Shoredich').message).toContain('did you mean "Shoreditch"?');
  });

  it('a name that begins with such a word is still the place ("Near Sawrey", Cumbria)', () => {
    const sawrey = gbRow('Near Sawrey');
    const r = engine.find({ q: 'a', location: 'Near Sawrey' });
    expect(r.resolvedPlace?.name).toBe('Near Sawrey');
    expect([r.searchLocation?.Lat, r.searchLocation?.Lon]).toEqual([sawrey.lat, sawrey.lon]);
  });
});
