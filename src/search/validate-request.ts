import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { VenueSearchError, describeValue } from '../errors.js';
import { firstSchemaError } from '../schema/character-count.js';
import { UTC_TIMESTAMP_PATTERN, patternMeaning } from '../schema/pattern-meanings.js';
import { MAX_WEIGHT, MIN_POSITIVE_WEIGHT, maximumNote } from '../schema/search-limits.js';
import { isSupportedInstant } from '../hours/local-clock.js';
import { firstNonPlainObject, isPlainObject } from '../plain-data.js';
import { leadingIndexKeys } from './travel-object.js';
import { didYouMeanName, knownNameFor, type NamePlace } from '../schema/unknown-name.js';
import { literalUnionValues, oneOfLiterals } from '../schema/literal-union.js';
import {
  DEFAULT_LIMIT,
  MAX_PATH_DISTANCE_METERS,
  SearchBodySchema,
  SearchQuerySchema,
  type Fairness,
  type SearchBody,
} from '../schema/search.js';

/**
 * Validation of a search request against the ONE schema in src/schema/search.ts (compiled
 * once), then the rules a JSON schema cannot state (weights, the PATH distance limit,
 * `atTime`, duplicate labels). Every failure is a VenueSearchError whose `param` is the
 * field path written the JavaScript way (`locations[2].lat`) and whose message names the
 * bad value. Bounds marked as limits in the schema (`maxItems`, `maximum` of distances and
 * offset) are `limit_exceeded`; everything else is `invalid_request`.
 */

const bodyCheck = TypeCompiler.Compile(SearchBodySchema);
const queryCheck = TypeCompiler.Compile(SearchQuerySchema);

/** `/locations/2/lat` -> `locations[2].lat`; a key that is the empty string is named `""` (`/` -> `""`). */
export function jsonPointerToPath(pointer: string, root = ''): string {
  let path = root;
  for (const raw of pointer === '' ? [] : pointer.split('/').slice(1)) {
    const part = raw === '' ? '""' : raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^[0-9]+$/.test(part)) path += `[${part}]`;
    else path += path === '' ? part : `.${part}`;
  }
  return path;
}

function expectation(error: ValueError): string {
  const s = error.schema as Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.Number:
      return 'a finite number';
    case ValueErrorType.Integer:
      return 'an integer';
    case ValueErrorType.String:
      return 'a string';
    case ValueErrorType.Array:
      return 'an array';
    case ValueErrorType.Object:
      return 'an object';
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `>= ${String(s['minimum'])}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `<= ${String(s['maximum'])}`;
    case ValueErrorType.NumberExclusiveMinimum:
      return `> ${String(s['exclusiveMinimum'])}`;
    case ValueErrorType.ArrayMinItems:
      return `an array of at least ${String(s['minItems'])} item(s)`;
    case ValueErrorType.ArrayMaxItems:
      return `an array of at most ${String(s['maxItems'])} items`;
    case ValueErrorType.StringMinLength:
      return `a string of at least ${String(s['minLength'])} character(s)`;
    case ValueErrorType.StringMaxLength:
      return `a string of at most ${String(s['maxLength'])} characters`;
    case ValueErrorType.ObjectRequiredProperty:
      return 'present';
    case ValueErrorType.StringPattern:
      return patternMeaning(s['pattern'], error.value) ?? error.message.replace(/^Expected /, '');
    case ValueErrorType.Union: {
      const values = literalUnionValues(s);
      return values === undefined ? 'a valid value' : oneOfLiterals(values);
    }
    default:
      return error.message.replace(/^Expected /, '');
  }
}

/** The schema bounds whose failure may be a published limit (see {@link isPublishedLimit}), by their JSON Schema keyword (as ajv reports it too). */
const LIMIT_BOUNDS: ReadonlyMap<ValueErrorType, 'maximum' | 'maxItems'> = new Map([
  [ValueErrorType.ArrayMaxItems, 'maxItems'],
  [ValueErrorType.NumberMaximum, 'maximum'],
  [ValueErrorType.IntegerMaximum, 'maximum'],
]);

/**
 * Whether a value over a schema bound (`keyword`: the JSON Schema keyword that failed) at
 * `param` (`locations[2].lat` or dotted `locations.2.lat`) breaks one of the engine's
 * published limits (`limit_exceeded`: too many locations, a distance, limit or offset too
 * large) rather than being invalid input (`invalid_request`): a maximum or most-items bound,
 * except a coordinate's range and a weight's. The one rule for the engine's own validation and for the HTTP
 * adapter's schema validation, so a request gets the same code either way.
 */
export function isPublishedLimit(keyword: string | undefined, param: string): boolean {
  return (keyword === 'maximum' || keyword === 'maxItems') && !/(^|\.)(lat|lon|weight)$/.test(param);
}

/** Throws for the first error JSON Schema also makes (see firstSchemaError); returns when there is none. */
function failUnlessValid(check: TypeCheck<TSchema>, value: unknown, root: string, place?: NamePlace): void {
  const first = firstSchemaError(check, value);
  if (first === undefined) return;
  // a required field missing because it was given under another name (`lng`): that name is the error
  const error = first.type === ValueErrorType.ObjectRequiredProperty ? (keyGivenFor(check, value, first.path) ?? first) : first;
  const param = jsonPointerToPath(error.path, root) || root || 'body';
  // a Map or a Set where an object is wanted reads as one with no keys: name it, not the key it lacks
  const odd = firstNonPlainObject(value, root);
  if (odd !== null && (odd.path === '' || param === odd.path || param.startsWith(`${odd.path}.`) || param.startsWith(`${odd.path}[`))) {
    invalid(odd.path === '' ? 'body' : odd.path, odd.value, 'a plain object (as JSON gives)');
  }
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const known = Object.keys(((error.schema as { properties?: object }).properties ?? {}) as object);
    const name = error.path.slice(error.path.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
    throw new VenueSearchError(
      'invalid_request',
      `${param} is not a known field${didYouMeanName(name, known, param === name ? place : undefined)}${known.length ? ` (expected ${known.join(', ')})` : ''}`,
      { param, value: error.value },
    );
  }
  const code = isPublishedLimit(LIMIT_BOUNDS.get(error.type), param) ? 'limit_exceeded' : 'invalid_request';
  const note = LIMIT_BOUNDS.get(error.type) === 'maximum' ? maximumNote(param) : '';
  throw new VenueSearchError(code, `${param} must be ${expectation(error)}${note}; got ${describeValue(error.value)}`, {
    param,
    value: error.value,
  });
}

/**
 * For a required property missing at `path` (`/locations/0/lon`): the schema's error for a key
 * of the same object that is not a field and stands for it (`/locations/0/lng`), or undefined.
 */
function keyGivenFor(check: TypeCheck<TSchema>, value: unknown, path: string): ValueError | undefined {
  const parent = path.slice(0, path.lastIndexOf('/') + 1);
  const missing = path.slice(parent.length);
  for (const e of check.Errors(value)) {
    if (e.type !== ValueErrorType.ObjectAdditionalProperties || !e.path.startsWith(parent) || e.path.slice(parent.length).includes('/')) continue;
    const known = Object.keys(((e.schema as { properties?: object }).properties ?? {}) as object);
    if (knownNameFor(e.path.slice(parent.length), known) === missing) return e;
  }
  return undefined;
}

function invalid(param: string, value: unknown, expected: string): never {
  throw new VenueSearchError('invalid_request', `${param} must be ${expected}; got ${describeValue(value)}`, {
    param,
    value,
  });
}

/**
 * Milliseconds since the epoch of an ISO 8601 UTC timestamp in the years 100 to 9999, or NaN:
 * `YYYY-MM-DDTHH:MM`, then
 * optionally `:SS` and after it a fraction of 1 to 9 digits, then `Z`, `+00:00`, `-00:00`,
 * `+0000` or `-0000` (`T` and `Z` in either case, as RFC 3339 allows; the syntax is
 * UTC_TIMESTAMP_PATTERN's). A leap second (`23:59:60`, as RFC 3339 and JSON Schema's
 * `date-time` allow it) is the start of the next second, as POSIX time and the balances
 * route count it. Read character by character (every search with `atTime` parses one: a
 * regular expression and its match array cost about ten times as much).
 */
export function parseUtcTimestamp(text: string): number {
  if (text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || (text.charCodeAt(10) | LOWER_CASE_BIT) !== LOWER_T || text.charCodeAt(13) !== COLON) return Number.NaN;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  // years 100 to 9999 (docs/hours.md); Date.UTC would also read years 0 to 99 as 1900 to 1999
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0) return Number.NaN;
  let at = 16;
  let second = 0;
  let ms = 0;
  if (text.charCodeAt(at) === COLON) {
    second = digitsAt(text, at + 1, 2);
    if (second < 0) return Number.NaN;
    at += 3;
    if (text.charCodeAt(at) === DOT) {
      let end = at + 1;
      while (end - at <= MAX_FRACTION_DIGITS && digitsAt(text, end, 1) >= 0) end++;
      if (end === at + 1) return Number.NaN;
      ms = Math.floor(Number(text.slice(at, end)) * 1000);
      at = end;
    }
  }
  if (!isUtcZone(text, at)) return Number.NaN;
  const leapSecond = second === 60 && hour === 23 && minute === 59;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || (second > 59 && !leapSecond)) return Number.NaN;
  const t = Date.UTC(year, month - 1, day, hour, minute, leapSecond ? 59 : second, ms);
  // Date.UTC rolls 2026-02-30 over to March: reject dates that do not exist.
  if (new Date(t).getUTCDate() !== day) return Number.NaN;
  return leapSecond ? t + 1000 : t;
}

const DASH = 45;
const DOT = 46;
const COLON = 58;
/** ORed into an ASCII letter, its lower case: `T` and `t` both give LOWER_T. */
const LOWER_CASE_BIT = 0x20;
const LOWER_T = 116;
const LOWER_Z = 122;
const PLUS = 43;
/** Digits of a second's fraction, at most (nanoseconds). */
const MAX_FRACTION_DIGITS = 9;

/** The number written by the `n` ASCII digits of `text` from `at`, or -1 when one is missing or not a digit. */
function digitsAt(text: string, at: number, n: number): number {
  let v = 0;
  for (let k = at; k < at + n; k++) {
    const d = text.charCodeAt(k) - 48; // NaN past the end
    if (!(d >= 0 && d <= 9)) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** Whether `text` from `at` to its end is `Z`, `+00:00`, `-00:00`, `+0000` or `-0000`. */
function isUtcZone(text: string, at: number): boolean {
  const rest = text.length - at;
  if (rest === 1) return (text.charCodeAt(at) | LOWER_CASE_BIT) === LOWER_Z;
  const sign = text.charCodeAt(at);
  if ((sign !== PLUS && sign !== DASH) || digitsAt(text, at + 1, 2) !== 0) return false;
  if (rest === 5) return digitsAt(text, at + 3, 2) === 0;
  return rest === 6 && text.charCodeAt(at + 3) === COLON && digitsAt(text, at + 4, 2) === 0;
}

/** A body that passed validation, with `atTime` parsed (NaN-free) when present. */
export interface ValidBody {
  readonly body: SearchBody;
  /** `openingConditions.atTime` in ms since the epoch, or undefined. */
  readonly atTimeMs: number | undefined;
  /** Travel key of each location: its label, else its index. */
  readonly travelKeys: readonly string[];
  /** How many travel keys, from the first, are their location's index (travel-object.ts). */
  readonly travelIndexKeys: number;
  /** `mode.fairness` (default CENTRE). */
  readonly fairness: Fairness;
  /** `mode.quorum`, default the number of locations. */
  readonly quorum: number;
}

export function validateSearchBody(value: unknown): ValidBody {
  if (!bodyCheck.Check(value)) failUnlessValid(bodyCheck, value, '', 'engine.search request');
  // the schema took it: an object it read as one with no keys (a Map, a Date) is still refused
  const body = value as SearchBody;
  checkPlainObjects(body);
  let anyPositive = false;
  const labels = new Map<string, number>();
  const travelKeys: string[] = [];
  body.locations.forEach((loc, i) => {
    if (loc.weight !== undefined) {
      if (!Number.isFinite(loc.weight) || (loc.weight !== 0 && !(loc.weight >= MIN_POSITIVE_WEIGHT && loc.weight <= MAX_WEIGHT))) {
        invalid(`locations[${i}].weight`, loc.weight, `0, or a number from ${MIN_POSITIVE_WEIGHT} to ${MAX_WEIGHT} (weights are relative)`);
      }
      if (loc.weight > 0) anyPositive = true;
    } else {
      anyPositive = true;
    }
    const key = loc.label ?? String(i);
    const first = labels.get(key);
    if (first !== undefined) {
      // Name the label given: this location's, else (this one has none, its key is its index)
      // the earlier location's label that equals this index.
      const [bad, other] = loc.label !== undefined ? [i, first] : [first, i];
      const clash = body.locations[other]!.label === undefined ? `the index of locations[${other}]` : `locations[${other}].label`;
      invalid(`locations[${bad}].label`, key, `unique among the locations' labels and indices (same as ${clash})`);
    }
    labels.set(key, i);
    travelKeys.push(key);
  });
  if (body.mode.mode === 'POINT' && !anyPositive) {
    invalid('locations', body.locations.map((l) => l.weight), 'weighted with at least one weight > 0');
  }
  if (body.mode.mode === 'PATH' && body.locations.length > 1 && body.mode.maxDistance > MAX_PATH_DISTANCE_METERS) {
    throw new VenueSearchError(
      'limit_exceeded',
      `mode.maxDistance must be <= ${MAX_PATH_DISTANCE_METERS} in PATH mode; got ${describeValue(body.mode.maxDistance)}`,
      { param: 'mode.maxDistance', value: body.mode.maxDistance },
    );
  }
  const fairness = body.mode.fairness ?? 'CENTRE';
  const isPath = body.mode.mode === 'PATH';
  if (isPath && fairness !== 'CENTRE') {
    invalid('mode.fairness', fairness, 'CENTRE (or absent) in PATH mode: MIN_MAX and MIN_TOTAL rank POINT searches');
  }
  const quorum = body.mode.quorum ?? body.locations.length;
  if (body.mode.quorum !== undefined) {
    if (fairness === 'CENTRE') invalid('mode.quorum', body.mode.quorum, 'absent unless mode.fairness is MIN_MAX or MIN_TOTAL');
    if (body.mode.quorum > body.locations.length) {
      invalid('mode.quorum', body.mode.quorum, `at most the number of locations (${body.locations.length})`);
    }
  }
  let atTimeMs: number | undefined;
  const atTime = body.preferences?.openingConditions?.atTime;
  if (atTime !== undefined) {
    atTimeMs = parseUtcTimestamp(atTime);
    // the leap second ending 9999 reads as the first instant of 10000, past the clocks' years
    if (Number.isNaN(atTimeMs) || !isSupportedInstant(atTimeMs)) {
      invalid('preferences.openingConditions.atTime', atTime, patternMeaning(UTC_TIMESTAMP_PATTERN, atTime)!);
    }
  }
  return { body, atTimeMs, travelKeys, travelIndexKeys: leadingIndexKeys(travelKeys), fairness, quorum };
}

/**
 * The objects of a body the schema took that must be plain (plain-data.ts): a Map or a Date
 * passes the schema where an object's keys are all optional, and what it holds would be
 * silently ignored. Checked: the body, `mode`, every location, `preferences` and
 * `openingConditions` (where an object with keys left out means something). A route's points
 * are not walked (their `lat` and `lon` are required: a Map fails the schema, and the failure
 * names it); 100 points would cost a search about 1 µs.
 */
function checkPlainObjects(body: SearchBody): void {
  const refuse = (param: string, value: unknown): never => invalid(param, value, 'a plain object (as JSON gives)');
  if (!isPlainObject(body)) refuse('body', body);
  if (!isPlainObject(body.mode)) refuse('mode', body.mode);
  for (let i = 0; i < body.locations.length; i++) if (!isPlainObject(body.locations[i])) refuse(`locations[${i}]`, body.locations[i]);
  const { preferences } = body;
  if (preferences === undefined) return;
  if (!isPlainObject(preferences)) refuse('preferences', preferences);
  const opening = preferences.openingConditions;
  if (opening !== undefined && !isPlainObject(opening)) refuse('preferences.openingConditions', opening);
}

export interface PageOptions {
  readonly limit?: number;
  readonly offset?: number;
}

/** `limit` 1..100 (default 20) and `offset` 0..MAX_OFFSET (default 0), integers. */
export function validatePage(options: PageOptions): { limit: number; offset: number } {
  const page = { limit: options.limit ?? DEFAULT_LIMIT, offset: options.offset ?? 0 };
  if (!queryCheck.Check(page)) failUnlessValid(queryCheck, page, '');
  return page;
}
