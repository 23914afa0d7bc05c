import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';

/**
 * Audit 70g F3: a US ZIP code as `location` ("10001", "90210") answered `location "10001" is
 * not a place we know` with no suggestion, which gave a US user no way forward. Only UK
 * postcodes are supported (docs/find.md); the message now says so for a 5-digit text or a
 * ZIP+4. Other unknown names keep their message ("NYC": no table of abbreviations). The
 * expected messages are written out by hand.
 */
// a diner in Springfield, Illinois (39.80172 N, 89.64371 W: GeoNames), so the world gazetteer is used
const venues: VenueRecord[] = [{ id: 'a', name: 'Springfield Diner', location: { type: 'Point', coordinates: [39.8017, -89.6437] }, primaryGenre: 'restaurant' }];

function refusal(location: string): { code: string; message: string; suggestions: unknown } {
  try {
    createEngine(venues).find({ q: 'diner', location, limit: 1 });
  } catch (err) {
    const e = err as { code: string; message: string; suggestions: unknown };
    return { code: e.code, message: e.message, suggestions: e.suggestions };
  }
  throw new Error(`${location} resolved`);
}

describe('a US ZIP code as location is refused saying only UK postcodes are supported (audit 70g F3)', () => {
  // the location is trimmed before it is resolved (" 02134 " is named "02134")
  it.each(['10001', '90210', '10001-1234', ' 02134 '])('"%s"', (zip) => {
    expect(refusal(zip)).toEqual({
      code: 'unknown_place',
      message: `location "${zip.trim()}" is not a place we know; US ZIP codes are not supported, only UK postcodes: name the town, e.g. "Springfield, Illinois"`,
      suggestions: [],
    });
  });

  it.each(['1000', '100011', '10001-12', 'NYC'])('"%s", no ZIP code, keeps the plain message', (name) => {
    expect(refusal(name)).toEqual({ code: 'unknown_place', message: `location "${name}" is not a place we know`, suggestions: [] });
  });

  it('the advice names a place that resolves on these data', () => {
    const place = createEngine(venues).find({ q: 'diner', location: 'Springfield, Illinois', limit: 1 }).resolvedPlace!;
    expect([place.name, Math.round(place.Lat), Math.round(place.Lon)]).toEqual(['Springfield', 40, -90]);
  });
});

describe('a place followed by a US ZIP code says to leave the code out (audit 72d F4)', () => {
  it('"Springfield, IL 62701", "Springfield 62701" and "Springfield, Illinois 62701-1234": the advice names the code and the place without it', () => {
    for (const [location, zip, place] of [
      ['Springfield, IL 62701', '62701', 'Springfield, IL'],
      ['Springfield 62701', '62701', 'Springfield'],
      ['Springfield, Illinois 62701-1234', '62701-1234', 'Springfield, Illinois'],
    ]) {
      const { code, message } = refusal(location!);
      expect(code).toBe('unknown_place');
      expect(message, location).toContain(`; US ZIP codes are not supported, only UK postcodes: leave "${zip}" out ("${place}")`);
    }
  });

  it('the place the advice names resolves', () => {
    const place = createEngine(venues).find({ q: 'diner', location: 'Springfield, IL', limit: 1 }).resolvedPlace!;
    expect([place.name, Math.round(place.Lat), Math.round(place.Lon)]).toEqual(['Springfield', 40, -90]);
  });
});
