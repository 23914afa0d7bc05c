import { distanceMeters } from '../geo/distance.js';
import type { VenueRecord } from '../schema/venue.js';
import { cleanText } from './clean-text.js';
import { isNullIsland, NULL_ISLAND_REASON } from './null-island.js';
import type { MapOutcome } from './osm-to-venue.js';

/**
 * FSA Food Hygiene Rating Scheme rows (the API's fields, flattened to CSV columns) to venue
 * records. Pure; every rule is listed in docs/import.md.
 */
export interface FhrsRow {
  readonly [column: string]: string | undefined;
}

/** `BusinessType` to `primaryGenre` (with the flags each type implies). */
export const FHRS_BUSINESS_GENRE: Readonly<Record<string, { genre: string; flags: readonly string[]; takeaway?: true }>> = {
  'Pub/bar/nightclub': { genre: 'pub', flags: ['servesAlcohol'] },
  'Restaurant/Cafe/Canteen': { genre: 'restaurant', flags: ['servesFood'] },
  'Takeaway/sandwich shop': { genre: 'takeaway', flags: ['servesFood'], takeaway: true },
};

/** Rows further than this from the median point of their local authority's rows are geocoding errors. */
export const DEFAULT_MAX_KM_FROM_AUTHORITY = 40;

const MIN_ROWS_FOR_MEDIAN = 5;
const ADDRESS_COLUMNS = ['AddressLine1', 'AddressLine2', 'AddressLine3', 'AddressLine4', 'PostCode'] as const;

/** A coordinate as the FSA writes it: signed digits, a point and more digits, an exponent (`-1.1E-05`), the last two optional. */
const DECIMAL = /^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

function cell(row: FhrsRow, column: string): string | undefined {
  const v = row[column]?.trim();
  return v ? v : undefined;
}

/** Address lines and postcode joined with `, `, repeated parts dropped. */
export function formatFhrsAddress(row: FhrsRow): string | undefined {
  const parts: string[] = [];
  for (const c of ADDRESS_COLUMNS) {
    const v = cleanText(row[c]);
    if (v && !parts.includes(v)) parts.push(v);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** Coordinates of a row, or why there are none usable. */
export function fhrsPoint(row: FhrsRow): { lat: number; lon: number } | { reason: string; detail?: string } {
  const latText = cell(row, 'Latitude');
  const lonText = cell(row, 'Longitude');
  if (latText === undefined || lonText === undefined) return { reason: 'missing_coordinates' };
  // Decimals only: Number() also takes "-0." (a cut "-0.0598..." read as 0), "0x1A", ".5".
  if (!DECIMAL.test(latText) || !DECIMAL.test(lonText)) return { reason: 'bad_coordinates', detail: `${latText},${lonText}` };
  const lat = Number(latText);
  const lon = Number(lonText);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    return { reason: 'bad_coordinates', detail: `${latText},${lonText}` };
  }
  if (isNullIsland(lat, lon)) return { reason: NULL_ISLAND_REASON, detail: `${latText},${lonText}` };
  return { lat, lon };
}

export function fhrsRowToVenue(row: FhrsRow): MapOutcome {
  const fhrsId = cell(row, 'FHRSID');
  if (!fhrsId || !/^[0-9]+$/.test(fhrsId)) return { ok: false, reason: 'missing_fhrs_id' };
  const type = cell(row, 'BusinessType') ?? '';
  const kind = FHRS_BUSINESS_GENRE[type];
  if (!kind) return { ok: false, reason: 'unsupported_business_type', detail: type || 'empty' };
  const name = cleanText(row.BusinessName);
  if (!name) return { ok: false, reason: 'missing_name' };
  const point = fhrsPoint(row);
  if ('reason' in point) return { ok: false, reason: point.reason, ...(point.detail ? { detail: point.detail } : {}) };

  const record: VenueRecord = {
    id: `fhrs:${fhrsId}`,
    name: name.slice(0, 500),
    location: { type: 'Point', coordinates: [point.lat, point.lon] },
    primaryGenre: kind.genre,
    establishmentFlags: [...kind.flags],
    externalIds: { fhrs: fhrsId },
  };
  const address = formatFhrsAddress(row);
  if (address) record.formattedAddress = address.slice(0, 2000);
  const phone = cell(row, 'Phone');
  if (phone) record.contactNumber = phone;
  if (kind.takeaway) record.amenities = { takeaway: true };
  return { ok: true, record };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * FHRSIDs of rows geocoded far from their local authority: more than `maxKm` from the
 * median latitude/longitude of all rows of the same `LocalAuthorityName`. An authority
 * inspects premises inside its own area, so such a point is a geocoding error. Authorities
 * with fewer than 5 rows are not judged (their median means little).
 */
export function fhrsFarFromAuthority(rows: readonly FhrsRow[], maxKm: number): Map<string, number> {
  const byAuthority = new Map<string, Array<{ id: string; lat: number; lon: number }>>();
  for (const row of rows) {
    const p = fhrsPoint(row);
    const id = cell(row, 'FHRSID');
    if ('reason' in p || !id) continue;
    const la = cell(row, 'LocalAuthorityName') ?? '';
    let list = byAuthority.get(la);
    if (!list) byAuthority.set(la, (list = []));
    list.push({ id, ...p });
  }
  const far = new Map<string, number>();
  for (const list of byAuthority.values()) {
    if (list.length < MIN_ROWS_FOR_MEDIAN) continue;
    const lat = median(list.map((p) => p.lat));
    const lon = median(list.map((p) => p.lon));
    for (const p of list) {
      const km = distanceMeters(p.lat, p.lon, lat, lon) / 1000;
      if (km > maxKm) far.set(p.id, km);
    }
  }
  return far;
}
