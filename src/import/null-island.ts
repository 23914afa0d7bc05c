/**
 * A point at exactly 0,0 (latitude and longitude both zero, "Null Island" in the Gulf of
 * Guinea) is a missing coordinate written as zeros, never a venue. Every importer refuses it
 * under this one reason, the reason FHRS gives any unusable coordinate, and so does
 * `import merge` for its inputs (merge.ts). It is an import rule, not a record rule: the record
 * check (validate-venue.ts: readVenues, createEngine, upsert) keeps a record at 0,0, since
 * a change log or venues file written before the rule must still load (docs/import.md).
 */
export const NULL_ISLAND_REASON = 'bad_coordinates';

/** True for 0,0 (-0 included). */
export function isNullIsland(lat: number, lon: number): boolean {
  return lat === 0 && lon === 0;
}
