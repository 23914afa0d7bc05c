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

const ENGINE_METHODS = ['search', 'find', 'basic', 'advanced', 'menus', 'vocabulary'] as const;

/**
 * Checks at run time that `value` offers every method the adapter calls, so a wrong object
 * fails at start-up with a clear message rather than on the first request.
 */
export function asEngineLike(value: unknown): EngineLike {
  const missing = ENGINE_METHODS.filter((m) => typeof (value as Record<string, unknown> | null)?.[m] !== 'function');
  if (missing.length > 0) throw new TypeError(`the engine lacks method(s) the HTTP adapter needs: ${missing.join(', ')}`);
  return value as EngineLike;
}
