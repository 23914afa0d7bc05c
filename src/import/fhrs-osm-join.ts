import type { VenueRecord } from '../schema/venue.js';
import { SAME_NAME_METERS, sameVenueName, venueNameKey } from './name-key.js';
import { sameAddressPlace } from './address-place.js';
import { pairNearest } from './nearest-pairs.js';

/**
 * Equal names at the same postcode and house number (address-place.ts) are one venue up to
 * this far apart, metres: FHRS points are postcode centroids, often 50-190 m from the
 * building (docs/import.md, Merge, gives the London counts this comes from).
 */
export const SAME_ADDRESS_METERS = 200;

/**
 * Which FHRS record is which OSM record when OSM's `fhrs:id` does not say (no tag, or an
 * id absent from the FHRS inputs, such as a newer one than the FHRS extract's): equal
 * names (`sameVenueName`: the find index's words, a leading "the" dropped) and points at
 * most `SAME_NAME_METERS` apart, as in the Overture↔OSM join; or at most
 * `SAME_ADDRESS_METERS` apart when both addresses have the same postcode and no disagreeing
 * house numbers (audit 68e F3: "Queen Adelaide", 35 Putney Bridge Road, SW18 1NP, 132 m).
 * Each record takes at most one partner, nearest first (nearest-pairs.ts).
 *
 * `fhrs` and `osm` are the indices (into `records`) of the records that may still take a
 * partner: the caller leaves out the FHRS records an `fhrs:id` already links, so that link
 * keeps priority. `idLinkedOsm` are those of `osm` an `fhrs:id` already links: such a venue
 * takes a further FHRS record of its own name only at its address (the same-address rule
 * above, never the 50 m one), as "Black George" (fhrs:1279240) beside the "Black George Pub
 * & Club" registration OSM names, 181 Uxbridge Road, W13 9AA (audit 68e F3).
 * Returns a map from the index of each linked FHRS record to its OSM record's.
 */
export function linkFhrsToOsmByName(
  records: readonly VenueRecord[],
  fhrs: readonly number[],
  osm: readonly number[],
  idLinkedOsm: ReadonlySet<number> = new Set(),
): Map<number, number> {
  return pairNearest(records, fhrs, osm, Math.max(SAME_NAME_METERS, SAME_ADDRESS_METERS), (f, o, meters) => {
    const a = records[f] as VenueRecord;
    const b = records[o] as VenueRecord;
    if (!sameVenueName(a.name, b.name)) return false;
    const nearByName = meters <= SAME_NAME_METERS && !idLinkedOsm.has(o);
    return nearByName || (meters <= SAME_ADDRESS_METERS && sameAddressPlace(a.formattedAddress, b.formattedAddress));
  });
}

/**
 * The FHRS records that are a second registration of a linked one (audit 63a F8: a pub
 * registered twice, "Royal Oak" and "The Royal Oak" at "Royal Oak 54 Charlton Lane, ...,
 * SE7 8LA"; audit 64a F7: "The Bell PH" and "The Bell"): the same name key
 * (registrationNameKey: venueNameKey without "Public House" or "PH"), the same postcode, and the same street line
 * as a record a link joined to an OSM venue (registrationKey). Such a record is that venue
 * too, and folds into it beside the linked one.
 *
 * `linked` are the indices of the FHRS records a link joined (by `fhrs:id` or by name), in
 * input order; `unlinked` those no link joined. Returns a map from each twin's index to its
 * linked record's (the first linked one of its key, in `linked`'s order). A record without a
 * postcode or with an empty name key is nobody's twin; the same name at another postcode
 * (a chain's branches) or another street number (Euston Tap's East and West Lodges, 188 and
 * 190 Euston Road) is another venue, never folded.
 */
export function fhrsRegistrationTwins(records: readonly VenueRecord[], linked: readonly number[], unlinked: readonly number[]): Map<number, number> {
  const anchorOf = new Map<string, number>();
  for (const i of linked) {
    const key = registrationKey(records[i] as VenueRecord);
    if (key !== null && !anchorOf.has(key)) anchorOf.set(key, i);
  }
  const twins = new Map<number, number>();
  for (const i of unlinked) {
    const key = registrationKey(records[i] as VenueRecord);
    const anchor = key === null ? undefined : anchorOf.get(key);
    if (anchor !== undefined) twins.set(i, anchor);
  }
  return twins;
}

/** A UK postcode, as the last part of an FHRS address (fhrs-to-venue.ts puts PostCode last). */
const POSTCODE = /^[a-z]{1,2}[0-9][a-z0-9]? ?[0-9][a-z]{2}$/;

/** Trade words FHRS adds after a pub's name ("The Bell PH", "Fox And Anchor Public House"), as name-key words. */
const TRADE_SUFFIX = / (public house|ph)$/;

/**
 * The name key of a registration (venueNameKey) without a trailing "Public House" or "PH"
 * (audit 64a F7): "The Bell PH" and "The Bell" are one pub's registrations. A name that is
 * only the suffix keeps it.
 */
export function registrationNameKey(name: string): string {
  return venueNameKey(name).replace(TRADE_SUFFIX, '');
}

/** A first address part that is a name, then a house number and the street ("the wheatsheaf 6 windus road"). */
const NAME_THEN_NUMBER = /^([^0-9]+?) ([0-9].*)$/;

/**
 * What makes two FHRS records one registration place: the name key (registrationNameKey),
 * the postcode, and the street line: the first address part that starts with a house number
 * ("61 New Park Road", whatever premises line comes before it: "Hand In Hand Public House,
 * 61 New Park Road"); without one, the first part from its house number on when what comes
 * before the number is the record's own name ("The Wheatsheaf 6 Windus Road" of "The
 * Wheatsheaf": "6 Windus Road", audit 64a F7); else every part before the postcode. Case and
 * spacing folded. Null without a name key or a postcode.
 */
function registrationKey(record: VenueRecord): string | null {
  const name = registrationNameKey(record.name);
  const parts = (record.formattedAddress ?? '').toLowerCase().split(',').map((p) => p.replace(/\s+/g, ' ').trim());
  const postcode = parts.pop();
  if (name === '' || postcode === undefined || !POSTCODE.test(postcode)) return null;
  const street = parts.find((p) => /^[0-9]/.test(p)) ?? numberAfterName(parts[0], name) ?? parts.join(', ');
  return `${name}\n${postcode.replace(' ', '')}\n${street}`;
}

/** `part` from its house number on, when the words before the number are the name of key `name`; else undefined. */
function numberAfterName(part: string | undefined, name: string): string | undefined {
  const match = part === undefined ? null : NAME_THEN_NUMBER.exec(part);
  return match !== null && registrationNameKey(match[1] as string) === name ? match[2] : undefined;
}
