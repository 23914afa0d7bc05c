/**
 * Turning a human place name ("Soho", "Manchester", "NW1") into a centre. Find uses one
 * resolver; the engine builds a default (gazetteer + places learnt from the venues) and a
 * user can pass any object of this shape instead.
 */
import { describeValue, invalidRequest, VenueSearchError } from '../errors.js';
import { MAX_OTHER_PLACES } from '../schema/find.js';

export type PlaceKind = 'postcode' | 'area' | 'city' | 'town' | 'district' | 'locality';

/** Every PlaceKind: a resolver's answer has one of these (checkResolvedPlace). */
export const PLACE_KINDS: readonly PlaceKind[] = ['postcode', 'area', 'city', 'town', 'district', 'locality'];

export interface ResolvedPlace {
  /** The place's own spelling ("Covent Garden", "NW1"). */
  readonly name: string;
  /** Centre, degrees. */
  readonly lat: number;
  readonly lon: number;
  /** One of {@link PLACE_KINDS} (a resolver answering another is refused: checkResolvedPlace). */
  readonly kind: PlaceKind | string;
  /**
   * True when the point is an estimate rather than the place's own: GeoNames' estimate for a
   * postcode district shared by its names, or an outward code's point derived from the
   * districts around it. Find's `resolvedPlace.approximate` says so (only `true` is passed on).
   */
  readonly approximate?: boolean;
  /**
   * When the name means several places: the area this one is told by ("Wales" for "Newport"),
   * and the others, each written so that it resolves to that place ("Newport, Isle of Wight"),
   * the most prominent first (find's `resolvedPlace.area` and `otherPlaces`).
   */
  readonly area?: string;
  readonly otherPlaces?: readonly string[];
}

/**
 * `place`, a resolver's answer for `name`, when it is a place find can use: a non-empty string
 * name, finite `lat` in -90..90 and `lon` in -180..180, a known kind, `approximate` a boolean
 * when given (audit 65a F11: "yes" was dropped silently). Else a VenueSearchError
 * (`invalid_data`: the resolver, the engine's configuration, is at fault, not the request)
 * naming the resolver (`options.places`), the name and the value, rather than a find that
 * answers nothing (a NaN centre) or a kind outside the response's documented ones. A Promise
 * is told that find needs the answer synchronously.
 */
export function checkResolvedPlace(place: unknown, name: string): ResolvedPlace {
  const p = place as Partial<Record<keyof ResolvedPlace, unknown>> | null;
  const problem = isThenable(place)
    ? 'to be given synchronously (resolve() returned a Promise; find does not wait)'
    : typeof p !== 'object' || p === null
      ? 'an object { name, lat, lon, kind } or null'
      : typeof p.name !== 'string' || p.name.trim() === ''
        ? 'a non-empty string name'
        : !(typeof p.lat === 'number' && p.lat >= -90 && p.lat <= 90)
          ? 'lat a finite number from -90 to 90'
          : !(typeof p.lon === 'number' && p.lon >= -180 && p.lon <= 180)
            ? 'lon a finite number from -180 to 180'
            : !PLACE_KINDS.includes(p.kind as PlaceKind)
              ? `kind one of ${PLACE_KINDS.join(', ')}`
              : p.approximate !== undefined && typeof p.approximate !== 'boolean'
                ? 'approximate true or false when given'
                : p.area !== undefined && !(typeof p.area === 'string' && p.area.trim() !== '')
                  ? 'area a non-empty string when given'
                  : p.otherPlaces !== undefined && !(Array.isArray(p.otherPlaces) && p.otherPlaces.length <= MAX_OTHER_PLACES && p.otherPlaces.every((o) => typeof o === 'string' && o.trim() !== ''))
                    ? `otherPlaces an array of at most ${MAX_OTHER_PLACES} non-empty strings when given`
                    : null;
  if (problem === null) return place as ResolvedPlace;
  throw new VenueSearchError('invalid_data', `the place resolver (options.places) answered ${describeAnswer(place)} for ${JSON.stringify(name)}: its answer needs ${problem}`, {
    param: 'options.places',
    value: place,
  });
}

/** A control character (C0, DEL, C1) or a line or paragraph separator: not part of a place's name, and it would break the one-line message. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * `names`, a resolver's `suggest()` answer for the unknown `name`, when it is what the
 * `unknown_place` error and the HTTP envelope's `suggestions` (string[]) can carry: an array
 * of at most `limit` non-empty strings without control characters, each once (a repeat is
 * dropped, the first kept in its place: "did you mean "a" or "a"?" helps no one). Else a
 * VenueSearchError (`invalid_data`, param `options.places`) as for a bad resolve() answer
 * (audit 64a F13: numbers, null and objects reached the envelope; audit 65a F11: a newline
 * reached the message).
 */
export function checkSuggestions(names: unknown, name: string, limit: number): string[] {
  const problem = isThenable(names)
    ? 'to be given synchronously (suggest() returned a Promise; find does not wait)'
    : !Array.isArray(names)
      ? 'an array of names'
      : names.length > limit
        ? `at most ${limit} names (it was asked for ${limit})`
        : !names.every((n) => typeof n === 'string' && n.trim() !== '')
          ? 'every name a non-empty string'
          : names.some((n) => CONTROL_CHARACTER.test(n as string))
            ? 'names without control characters (a newline, a tab)'
            : null;
  if (problem === null) return [...new Set(names as string[])];
  throw new VenueSearchError('invalid_data', `the place resolver (options.places) suggested ${describeAnswer(names)} for ${JSON.stringify(name)}: its suggestions need ${problem}`, {
    param: 'options.places',
    value: names,
  });
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** What NaN and Infinity become in describeAnswer's JSON text (a JSON string), and are then written back as. */
const NON_FINITE_MARK = '\u0000non-finite:';
const NON_FINITE_IN_JSON = /"\\u0000non-finite:(NaN|-?Infinity)"/g;

/** describeValue, except that NaN and Infinity in a plain object or array show as such, not as JSON's null. */
function describeAnswer(value: unknown): string {
  if (typeof value !== 'object' || value === null) return describeValue(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return describeValue(value);
  let json: string;
  try {
    json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `${NON_FINITE_MARK}${String(v)}` : v));
  } catch {
    return describeValue(value);
  }
  const shown = [...json.replace(NON_FINITE_IN_JSON, '$1')];
  return shown.length > 80 ? `${shown.slice(0, 77).join('')}...` : shown.join('');
}

/**
 * Where the data's venues are, so that a name several places share (Richmond, Kensington)
 * resolves to the one among the venues. Find passes its density grid (src/find/density-grid.ts).
 */
export interface VenueDensity {
  /**
   * Venues near a point: at least every venue within `radiusMeters`, at most those in the
   * box of +- `radiusMeters` around it widened to whole grid cells.
   */
  venuesNear(lat: number, lon: number, radiusMeters: number): number;
  /**
   * Exactly the venues within `radiusMeters` of a point (the engine's distance, as a radius
   * search measures it). Optional: the default resolver ranks the places of one name by it,
   * and by {@link venuesNear} without it. An engine's own density gives it.
   */
  venuesWithin?(lat: number, lon: number, radiusMeters: number): number;
  /** Metres from a point to the nearest venue, to grid-cell precision; Infinity when there are none. */
  nearestVenueMeters(lat: number, lon: number): number;
  /**
   * How far from the nearest venue a point still lies within the data's region (metres):
   * about the gaps between the venues' own areas. Optional; without it, 10 km.
   */
  reachMeters?(): number;
  /**
   * Optional; changes whenever the venues it describes change (a live engine's grid follows
   * upserts and removes). Without it the venues are taken never to change under one object,
   * so a resolver may keep answers computed from it.
   */
  readonly version?: number;
}

/**
 * `resolver`, given as `param` (`options.places`), checked to be a PlaceResolver: an object
 * whose `resolve` is a function (else invalid_request on `param`, saying `expected`) and whose
 * `suggest`, when given, is one too (else invalid_request on `<param>.suggest`; audit 65a F11:
 * it passed, and the first unknown place was a bare TypeError, a 500 over HTTP).
 */
export function checkPlaceResolver(resolver: unknown, param: string, expected: string): void {
  const r = resolver as Partial<Record<keyof PlaceResolver, unknown>> | null;
  if (typeof r !== 'object' || r === null || typeof r.resolve !== 'function') invalidRequest(param, resolver, expected);
  if (r.suggest !== undefined && typeof r.suggest !== 'function') invalidRequest(`${param}.suggest`, r.suggest, 'a function (or left out)');
}

/**
 * A custom resolver is checked where it is given (createEngine: `resolve` and `suggest`
 * functions, checkPlaceResolver; not the resolver a factory returns) and its answers
 * where find uses them: checkResolvedPlace, checkSuggestions (a bad answer is `invalid_data`
 * naming `options.places`).
 */
export interface PlaceResolver {
  /**
   * The place a name means, or null when unknown. Pure: no I/O per call. `venues`, when
   * given, tells where the data is (for choosing between places of one name). May throw an
   * UnknownPlaceError of its own, with a more telling message than a null would give (the
   * default resolver does for a known name qualified by an area it is not in: "St Ives, Devon").
   */
  resolve(name: string, venues?: VenueDensity): ResolvedPlace | null;
  /**
   * Up to `limit` known names close in spelling to an unknown `name`, best first (optional).
   * Each a non-empty string without control characters, else the answer is refused; a name
   * given twice is offered once.
   */
  suggest?(name: string, limit: number, venues?: VenueDensity): string[];
}
