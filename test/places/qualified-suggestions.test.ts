import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 64a F2: a misspelt place followed by its area ("Shordich, London") was unknown_place
 * with no suggestion, while the bare misspelling had some. Now the bare name's closest names
 * are offered, each with the area kept when the area holds it. Oracle: hand-known points
 * (Wikipedia infoboxes) of the places suggested, and which county each is in; GeographicLib.
 */
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
// en.wikipedia.org/wiki/Shoreditch infobox, 51°31′34″N 0°04′41″W
const SHOREDITCH = { lat: 51.526, lon: -0.078 };
// en.wikipedia.org/wiki/London infobox, 51°30′26″N 0°7′39″W (Charing Cross)
const LONDON = { lat: 51.5072, lon: -0.1275 };

describe.skipIf(!hasShared(LONDON_PUBS))('suggestions for a misspelt place followed by its area (audit 64a F2), on the OSM London pubs', () => {
  let engine: Engine;
  beforeAll(async () => {
    const { records } = await collectRun(importOsm(sharedFile(LONDON_PUBS)));
    engine = createEngine(records as VenueRecord[]);
  });
  const refused = (location: string): UnknownPlaceError => {
    try {
      engine.find({ q: 'pub', location });
    } catch (e) {
      if (e instanceof UnknownPlaceError) return e;
      throw e;
    }
    throw new Error(`${location} resolved`);
  };
  const at = (location: string) => {
    const p = engine.find({ q: 'pub', location }).resolvedPlace!;
    return { lat: p.Lat, lon: p.Lon };
  };

  it('"Shordich, London" offers "Shoreditch, London", which resolves to Shoreditch; the message names it', () => {
    for (const [typo, expected] of [
      ['Shordich, London', 'Shoreditch, London'],
      ['Shordich, London, UK', 'Shoreditch, London, UK'],
    ] as const) {
      const e = refused(typo);
      expect(e.suggestions[0], typo).toBe(expected);
      expect(e.message).toContain(`did you mean "${expected}"`);
      expect(geodesic(at(expected).lat, at(expected).lon, SHOREDITCH.lat, SHOREDITCH.lon)).toBeLessThan(1000);
    }
  });

  it('"Lodnon, UK" offers "London, UK", which resolves to London', () => {
    const e = refused('Lodnon, UK');
    expect(e.suggestions[0]).toBe('London, UK');
    expect(geodesic(at('London, UK').lat, at('London, UK').lon, LONDON.lat, LONDON.lon)).toBeLessThan(2000);
  });

  it('an area that does not hold the name is left off the suggestion (Shoreditch is not in Kent), and every suggestion resolves', () => {
    const e = refused('Shordich, Kent');
    expect(e.suggestions[0]).toBe('Shoreditch');
    for (const typo of ['Shordich, London', 'Lodnon, UK', 'Shordich, Kent', 'Manchster, England']) {
      const s = refused(typo).suggestions;
      expect(s.length, typo).toBeGreaterThan(0);
      for (const name of s) expect(() => at(name), name).not.toThrow();
    }
  });
});
