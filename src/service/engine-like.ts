/**
 * The part of the engine the HTTP adapter calls. Each method answers (the engine, synchronously)
 * or promises an answer (EnginePool: engine threads), and throws or rejects with
 * `VenueSearchError` for bad input; the adapter maps the code to a status (http-errors.ts).
 * The real engine (`createEngine` in src/engine.ts) satisfies this structurally. The adapter
 * always passes `now` from its (injectable) clock, so every answer of one request is
 * evaluated at one instant and tests can fix the time.
 */
import type { FindParams } from '../find/find-params.js';

export type { FindParams };

/** The instant a call is evaluated at (opening hours, `isOpen`), ms since the epoch. */
export interface AtInstant {
  now?: number | undefined;
}

export interface EngineLike {
  /** Validates `body` itself (SearchBodySchema); `limit`/`offset` page the results. */
  search(body: unknown, options: { limit?: number; offset?: number; now?: number }): unknown;
  /** Validates `params` itself (q/name, lat+lon or location, paging). */
  find(params: FindParams, options?: AtInstant): unknown;
  basic(id: string, options?: AtInstant): unknown;
  advanced(id: string, options?: AtInstant): unknown;
  menus(id: string): unknown;
  /** The published filter vocabularies. */
  vocabulary(): unknown;
  /** Where most venues are, for the widget's first view (src/spatial/venue-extent.ts); optional. */
  venueExtent?(): unknown;
}
