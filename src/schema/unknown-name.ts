/**
 * "Did you mean" for a parameter or field name that is not known (`catersFilter` for
 * `catersFilters`, `loc` for `location`, `lng` for `lon`, `query` for `q`): the one known name
 * it is the start of, else the known name closest in spelling, by the edit distance the value
 * suggestions use (src/find/close-spellings.ts), else the name a common other spelling stands for. One rule for the engine's checks and the HTTP adapter's.
 */
import { closeSpellings } from '../find/close-spellings.js';
import { FindQuerySchema } from './find.js';

/** Other names clients often use for a parameter, and the names they may stand for here (the first one known at that place is offered). A Map: a name such as `constructor` is not a key. */
const OTHER_NAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['lng', ['lon']],
  ['long', ['lon']],
  ['longitude', ['lon']],
  ['latitude', ['lat']],
  ['query', ['q']],
  ['search', ['q']],
  ['radius', ['maxDistanceMeters', 'maxDistance']],
  // find's radius and the search mode's: one API, two spellings (audit 64a F5)
  ['maxdistance', ['maxDistanceMeters']],
  ['maxdistancemeters', ['maxDistance']],
  // a venue record's fields, as other data sets name them (audit 65a F18)
  ['genre', ['primaryGenre']],
  ['category', ['primaryGenre']],
  ['address', ['formattedAddress']],
  ['phone', ['contactNumber']],
  ['website', ['websiteUri']],
  ['url', ['websiteUri']],
  ['email', ['contactEmail']],
  ['openinghours', ['regularOpeningHours']],
  ['hours', ['regularOpeningHours']],
]);

/**
 * Where a name was sent, for the names that belong in another part of the same call (audit
 * 64a F5): an HTTP route's part as `METHOD /path part` (part: fastify's httpPart, `body` or
 * `querystring`), or a library call's argument.
 */
export type NamePlace = string;

/** A venue record's point, as every hint about it says it (src/schema/common.ts LatLonPointSchema). */
const POINT_SHAPE = '{"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md)';

/** A point's parts at the top of a venue record: they are its `location`'s. */
const VENUE_POINT = `not a field of a venue record: its point is location: ${POINT_SHAPE}`;

/** A GeoJSON `geometry` at the top of a venue record: its point is `location`, in the other order (audit 66g F7). */
const VENUE_GEOMETRY = `${VENUE_POINT}; a GeoJSON geometry's coordinates are [lon, lat]: swap them`;

/**
 * What a venue record's `location` of another shape is told (`{lat, lon}`, an array, a string,
 * a Point without `coordinates`): completes "field location: ..." (src/data/validate-venue.ts, audit 66g F7).
 */
export const VENUE_LOCATION_EXPECTED = `expected ${POINT_SHAPE}`;

/**
 * What a GeoJSON Feature given as a venue record is told (one Feature a line, as `jq -c
 * '.features[]'` and ogr2ogr's GeoJSONSeq write, or a JSON array of Features): completes
 * "field type: ..." in place of the schema's first error, "field id: expected required
 * property" (src/data/validate-venue.ts, audit 67a F3).
 */
export const VENUE_FEATURE_EXPECTED =
  'a GeoJSON Feature is not a venue record: a venues file of GeoJSON is a FeatureCollection, {"type": "FeatureCollection", "features": [...]}, ' +
  "each Point Feature's properties a record (`jq -s '{type: \"FeatureCollection\", features: .}'` makes one of Features one a line); " +
  `a venue record has its fields at the top and its point as location: ${POINT_SHAPE}`;

/**
 * What a whole GeoJSON FeatureCollection given as one venue record is told (a line of NDJSON
 * or of a `PUT /admin/venues` body, an `engine.upsert` record: `jq -c .` of an export, GDAL's
 * GeoJSON on one line): completes "field type: ..." in place of "field id: expected required
 * property" (src/data/validate-venue.ts, audit 68b F2).
 */
export const VENUE_FEATURE_COLLECTION_EXPECTED =
  'a GeoJSON FeatureCollection is not one venue record: a venues file of GeoJSON is one FeatureCollection, the whole file ' +
  "(`serve --data venues.geojson`), each Point Feature's properties a record, not a line among records nor a record upserted; " +
  `a venue record has its fields at the top and its point as location: ${POINT_SHAPE}`;

/**
 * What a JSON array of GeoJSON Features given as one venue record is told (a line of a `PUT
 * /admin/venues` body or an `engine.upsert` record): completes "record: ...", in place of the
 * schema's "expected object" (src/data/validate-venue.ts, audit 67g F6).
 */
export const VENUE_FEATURE_ARRAY_EXPECTED = `a JSON array of GeoJSON Features, not one venue record (an object); ${VENUE_FEATURE_EXPECTED}`;

/**
 * The names a point or its parts are sent under at the top of a venue record (each stands for
 * `location`), in lower case: a name is matched whatever its case (`Latitude`, `LON`: FHRS
 * element names, CSV headers; audit 67a F4). The one table of them.
 */
const VENUE_POINT_PARTS = ['lat', 'lon', 'lng', 'long', 'latitude', 'longitude', 'coordinates', 'coords', 'point', 'position', 'geo'];

/**
 * Per place: names that are not fields there but stand for one that is (a top-level `lat` of
 * a venue record stands for its `location`), so that a record with `lat` and no `location`
 * is told about `lat`, not only that `location` is missing (audit 66a F4). A Map: no inherited keys.
 */
const STANDS_FOR: ReadonlyMap<NamePlace, ReadonlyMap<string, string>> = new Map([
  ['venue record', new Map([...VENUE_POINT_PARTS, 'geometry'].map((name) => [name, 'location']))],
]);

/** A route's JSON schemas of the parts a name may be sent in (fastify's route schema: object schemas). */
export interface RouteSchemas {
  readonly body?: unknown;
  readonly querystring?: unknown;
}

/** The part of an HTTP call a name was sent in (fastify's httpPart). */
export type RoutePart = 'body' | 'querystring';

/** The property names an object schema declares (none for a missing schema or one without properties). */
function propertyNames(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** The names an object schema requires. */
function requiredNames(schema: unknown): string[] {
  const required = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) ? required.filter((n): n is string => typeof n === 'string') : [];
}

/** "a field of the JSON body of POST /v1/business/balances, ...": completes "NAME is ..." for a body field sent in the query. */
function bodyFieldNote(method: string, path: string, body: unknown): string {
  const shape = (requiredNames(body).length > 0 ? requiredNames(body) : propertyNames(body)).map((n) => `${JSON.stringify(n)}: ...`).join(', ');
  return `a field of the JSON body of ${method} ${path}, not a query parameter: send {${shape}} as the body`;
}

/** "a query parameter of POST /v1/search, ...": completes "NAME is ..." for a query parameter sent in the body. */
function queryParameterNote(method: string, path: string, name: string): string {
  return `a query parameter of ${method} ${path}, not a body field: send it in the URL (${path}?${name}=...)`;
}

/**
 * Where `name`, sent in `sentIn` of the route `method path`, belongs instead, derived from the
 * route's own schemas: a body field sent in the query (`POST /v1/search?locations=...`,
 * `POST /v1/business/balances?from=...`) or a query parameter sent in the body (`limit` in
 * the search body); undefined for a name of neither, or of both parts (audit 66a F5). Every
 * route with a JSON body and a query schema gets these notes, with no list to keep.
 */
export function misplacedRouteName(name: string, sentIn: RoutePart, method: string, path: string, schemas: RouteSchemas): string | undefined {
  const inBody = propertyNames(schemas.body).includes(name);
  const inQuery = propertyNames(schemas.querystring).includes(name);
  if (inBody === inQuery) return undefined;
  if (sentIn === 'querystring' && inBody) return bodyFieldNote(method, path, schemas.body);
  if (sentIn === 'body' && inQuery) return queryParameterNote(method, path, name);
  return undefined;
}

/** `engine.find({ q, limit: ... })`: a find call with the parameter `name` beside its search term `q` (named once when it is `q`, audit 67a F7). */
function findCallWith(name: string): string {
  return name === 'q' ? 'engine.find({ q: ... })' : `engine.find({ q, ${name}: ... })`;
}

/** The body of POST /v1/business/balances (src/service/api-schemas.ts BalancesRangeSchema's required fields), for its GET twin's note. */
const BALANCES_BODY = { required: ['from', 'to'] };

/** Per place: the names known elsewhere than in that place's own route (or outside HTTP), and where they belong (completes "NAME is ..."). A Map: no inherited keys. */
const MISPLACED_NAMES: ReadonlyMap<NamePlace, ReadonlyMap<string, string>> = new Map([
  [
    'venue record',
    new Map([...VENUE_POINT_PARTS.map((name): [string, string] => [name, VENUE_POINT]), ['geometry', VENUE_GEOMETRY]]),
  ],
  // GET has no body: the range is asked of its POST twin
  [
    'GET /v1/business/balances querystring',
    new Map(['from', 'to'].map((name) => [name, bodyFieldNote('POST', '/v1/business/balances', BALANCES_BODY)])),
  ],
  // find takes its paging and radius in its params, search in its options: a caller who
  // learnt one writes the other's (audit 66d F4)
  ['engine.find options', new Map(propertyNames(FindQuerySchema).map((name) => [name, `a parameter of engine.find, not an option of the call: ${findCallWith(name)}`]))],
  [
    'engine.search request',
    new Map([
      ['limit', 'an option of engine.search, not a field of its request: engine.search(request, { limit })'],
      ['offset', 'an option of engine.search, not a field of its request: engine.search(request, { offset })'],
    ]),
  ],
]);

/** Letters a name needs before a known name close in spelling is offered for it. */
const MIN_SPELLING_LENGTH = 3;

/** The known name an unknown `name` most likely stands for, or undefined when none is close. */
export function knownNameFor(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  // the name in another case, or with spaces around it (`" id"`, `"location "`: audit 68b F3)
  const other = known.find((k) => k.toLowerCase() === name.trim().toLowerCase());
  if (other !== undefined) return other;
  // a name of one or two letters is within one edit of every short name: no spelling offered
  if (name.length < MIN_SPELLING_LENGTH) return OTHER_NAMES.get(name.toLowerCase())?.find((n) => known.includes(n));
  // an abbreviation first: `loc` is the start of `location` only, though one edit from `lon`
  // (audit 65a F5); offered when exactly one known name starts with it
  const extended = known.filter((k) => k.toLowerCase().startsWith(name.toLowerCase()));
  if (extended.length === 1) return extended[0];
  const close = closeSpellings(name.toLowerCase(), known, 1, (k) => k.toLowerCase())[0];
  if (close !== undefined) return close;
  return OTHER_NAMES.get(name.toLowerCase())?.find((n) => known.includes(n));
}

/**
 * `; did you mean "catersFilters"?` after a message about the unknown `name`, or, when no
 * known name is close and `place` (where it was sent) has one elsewhere in the call,
 * `; limit is a query parameter of ...`; else ''.
 */
export function didYouMeanName(name: string, known: readonly string[], place?: NamePlace): string {
  const suggestion = knownNameFor(name, known);
  if (suggestion !== undefined) return `; did you mean ${JSON.stringify(suggestion)}?`;
  const elsewhere = place === undefined ? undefined : misplacedName(name, place);
  return elsewhere === undefined ? '' : `; ${name} is ${elsewhere}`;
}

/** `names`' entry for `name`, or else for `name` in lower case (the tables' keys of a record's point parts are lower case). */
function entryFor(names: ReadonlyMap<string, string> | undefined, name: string): string | undefined {
  return names?.get(name) ?? names?.get(name.toLowerCase());
}

/** Where `name`, sent at `place`, belongs in the same call (completes "NAME is ..."), or undefined. */
export function misplacedName(name: string, place: NamePlace): string | undefined {
  return entryFor(MISPLACED_NAMES.get(place), name);
}

/**
 * The field that `name`, not a field at `place`, is a part of there (`lat` at the top of a
 * venue record: `location`), or undefined. A record refused for that field missing is told
 * about `name` instead (src/data/validate-venue.ts).
 */
export function fieldPartOf(name: string, place: NamePlace): string | undefined {
  return entryFor(STANDS_FOR.get(place), name);
}

/**
 * For an object missing the required `missing`: its key that is not a known name and stands
 * for `missing` (`lng` in `{lat, lng}`), or undefined. So the answer says that the key given
 * is not a field, not only that the one it stands for is missing.
 */
export function keyStandingFor(missing: string, value: unknown, known: readonly string[]): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).find((key) => !known.includes(key) && knownNameFor(key, known) === missing);
}
