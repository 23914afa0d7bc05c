import { zoneForLocation } from '../hours/time-zone.js';
import { BRITISH_ISLES_ZONES, isBritishIslesAddress } from './british-isles-address.js';

/**
 * Venues whose coordinates lie at sea: the sign of coordinates given in the wrong order.
 *
 * A venue's `location.coordinates` is `[latitude, longitude]` (the interface's order), while
 * GeoJSON, and most tools, write `[longitude, latitude]`. Both read as valid positions when
 * the longitude is within ±90°, so a file written the GeoJSON way loads without an error and
 * answers searches in the wrong place (London's pubs land in the Indian Ocean off Somalia).
 *
 * Pubs, restaurants and cafés are on land. @photostructure/tz-lookup (the zones the engine
 * already derives from coordinates) answers a nautical `Etc/GMT±N` zone over most of the open
 * ocean, so a venue whose point looks up an `Etc/` zone is at sea. Not the converse: its
 * coarse tiles name a land zone for sea near coasts and islands (44 % of a 1° grid between
 * 60° S and 60° N looks up an `Etc/` zone), so this finds coordinates swapped into open
 * ocean (London's, most of Europe's), not every swap (the Isle of Man's land in the
 * Seychelles' waters). On the real data in ../shared/data (London pubs, Isle of Man,
 * vegetarian GB, FHRS London, the Overture US sample: 39,415 venues) no venue is at sea.
 *
 * The second rule (audit 65a F9) catches the swaps the first misses in the British Isles:
 * west of about 1.5° W (Wales, northern England, Scotland, Ireland, the Isle of Man) a
 * swapped point lands in the Indian Ocean around the Seychelles, whose tiles name land zones
 * (Indian/Mahe, Indian/Mauritius), and opening hours are then judged in UTC+4. A venue counts
 * as swapped there when its address is in the British Isles (a UK postcode, an Eircode, the
 * country named last: british-isles-address.ts), its point's zone is not a British Isles
 * one, and the swapped reading's is. The zones alone cannot tell: a real venue on Mahé
 * swapped lies in Scotland too, so it is the address that decides. Still missed: a swap
 * west of 1.5° W with no such address (no postcode, no country), and swaps elsewhere in
 * the world that land in a land zone (no rule of this kind for other countries' addresses).
 * On the real data and on island venues (Lundy, Scilly, Sark, Fair Isle, Suva, Tarawa,
 * Pitcairn, Tristan da Cunha, Mahé) it counts none.
 */

/** How many venues are checked at most: every one up to this, else this many evenly spaced (~100 ns each). */
export const SEA_CHECK_SAMPLE = 100_000;

/** Examples kept of venues at sea (their dense indexes). */
const EXAMPLES = 3;

export interface VenuesAtSea {
  /** Venues looked up. */
  readonly checked: number;
  /** Of those, venues at sea (an `Etc/` zone). */
  readonly atSea: number;
  /** Of those at sea, how many would lie on land read the other way round ([lon, lat] as [lat, lon]). */
  readonly onLandSwapped: number;
  /** Dense indexes of the first few venues at sea. */
  readonly examples: readonly number[];
  /** Of those checked and not at sea, venues whose address is in the British Isles, their point not, their swapped reading in it. */
  readonly swappedFromBritishIsles: number;
  /** Dense indexes of the first few of those. */
  readonly swappedExamples: readonly number[];
  /** Of those checked, venues south of {@link ANTARCTIC_LATITUDE} (not counted at sea). */
  readonly inAntarctica: number;
  /** Of those in Antarctica, how many would lie on land outside it read the other way round. */
  readonly antarcticOnLandSwapped: number;
  /** Dense indexes of the first few venues in Antarctica. */
  readonly antarcticExamples: readonly number[];
}

/**
 * Venues south of this latitude (degrees; the Antarctic Treaty area) are named as odd as
 * venues at sea are: tz-lookup zones that land Antarctica/* (UTC+3 for Syowa), and it is where
 * the eastern Americas land read [longitude, latitude] (New York's [-74.0, 40.7] is in
 * Antarctica/Syowa's tile; west of 90° W the swapped latitude is below -90 and the record is
 * refused). A real pub at a research station would be named too: a warning, not a refusal.
 */
export const ANTARCTIC_LATITUDE = -60;

/** Whether the point (degrees, valid ranges) lies at sea: the zone the engine derives for it (tz-lookup) is a nautical one. */
function atSea(lat: number, lon: number): boolean {
  return zoneForLocation(lat, lon).startsWith('Etc/');
}

/**
 * The venues at sea among `count` points (`lat[i]`, `lon[i]` in degrees, valid ranges):
 * all of them up to {@link SEA_CHECK_SAMPLE}, else that many evenly spaced; and those swapped
 * from the British Isles by their address (`addressOf(i)`: venue i's formattedAddress, read
 * only for a venue whose swapped reading lies in a British Isles zone while its point does not).
 */
export function venuesAtSea(lat: ArrayLike<number>, lon: ArrayLike<number>, count: number, addressOf?: (i: number) => string | undefined): VenuesAtSea {
  const checked = Math.min(count, SEA_CHECK_SAMPLE);
  const examples: number[] = [];
  const swappedExamples: number[] = [];
  let sea = 0;
  let onLandSwapped = 0;
  let swappedFromBritishIsles = 0;
  let inAntarctica = 0;
  let antarcticOnLandSwapped = 0;
  const antarcticExamples: number[] = [];
  for (let k = 0; k < checked; k++) {
    const i = checked === count ? k : Math.floor((k * count) / checked);
    const a = lat[i]!;
    const b = lon[i]!;
    if (a < ANTARCTIC_LATITUDE) {
      inAntarctica++;
      if (antarcticExamples.length < EXAMPLES) antarcticExamples.push(i);
      if (Math.abs(b) <= 90 && b >= ANTARCTIC_LATITUDE && !atSea(b, a)) antarcticOnLandSwapped++;
      continue;
    }
    const zone = zoneForLocation(a, b);
    if (!zone.startsWith('Etc/')) {
      if (addressOf !== undefined && Math.abs(b) <= 90 && !BRITISH_ISLES_ZONES.has(zone) && BRITISH_ISLES_ZONES.has(zoneForLocation(b, a))) {
        const address = addressOf(i);
        if (address !== undefined && isBritishIslesAddress(address)) {
          swappedFromBritishIsles++;
          if (swappedExamples.length < EXAMPLES) swappedExamples.push(i);
        }
      }
      continue;
    }
    sea++;
    if (examples.length < EXAMPLES) examples.push(i);
    // swapped: the longitude read as a latitude must be one
    if (Math.abs(b) <= 90 && !atSea(b, a)) onLandSwapped++;
  }
  return { checked, atSea: sea, onLandSwapped, examples, swappedFromBritishIsles, swappedExamples, inAntarctica, antarcticOnLandSwapped, antarcticExamples };
}
