import { VenueSearchError, describeValue, invalidRequest } from '../errors.js';
import { didYouMeanName } from '../schema/unknown-name.js';
import { isPlainObject } from '../plain-data.js';
import { characterCount } from '../schema/character-count.js';
import { nameTokens } from './normalize-name.js';
import {
  DEFAULT_FIND_DISTANCE_METERS,
  DEFAULT_FIND_LIMIT,
  MAX_FIND_DISTANCE_METERS,
  MAX_FIND_LIMIT,
  MAX_FIND_OFFSET,
  MAX_FIND_QUERY_LENGTH,
} from '../schema/find.js';

/** What a caller may pass to find (the HTTP adapter passes the parsed query string). */
export interface FindParams {
  readonly q?: string | undefined;
  /** Alias of `q`. */
  readonly name?: string | undefined;
  readonly lat?: number | undefined;
  readonly lon?: number | undefined;
  readonly location?: string | undefined;
  readonly maxDistanceMeters?: number | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/** The keys of {@link FindParams}: anything else is refused. */
const FIND_PARAM_NAMES: readonly (keyof FindParams)[] = ['q', 'name', 'lat', 'lon', 'location', 'maxDistanceMeters', 'limit', 'offset'];

/** Checked find parameters. `centre` is the kind of centre asked for, if any. */
export interface CheckedFindParams {
  readonly query: string;
  readonly centre: { readonly lat: number; readonly lon: number } | null;
  readonly location: string | null;
  readonly maxDistanceMeters: number;
  readonly limit: number;
  readonly offset: number;
}

/**
 * Validates find parameters; throws `invalid_request` (or `limit_exceeded` for a radius,
 * limit or offset above its bound, as search does) naming the parameter and its value. Rules:
 * - only the parameters of FindParams (an unknown one is named);
 * - the term is `q` or its alias `name`; both given and different is an error (param `q`);
 *   it must have 1 to MAX_FIND_QUERY_LENGTH characters after trimming;
 * - `lat` and `lon` come together (the missing one is named), finite and in range;
 * - `location` (a place name) and `lat`/`lon` are exclusive (param `location`);
 * - `maxDistanceMeters` finite, in [0, MAX_FIND_DISTANCE_METERS], default 5000;
 * - `limit` integer 1..100 (default 20), `offset` integer 0..10,000 (default 0).
 */
export function checkFindParams(p: FindParams): CheckedFindParams {
  if (!isPlainObject(p)) invalidRequest('params', p, 'a plain object');
  for (const key of Object.keys(p)) {
    // a misspelt parameter (`radius`) would otherwise be silently ignored, as search refuses unknown fields
    if (!FIND_PARAM_NAMES.includes(key as keyof FindParams)) invalidRequest(key, (p as Record<string, unknown>)[key], `left out: it is not a find parameter${didYouMeanName(key, FIND_PARAM_NAMES)} (they are ${FIND_PARAM_NAMES.join(', ')})`);
  }
  const q = p.q;
  const alias = p.name;
  if (q !== undefined && typeof q !== 'string') invalidRequest('q', q, 'a string');
  if (alias !== undefined && typeof alias !== 'string') invalidRequest('name', alias, 'a string');
  if (q !== undefined && alias !== undefined && q !== alias) {
    throw new VenueSearchError('invalid_request', `q and its alias name differ (${describeValue(q)} vs ${describeValue(alias)}); give one of them`, {
      param: 'q',
      value: q,
    });
  }
  const raw = q ?? alias;
  const param = q !== undefined ? 'q' : 'name';
  if (raw === undefined) invalidRequest('q', raw, 'a search term of at least 1 character');
  // The length is the published schema's (its maxLength counts the term as sent, spaces
  // included), so the engine refuses exactly what a strict HTTP client's validator refuses.
  if (characterCount(raw) > MAX_FIND_QUERY_LENGTH) invalidRequest(param, raw, `at most ${MAX_FIND_QUERY_LENGTH} characters long`);
  const query = raw.trim();
  if (query.length === 0) invalidRequest(param, raw, 'a search term of at least 1 character other than spaces');
  // Names are matched by their words of letters and digits; a term of none (emoji, punctuation)
  // would match nothing, whatever the data (audit 75c F4).
  if (nameTokens(query).length === 0) invalidRequest(param, raw, 'a search term with a letter or digit (names are matched by their words; punctuation and emoji are not words)');

  let centre: CheckedFindParams['centre'] = null;
  if (p.lat !== undefined || p.lon !== undefined) {
    if (p.lat === undefined) invalidRequest('lat', p.lat, 'given together with lon');
    if (p.lon === undefined) invalidRequest('lon', p.lon, 'given together with lat');
    if (typeof p.lat !== 'number' || !(p.lat >= -90 && p.lat <= 90)) invalidRequest('lat', p.lat, 'a number in [-90, 90]');
    if (typeof p.lon !== 'number' || !(p.lon >= -180 && p.lon <= 180)) invalidRequest('lon', p.lon, 'a number in [-180, 180]');
    centre = { lat: p.lat, lon: p.lon };
  }

  let location: string | null = null;
  if (p.location !== undefined) {
    if (typeof p.location !== 'string' || p.location.trim().length === 0) invalidRequest('location', p.location, 'a non-empty place name');
    if (characterCount(p.location) > MAX_FIND_QUERY_LENGTH) invalidRequest('location', p.location, `at most ${MAX_FIND_QUERY_LENGTH} characters long`);
    if (centre !== null) invalidRequest('location', p.location, 'omitted when lat and lon are given (one centre only)');
    location = p.location.trim();
  }

  const d = p.maxDistanceMeters ?? DEFAULT_FIND_DISTANCE_METERS;
  if (typeof d !== 'number' || !Number.isFinite(d) || d < 0) invalidRequest('maxDistanceMeters', d, 'a finite number of metres >= 0');
  if (d > MAX_FIND_DISTANCE_METERS) {
    throw new VenueSearchError('limit_exceeded', `maxDistanceMeters must be at most ${MAX_FIND_DISTANCE_METERS}; got ${describeValue(d)}`, {
      param: 'maxDistanceMeters',
      value: d,
    });
  }
  const limit = pagingValue('limit', p.limit ?? DEFAULT_FIND_LIMIT, 1, MAX_FIND_LIMIT);
  const offset = pagingValue('offset', p.offset ?? 0, 0, MAX_FIND_OFFSET);
  return { query, centre, location, maxDistanceMeters: d, limit, offset };
}

/** A paging parameter: an integer in [min, max]; above max is `limit_exceeded` (as search's paging), anything else wrong `invalid_request`. */
function pagingValue(param: 'limit' | 'offset', value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) invalidRequest(param, value, `an integer from ${min} to ${max}`);
  if (value > max) throw new VenueSearchError('limit_exceeded', `${param} must be at most ${max}; got ${describeValue(value)}`, { param, value });
  return value;
}
