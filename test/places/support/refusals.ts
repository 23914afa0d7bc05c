/**
 * Helpers of the place-name tests: the refusal a name gets, as an UnknownPlaceError (any
 * other error is re-thrown; a name that resolves fails the test), and the nearest venue to a
 * point by GeographicLib (the oracle for "far from every venue").
 */
import type { Engine } from '../../../src/engine.js';
import type { PlaceResolver } from '../../../src/places/place-resolver.js';
import { UnknownPlaceError } from '../../../src/places/unknown-place-error.js';
import type { VenueRecord } from '../../../src/schema/venue.js';
import { geodesic } from '../../support/oracle.js';

/** The UnknownPlaceError `run` throws for `name`; a test failure when it resolves. */
export function unknownPlaceOf(name: string, run: () => unknown): UnknownPlaceError {
  try {
    run();
  } catch (err) {
    if (err instanceof UnknownPlaceError) return err;
    throw err;
  }
  throw new Error(`${name} resolved`);
}

/** The refusal of a find whose location is `location`. */
export const findRefusal = (engine: Engine, location: string): UnknownPlaceError => unknownPlaceOf(location, () => engine.find({ q: 'a', location }));

/** The refusal `resolver` gives `name`. */
export const resolverRefusal = (resolver: PlaceResolver, name: string): UnknownPlaceError => unknownPlaceOf(name, () => resolver.resolve(name));

/** Metres from (lat, lon) to the nearest of `records`, by GeographicLib (a brute-force scan). */
export function nearestVenueMeters(records: readonly VenueRecord[], lat: number, lon: number): number {
  let best = Infinity;
  for (const r of records) best = Math.min(best, geodesic(lat, lon, r.location.coordinates[0], r.location.coordinates[1]));
  return best;
}
