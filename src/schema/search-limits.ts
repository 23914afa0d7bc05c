/**
 * The search request's limits (interface 4.1; docs/search.md). Exceeding one is
 * `limit_exceeded`. Read by the schema (src/schema/search.ts, which re-exports them) and by
 * the widget's page, whose fields offer the same bounds; this module imports nothing.
 */

/** Most locations in one request (POINT members or PATH vertices). */
export const MAX_LOCATIONS = 100;
/** Largest POINT radius, metres. */
export const MAX_POINT_DISTANCE_METERS = 50_000;
/** Largest PATH half-width (distance either side of the route), metres. */
export const MAX_PATH_DISTANCE_METERS = 10_000;
/**
 * What a message of the schema's `maximum` on `mode.maxDistance` (the POINT radius, the larger
 * bound) adds, so that a PATH request over it is told its own limit too: the schema cannot
 * tell the modes apart, and it is checked before the PATH bound.
 */
export function maximumNote(param: string): string {
  if (param === 'mode.maxDistance') return ` (POINT; in PATH mode <= ${MAX_PATH_DISTANCE_METERS})`;
  // `locations[2].weight` (the engine's path) or `locations.2.weight` (HTTP's)
  if (/^locations(\[\d+\]|\.\d+)\.weight$/.test(param)) return ` (a weight is 0, or a number from ${MIN_POSITIVE_WEIGHT} to ${MAX_WEIGHT}: weights are relative)`;
  return '';
}

/** Most values in one filter list. */
export const MAX_FILTER_VALUES = 50;
/** Paging: `limit` 1..100 (default 20); `offset` 0..MAX_OFFSET (default 0). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const MAX_OFFSET = 10_000;
/**
 * Bounds of a non-zero location `weight`. Weights are relative (only their ratios matter), so
 * the bounds take nothing from a caller, and they keep the weighted sums of up to 100
 * locations finite and normal: 1e307 overflowed them (a centre of NaN), 5e-324 vanished in
 * them (a centre at 0, 0).
 */
export const MIN_POSITIVE_WEIGHT = 1e-6;
export const MAX_WEIGHT = 1e6;
