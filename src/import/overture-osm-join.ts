import KDBush from 'kdbush';
import { nameTokens } from '../find/normalize-name.js';
import { BoxList } from '../geo/bbox.js';
import { distanceMeters } from '../geo/distance.js';
import type { VenueRecord } from '../schema/venue.js';

/**
 * Which Overture venue is which OSM venue (Overture has no opening hours; OSM often has).
 *
 * An Overture record (id `overture:...`) and an OSM record (`externalIds.osm`) are the same
 * venue when
 * - their names are equal after folding (case, accents, punctuation: the find index's
 *   words) and their points are at most `SAME_NAME_METERS` apart; or
 * - they share a website (scheme, `www.`, trailing `/` and case ignored) or a phone number
 *   (the last 9 digits of numbers with at least 9) and their points are at most
 *   `SHARED_CONTACT_METERS` apart. The distance bound keeps a chain's one website (or head
 *   office number) from linking its branches across a country.
 * Each record takes at most one partner: candidate pairs are taken nearest first, and a
 * pair whose Overture or OSM record is already linked is passed over.
 */
export const SAME_NAME_METERS = 50;
export const SHARED_CONTACT_METERS = 1000;

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

function nameKey(name: string): string {
  return nameTokens(name).join(' ');
}

/**
 * Links as a map from the index of each linked Overture record to the index of its OSM
 * record. Only records for which `eligible(index)` holds take part.
 */
export function linkOvertureToOsm(records: readonly VenueRecord[], eligible: (index: number) => boolean = () => true): Map<number, number> {
  const osm: number[] = [];
  for (let i = 0; i < records.length; i++) if (isOsmRecord(records[i] as VenueRecord) && eligible(i)) osm.push(i);
  const links = new Map<number, number>();
  if (osm.length === 0) return links;
  const index = new KDBush(osm.length);
  for (const i of osm) {
    const [lat, lon] = (records[i] as VenueRecord).location.coordinates;
    index.add(lon, lat);
  }
  index.finish();

  const pairs: Array<{ overture: number; osm: number; meters: number }> = [];
  const boxes = new BoxList(2);
  for (let o = 0; o < records.length; o++) {
    const r = records[o] as VenueRecord;
    if (!isOvertureRecord(r) || !eligible(o)) continue;
    const [lat, lon] = r.location.coordinates;
    const name = nameKey(r.name);
    const web = websiteKey(r.websiteUri);
    const phone = phoneKey(r.contactNumber);
    boxes.clear().addPadded(lat, lon, lat, lon, SHARED_CONTACT_METERS);
    for (let b = 0; b < boxes.count; b++) {
      const c = boxes.coords;
      for (const k of index.range(c[b * 4]!, c[b * 4 + 1]!, c[b * 4 + 2]!, c[b * 4 + 3]!)) {
        const s = records[osm[k] as number] as VenueRecord;
        const [slat, slon] = s.location.coordinates;
        const meters = distanceMeters(lat, lon, slat, slon);
        const sameName = meters <= SAME_NAME_METERS && nameKey(s.name) === name;
        const sharedContact =
          meters <= SHARED_CONTACT_METERS &&
          ((web !== undefined && web === websiteKey(s.websiteUri)) || (phone !== undefined && phone === phoneKey(s.contactNumber)));
        if (sameName || sharedContact) pairs.push({ overture: o, osm: osm[k] as number, meters });
      }
    }
  }
  pairs.sort((a, b) => a.meters - b.meters || a.overture - b.overture || a.osm - b.osm);
  const taken = new Set<number>();
  for (const p of pairs) {
    if (links.has(p.overture) || taken.has(p.osm)) continue;
    links.set(p.overture, p.osm);
    taken.add(p.osm);
  }
  return links;
}
