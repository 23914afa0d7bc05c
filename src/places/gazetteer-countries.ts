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
  const allowed = Math.floor(lat.length * OUTSIDE_SHARE);
  let outside = 0;
  for (let i = 0; i < lat.length; i++) {
    if (!inLonLatBox(lat[i]!, lon[i]!, DEFAULT_COUNTRIES_BOX) && ++outside > allowed) return null;
  }
  return DEFAULT_GAZETTEER_COUNTRIES;
}
