import { inLonLatBox, type LonLatBox } from '../geo/bbox.js';
import { DEFAULT_GAZETTEER_COUNTRIES } from './gazetteer.js';

/**
 * The box (degrees) around the default gazetteer countries (GB, IE, IM, JE, GG): Shetland to
 * the Channel Islands, western Ireland to East Anglia.
 */
export const DEFAULT_COUNTRIES_BOX: LonLatBox = { south: 49, north: 61, west: -11, east: 2 };

/**
 * Share of the venues that must lie outside that box before the world gazetteer is used: a
 * few mis-geocoded points (0, 0) in British data do not make "Camden" mean New Jersey.
 */
const OUTSIDE_SHARE = 0.01;

/**
 * The gazetteer countries the default resolver uses for these venues: the default ones when
 * (nearly) all of them lie in the British Isles, else null (the world), so that on American
 * data "New York" is New York City and not the village in North Tyneside (the resolver then
 * picks among same-named places by where the venues are). `lat`, `lon` in degrees, one entry
 * per venue. One pass over the columns: about 5 ms per million venues, run when the first
 * place name is resolved, not at engine build.
 */
export function gazetteerCountriesFor(lat: ArrayLike<number>, lon: ArrayLike<number>): readonly string[] | null {
  const allowed = allowedOutside(lat.length);
  let outside = 0;
  for (let i = 0; i < lat.length; i++) {
    if (outsideDefaultCountries(lat[i]!, lon[i]!) && ++outside > allowed) return null;
  }
  return DEFAULT_GAZETTEER_COUNTRIES;
}

/** {@link gazetteerCountriesFor} of `total` venues of which `outside` lie outside DEFAULT_COUNTRIES_BOX (a live engine counts them as venues come and go). */
export function gazetteerCountriesOfCounts(outside: number, total: number): readonly string[] | null {
  return outside > allowedOutside(total) ? null : DEFAULT_GAZETTEER_COUNTRIES;
}

/** Whether a venue at (lat, lon), degrees, counts against the default countries. */
export function outsideDefaultCountries(lat: number, lon: number): boolean {
  return !inLonLatBox(lat, lon, DEFAULT_COUNTRIES_BOX);
}

/** Venues of `total` that may lie outside the box with the default countries kept. */
function allowedOutside(total: number): number {
  return Math.floor(total * OUTSIDE_SHARE);
}
