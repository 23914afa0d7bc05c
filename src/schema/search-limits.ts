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
/** Most values in one filter list. */
export const MAX_FILTER_VALUES = 50;
/** Paging: `limit` 1..100 (default 20); `offset` 0..MAX_OFFSET (default 0). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const MAX_OFFSET = 10_000;
