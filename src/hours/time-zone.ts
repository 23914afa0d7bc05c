import tzLookup from '@photostructure/tz-lookup';
import { VenueSearchError, describeValue } from '../errors.js';
import { correctedZone } from './zone-corrections.js';

/**
 * Time zones of venues.
 *
 * A venue's zone is its record's `timeZone` when given (validated and canonicalised by
 * Intl), else derived from its coordinates by @photostructure/tz-lookup: a compressed
 * quadtree of timezone-boundary-builder polygons, ~100 ns per lookup (so no cache is
 * needed: 1M venues take ~0.1 s). It is approximate near borders far from where people live
 * and answers `Etc/GMT±N` nautical zones at sea; a record whose zone matters and is wrong
 * can say `timeZone` explicitly. A few islands and coasts it gets wrong by an hour or more
 * (American Samoa a whole day) are answered first from ZONE_CORRECTIONS (zone-corrections.ts).
 */

/** IANA zone at a coordinate (degrees). Throws `invalid_venue` (param `location`) when invalid. */
export function zoneForLocation(lat: number, lon: number, recordId?: string): string {
  // tz-lookup coerces strings with `+x` and throws RangeError only for NaN / out of range;
  // we accept finite numbers only.
  if (
    typeof lat !== 'number' ||
    typeof lon !== 'number' ||
    !(lat >= -90 && lat <= 90) ||
    !(lon >= -180 && lon <= 180)
  ) {
    throw new VenueSearchError(
      'invalid_venue',
      `location must be a latitude in [-90, 90] and a longitude in [-180, 180]; got ${describeValue([lat, lon])}`,
      recordId === undefined ? { param: 'location', value: [lat, lon] } : { param: 'location', value: [lat, lon], recordId },
    );
  }
  return correctedZone(lat, lon) ?? tzLookup(lat, lon);
}

/**
 * Distinct spellings kept by canonicalTimeZone's cache before it starts afresh: far above the
 * ~600 IANA names, so real data never refills it, while a feed of distinct spellings (each
 * letter case of a zone, invalid names: audit 69d N1, 200,000 of them held 52 MB) stays bounded.
 */
export const CANONICAL_ZONE_CACHE_LIMIT = 10_000;

const canonicalZoneCache = new Map<string, string | null>();

/** Entries in canonicalTimeZone's cache (at most CANONICAL_ZONE_CACHE_LIMIT). */
export function canonicalZoneCacheSize(): number {
  return canonicalZoneCache.size;
}

/**
 * The canonical IANA name Intl uses for `name` (`europe/london` -> `Europe/London`), or null
 * when Intl does not know the zone. Cached per distinct input string, up to
 * CANONICAL_ZONE_CACHE_LIMIT strings.
 */
export function canonicalTimeZone(name: string): string | null {
  let canonical = canonicalZoneCache.get(name);
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      canonical = null;
    }
    if (canonicalZoneCache.size >= CANONICAL_ZONE_CACHE_LIMIT) canonicalZoneCache.clear();
    canonicalZoneCache.set(name, canonical);
  }
  return canonical;
}

/** Per-venue zone codes: `names[codes[venueIndex]]` is the venue's IANA zone. */
export class ZoneTable {
  readonly codes: Uint16Array;
  readonly names: readonly string[];

  constructor(codes: Uint16Array, names: readonly string[]) {
    this.codes = codes;
    this.names = names;
  }

  get size(): number {
    return this.codes.length;
  }

  zoneOf(venueIndex: number): string {
    const code = this.codes[venueIndex];
    if (code === undefined) throw new RangeError(`venue index ${venueIndex} out of range 0..${this.size - 1}`);
    return this.names[code] as string;
  }
}

/** Builds a {@link ZoneTable}: `add` once per venue in venue-index order, then `finish`. */
export class ZoneTableBuilder {
  private codes: Uint16Array;
  private count = 0;
  private readonly names: string[] = [];
  private readonly codeByName = new Map<string, number>();

  constructor(expectedVenues = 1024) {
    this.codes = new Uint16Array(Math.max(16, expectedVenues));
  }

  /**
   * Adds the next venue; returns its zone code. `timeZone` (the record's field) wins over the
   * coordinates and must be a zone Intl knows, else `invalid_venue` with param `timeZone`.
   */
  add(lat: number, lon: number, timeZone?: string, recordId?: string): number {
    let zone: string;
    if (timeZone !== undefined) {
      const canonical = typeof timeZone === 'string' ? canonicalTimeZone(timeZone) : null;
      if (canonical === null) {
        const details = recordId === undefined ? { param: 'timeZone', value: timeZone } : { param: 'timeZone', value: timeZone, recordId };
        throw new VenueSearchError(
          'invalid_venue',
          `timeZone must be an IANA time zone name such as "Europe/London"; got ${describeValue(timeZone)}`,
          details,
        );
      }
      zone = canonical;
    } else {
      zone = zoneForLocation(lat, lon, recordId);
    }
    let code = this.codeByName.get(zone);
    if (code === undefined) {
      code = this.names.length;
      if (code > 0xffff) throw new RangeError('more than 65536 distinct time zones');
      this.names.push(zone);
      this.codeByName.set(zone, code);
    }
    if (this.count === this.codes.length) {
      const grown = new Uint16Array(this.count * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[this.count++] = code;
    return code;
  }

  finish(): ZoneTable {
    return new ZoneTable(this.codes.slice(0, this.count), this.names.slice());
  }
}
