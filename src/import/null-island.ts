/**
 * A point at exactly 0,0 (latitude and longitude both zero, "Null Island" in the Gulf of
 * Guinea) is a missing coordinate written as zeros, never a venue. Every importer refuses it
 * under this one reason, the reason FHRS gives any unusable coordinate.
 */
export const NULL_ISLAND_REASON = 'bad_coordinates';

/** True for 0,0 (-0 included). */
export function isNullIsland(lat: number, lon: number): boolean {
  return lat === 0 && lon === 0;
}
