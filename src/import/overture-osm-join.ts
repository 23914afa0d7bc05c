import type { VenueRecord } from '../schema/venue.js';
import { SAME_NAME_METERS, compatibleVenueNames, sameVenueName } from './name-key.js';
import { pairNearest } from './nearest-pairs.js';

/**
 * Which Overture venue is which OSM venue (Overture has no opening hours; OSM often has).
 *
 * An Overture record (id `overture:...`) and an OSM record (`externalIds.osm`) are the same
 * venue when
 * - their names are equal by `sameVenueName` (the find index's words, a leading `the`
 *   dropped: name-key.ts) and their points are at most `SAME_NAME_METERS` apart; or
 * - they share a website (scheme, `www.`, trailing `/` and case ignored) or a phone number
 *   (the last 9 digits of numbers with at least 9), their names are compatible
 *   (`compatibleVenueNames`: one name's words within the other's, filler words ignored)
 *   and their points are at most `SHARED_CONTACT_METERS` apart.
 * Why both conditions on a contact link, measured on the OSM London pubs + Veggiekarte
 * extracts (distinct OSM venues, so every shared contact there joins two different venues):
 * - names: venues sharing one building share its phone or website under unrelated names
 *   ("Ace Pizza" in the "Pembury Tavern", 4 m; "Bob's Courtyard Bar" in "Balham House", 13 m);
 * - distance: a chain's branches share the chain's website and, often, its name, so no name
 *   rule tells them apart; only distance does. The nearest same-named branches sharing a
 *   website are 130 m apart (Starbucks; then 181 m, 227 m, ...; Honest Burgers 588 m), so
 *   100 m links none of them, while twice the same-name radius still allows for the larger
 *   offsets between two sources' points of one big venue.
 * Each record takes at most one partner: candidate pairs are taken nearest first, and a
 * pair whose Overture or OSM record is already linked is passed over (nearest-pairs.ts).
 */
export { SAME_NAME_METERS };
export const SHARED_CONTACT_METERS = 100;

export function isOvertureRecord(r: VenueRecord): boolean {
  return r.id.startsWith('overture:');
}

export function isOsmRecord(r: VenueRecord): boolean {
  return r.externalIds?.osm !== undefined;
}

/** Website key: host and path, lower case, without scheme, `www.` or trailing `/`. */
export function websiteKey(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const key = url.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').replace(/[?#].*$/, '').replace(/\/+$/, '');
  return key === '' ? undefined : key;
}

/** Phone key: the last 9 digits (national and international forms agree); undefined under 9 digits. */
export function phoneKey(phone: string | undefined): string | undefined {
  const digits = phone?.replace(/[^0-9]/g, '') ?? '';
  return digits.length >= 9 ? digits.slice(-9) : undefined;
}

/**
 * Links as a map from the index of each linked Overture record to the index of its OSM
 * record. Only records for which `eligible(index)` holds take part.
 */
export function linkOvertureToOsm(records: readonly VenueRecord[], eligible: (index: number) => boolean = () => true): Map<number, number> {
  const overture: number[] = [];
  const osm: number[] = [];
  records.forEach((r, i) => {
    if (!eligible(i)) return;
    if (isOvertureRecord(r)) overture.push(i);
    else if (isOsmRecord(r)) osm.push(i);
  });
  return pairNearest(records, overture, osm, Math.max(SAME_NAME_METERS, SHARED_CONTACT_METERS), (o, s, meters) => {
    const a = records[o] as VenueRecord;
    const b = records[s] as VenueRecord;
    if (meters <= SAME_NAME_METERS && sameVenueName(a.name, b.name)) return true;
    if (meters > SHARED_CONTACT_METERS || !compatibleVenueNames(a.name, b.name)) return false;
    const web = websiteKey(a.websiteUri);
    const phone = phoneKey(a.contactNumber);
    return (web !== undefined && web === websiteKey(b.websiteUri)) || (phone !== undefined && phone === phoneKey(b.contactNumber));
  });
}
