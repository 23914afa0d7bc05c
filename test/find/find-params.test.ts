import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { checkFindParams } from '../../src/find/find-params.js';
import { createFindService } from '../../src/find/find.js';

function errorOf(fn: () => unknown): VenueSearchError {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueSearchError) return e;
    throw e;
  }
  throw new Error('expected a VenueSearchError');
}

describe('find parameters', () => {
  it('defaults: maxDistanceMeters 5000, limit 20, offset 0; q trimmed; name is an alias of q', () => {
    expect(checkFindParams({ q: ' red ' })).toEqual({ query: 'red', centre: null, location: null, maxDistanceMeters: 5000, limit: 20, offset: 0 });
    expect(checkFindParams({ name: 'red' }).query).toBe('red');
    expect(checkFindParams({ q: 'red', name: 'red' }).query).toBe('red');
  });

  it.each([
    [{ q: 'red', name: 'blue' }, 'invalid_request', 'q'],
    [{}, 'invalid_request', 'q'],
    [{ q: '' }, 'invalid_request', 'q'],
    [{ q: '   ' }, 'invalid_request', 'q'],
    [{ name: '' }, 'invalid_request', 'name'],
    [{ q: 'x'.repeat(201) }, 'invalid_request', 'q'],
    [{ q: 'red', lat: 51.5 }, 'invalid_request', 'lon'],
    [{ q: 'red', lon: -0.1 }, 'invalid_request', 'lat'],
    [{ q: 'red', lat: 91, lon: 0 }, 'invalid_request', 'lat'],
    [{ q: 'red', lat: Number.NaN, lon: 0 }, 'invalid_request', 'lat'],
    [{ q: 'red', lat: 0, lon: 180.5 }, 'invalid_request', 'lon'],
    [{ q: 'red', lat: 0, lon: '1' as unknown as number }, 'invalid_request', 'lon'],
    [{ q: 'red', lat: 0, lon: 0, location: 'Soho' }, 'invalid_request', 'location'],
    [{ q: 'red', maxDistanceMeters: -1 }, 'invalid_request', 'maxDistanceMeters'],
    [{ q: 'red', maxDistanceMeters: Number.POSITIVE_INFINITY }, 'invalid_request', 'maxDistanceMeters'],
    [{ q: 'red', maxDistanceMeters: 100_001 }, 'limit_exceeded', 'maxDistanceMeters'],
    [{ q: 'red', limit: 0 }, 'invalid_request', 'limit'],
    [{ q: 'red', limit: 101 }, 'limit_exceeded', 'limit'],
    [{ q: 'red', offset: 10_001 }, 'limit_exceeded', 'offset'],
    [{ q: 'red', limit: 2.5 }, 'invalid_request', 'limit'],
    [{ q: 'red', offset: -1 }, 'invalid_request', 'offset'],
  ])('rejects %j with %s naming %s', (params, code, param) => {
    const e = errorOf(() => checkFindParams(params));
    expect(e.code).toBe(code);
    expect(e.param).toBe(param);
  });

  it('a q of spaces only says so (audit 60c: "at least 1 character" for " ", which is one)', () => {
    expect(errorOf(() => checkFindParams({ q: '   ' })).message).toBe('q must be a search term of at least 1 character other than spaces; got "   "');
  });

  it('unknown place: unknown_place naming the place, with and without a resolver', () => {
    const engine = createEngine([{ id: 'a', name: 'Red Lion', location: { type: 'Point', coordinates: [51.5, -0.1] } }]);
    const plain = createFindService(engine.store, engine.spatial, { places: null });
    const e1 = errorOf(() => plain.find({ q: 'red', location: 'Atlantis' }, 0));
    expect(e1.code).toBe('unknown_place');
    expect(e1.param).toBe('location');
    expect(e1.message).toContain('Atlantis');
    const withPlaces = createFindService(engine.store, engine.spatial, {
      places: { resolve: (n) => (n === 'Here' ? { name: 'Here', lat: 51.5, lon: -0.1, kind: 'area' } : null) },
    });
    expect(errorOf(() => withPlaces.find({ q: 'red', location: 'Nowhere' }, 0)).code).toBe('unknown_place');
    const r = withPlaces.find({ q: 'red', location: 'Here' }, 0);
    expect(r.totalFound).toBe(1);
    expect(r.searchLocation).toEqual({ Lat: 51.5, Lon: -0.1 });
    expect(r.resolvedPlace).toEqual({ name: 'Here', kind: 'area', Lat: 51.5, Lon: -0.1 });
  });

  it("a user resolver's bad answer (NaN or out-of-range centre, unknown kind, not an object) is a VenueSearchError naming the resolver and the value", () => {
    const venues = [{ id: 'a', name: 'Red Lion', location: { type: 'Point' as const, coordinates: [51.5, -0.1] as [number, number] } }];
    const answers: Record<string, unknown> = {
      NaNTown: { name: 'NaNTown', lat: Number.NaN, lon: -0.1, kind: 'town' },
      FarNorth: { name: 'FarNorth', lat: 91, lon: 0, kind: 'town' },
      WrapAround: { name: 'WrapAround', lat: 51.5, lon: 181, kind: 'town' },
      Endless: { name: 'Endless', lat: 51.5, lon: Number.POSITIVE_INFINITY, kind: 'town' },
      Pluto: { name: 'Pluto', lat: 51.5, lon: -0.1, kind: 'planet' },
      Nameless: { lat: 51.5, lon: -0.1, kind: 'town' },
      Text: 'somewhere',
    };
    const engine = createEngine(venues, { places: { resolve: (n) => answers[n] as never } });
    for (const [name, answer] of Object.entries(answers)) {
      const e = errorOf(() => engine.find({ q: 'red', location: name }, { now: 0 }));
      expect(e, name).toMatchObject({ name: 'VenueSearchError', code: 'invalid_data', param: 'options.places', value: answer });
      expect(e.message, name).toMatch(new RegExp(`^the place resolver \\(options\\.places\\) answered .* for "${name}": its answer needs `));
    }
    expect(errorOf(() => engine.find({ q: 'red', location: 'Pluto' }, { now: 0 })).message).toContain('kind one of postcode, area, city, town, district, locality');
    // a good answer at the edges of the ranges is taken
    const edge = createEngine(venues, { places: { resolve: () => ({ name: 'Pole', lat: 90, lon: -180, kind: 'locality' }) } });
    expect(edge.find({ q: 'red', location: 'Pole' }, { now: 0 }).resolvedPlace).toEqual({ name: 'Pole', kind: 'locality', Lat: 90, Lon: -180 });
  });

  it('an empty index finds nothing', () => {
    const engine = createEngine([]);
    const svc = createFindService(engine.store, engine.spatial, { places: null });
    expect(svc.find({ q: 'red' }, 0)).toMatchObject({ totalFound: 0, establishments: [] });
  });

  it.each(['!!!', '?', '🍣', '🍣🍣', "' - '"])('a query of no letter or digit (%j) is refused, naming q and the value (audit 75c F4)', (q) => {
    const engine = createEngine([]);
    const svc = createFindService(engine.store, engine.spatial, { places: null });
    expect(() => svc.find({ q, lat: 0, lon: 0 }, 0)).toThrow(
      expect.objectContaining({ code: 'invalid_request', param: 'q', value: q, message: `q must be a search term with a letter or digit (names are matched by their words; punctuation and emoji are not words); got ${JSON.stringify(q)}` }),
    );
    // the alias names itself
    expect(() => svc.find({ name: q }, 0)).toThrow(expect.objectContaining({ param: 'name' }));
  });
});
