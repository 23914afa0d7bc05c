import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** ../shared/data beside the repository (read-only real extracts; absent on some machines). */
export const SHARED_DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));

export function sharedFile(relative: string): string {
  return SHARED_DATA + relative;
}

export function hasShared(relative: string): boolean {
  const present = existsSync(sharedFile(relative));
  if (!present) console.warn(`[skip] ${relative} not found under ${SHARED_DATA}: real-data tests skipped`);
  return present;
}

/** FHRS London coordinates (postcode centroids: many venues share a point). */
export function fhrsCoordinates(): Array<{ id: string; name: string; lat: number; lon: number }> {
  const text = readFileSync(sharedFile('fhrs-london/fhrs_london_food_drink_2021-08-19.csv'), 'utf8');
  const out: Array<{ id: string; name: string; lat: number; lon: number }> = [];
  for (const line of text.split('\n').slice(1)) {
    // The last two columns are Latitude, Longitude (never quoted); the id is the first.
    const m = /^(\d+),.*,(-?\d+\.\d+),(-?\d+\.\d+)\r?$/.exec(line);
    if (!m) continue;
    out.push({ id: m[1]!, name: line.split(',')[2] ?? '', lat: Number(m[2]), lon: Number(m[3]) });
  }
  return out;
}
