/**
 * The part of the engine the HTTP adapter calls. Every method is synchronous and throws
 * `VenueSearchError` for bad input; the adapter maps the code to a status (http-errors.ts).
 * The real engine (`createEngine` in src/engine.ts) satisfies this structurally.
 */
export interface FindParams {
  q?: string;
  name?: string;
  lat?: number;
  lon?: number;
  location?: string;
  maxDistanceMeters?: number;
}

export interface EngineLike {
  /** Validates `body` itself; `now` is ms since the epoch for opening-hours checks. */
  search(body: unknown, options: { limit?: number; offset?: number; now?: number }): unknown;
  find(params: FindParams): unknown;
  basic(id: string): unknown;
  advanced(id: string): unknown;
  menus(id: string): unknown;
  /** The published filter vocabularies. */
  vocabulary(): unknown;
}
