import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { VenueSearchError, describeValue, isVenueSearchError, type VenueSearchErrorDetails } from '../errors.js';
import { canonicalTimeZone } from '../hours/time-zone.js';
import { checkWeeklyHours } from '../hours/weekly-intervals.js';
import { firstSchemaError } from '../schema/character-count.js';
import { compileParsedCheck, compileValueCheck, type ParsedValueCheck } from '../schema/parsed-check.js';
import {
  didYouMeanName,
  fieldPartOf,
  knownNameFor,
  VENUE_FEATURE_ARRAY_EXPECTED,
  VENUE_FEATURE_COLLECTION_EXPECTED,
  VENUE_FEATURE_EXPECTED,
  VENUE_LOCATION_EXPECTED,
} from '../schema/unknown-name.js';
import { VenueRecordSchema, type VenueRecord } from '../schema/venue.js';
import { catersBit } from '../store/vocabulary.js';
import { hasGeoJsonType, IMPORT_OSM_HINT, looksLikeRawOsm } from './raw-source.js';
import { literalUnionValues, oneOfLiterals } from '../schema/literal-union.js';
import { describeLocation, type RecordLocation } from './record-location.js';

let compiled: TypeCheck<typeof VenueRecordSchema> | undefined;

/**
 * The record schema's compiled check, compiled at its first use: a thread that only restores
 * engines from a snapshot (engine threads of `serve`) never validates a record, and compiling
 * costs each thread its generated code.
 */
export function venueChecker(): TypeCheck<typeof VenueRecordSchema> {
  return (compiled ??= TypeCompiler.Compile(VenueRecordSchema));
}

let compiledForParsed: ParsedValueCheck | undefined;

/**
 * The record schema's check for values made by JSON.parse (schema/parsed-check.ts: the same
 * verdict on them as {@link venueChecker}, about three times faster), compiled at its first use.
 */
export function parsedVenueChecker(): ParsedValueCheck {
  return (compiledForParsed ??= compileParsedCheck(VenueRecordSchema));
}

let compiledForValues: ParsedValueCheck | undefined;

/**
 * The record schema's fast check for any value, made in code or not (schema/parsed-check.ts:
 * true only where {@link venueChecker} says valid; false for a value it refuses or one that is
 * not plain data, which TypeBox then judges), compiled at its first use.
 */
function valueVenueChecker(): ParsedValueCheck {
  return (compiledForValues ??= compileValueCheck(VenueRecordSchema));
}

/** The weekly-hours fields of a record, each compiled by the engine (src/hours). */
const HOURS_FIELDS = ['regularOpeningHours', 'kitchenOpeningHours', 'holidayOpeningHours'] as const;

/**
 * Validates one venue record against the schema plus the rules a schema cannot say: caters
 * flags from the vocabulary, a `timeZone` Intl knows, and opening hours the engine compiles
 * (src/hours/weekly-intervals.ts: e.g. a closeNextDay slot of more than 24 hours), an id
 * and a name that UTF-8 can hold (no unpaired surrogate). So
 * everything a build would refuse in a record is refused here, before anything is built or
 * (in the service) logged. Throws `invalid_venue` naming the file, line, record id, field
 * and value of the first problem, and, for a raw OpenStreetMap element (looksLikeRawOsm), that
 * it is imported first: every door for records (readVenues, createEngine, upsert batches)
 * validates here, so each tells a record alike (audit 68b F3: createEngine did not).
 */
export function validateVenue(value: unknown, where: RecordLocation = {}): VenueRecord {
  // The fast check vouches for most records (about half TypeBox's cost a record); TypeBox
  // judges the others, and names the first problem.
  const checker = venueChecker();
  const found = !valueVenueChecker()(value) && !checker.Check(value) ? firstSchemaError(checker, value) : undefined;
  const first = found === undefined ? undefined : standInError(checker, value, found);
  if (first !== undefined) {
    // a union of literals (a day name) names its values; any other message has only its first
    // letter lowered: the rest may quote a pattern or a literal ('Point') exactly
    const values = first.type === ValueErrorType.Union ? literalUnionValues(first.schema) : undefined;
    const reason = values !== undefined ? `must be ${oneOfLiterals(values)}` : first.message.charAt(0).toLowerCase() + first.message.slice(1);
    throw recordError(value, where, pointerToPath(first.path), first.value, reason + unknownFieldAdvice(first));
  }
  const problem = ruleProblem(value as VenueRecord);
  if (problem !== null) throw recordError(value, where, problem.field, problem.value, problem.reason);
  return value as VenueRecord;
}

/**
 * {@link validateVenue} for a value made by JSON.parse (a record of a venues file, or the
 * reader's record of a GeoJSON feature: its parsed properties spread into a literal): the
 * same verdict and errors, the schema checked faster. Only for such values: an object made
 * in code may hide a property from the fast check (parsed-check.ts).
 */
export function validateParsedVenue(value: unknown, where: RecordLocation = {}): VenueRecord {
  if (isValidParsedVenue(value)) return value as VenueRecord;
  return validateVenue(value, where); // throws the first problem
}

/**
 * Whether {@link validateVenue} accepts `value`, a value made by JSON.parse (the same rules;
 * no error built). For a caller that only needs the verdict, such as the reader's worker
 * threads.
 */
export function isValidParsedVenue(value: unknown): boolean {
  return parsedVenueChecker()(value) && ruleProblem(value as VenueRecord) === null;
}

/** A character other than white space (JavaScript's: what String.prototype.trim removes). */
const NOT_WHITE_SPACE = /\S/;

/** Whether `name` is white space alone; a name starting with visible ASCII (nearly all) is answered by its first unit. */
function blankName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return !NOT_WHITE_SPACE.test(name);
}

/** A rule a schema-valid record breaks: the field, its bad value, and the rule broken. */
interface RuleProblem {
  readonly field: string;
  readonly value: unknown;
  readonly reason: string;
}

/**
 * The first rule the schema cannot say that a schema-valid record breaks (caters flags, time
 * zone, opening hours; see validateVenue), or null. The one place for those rules.
 */
function ruleProblem(record: VenueRecord): RuleProblem | null {
  // UTF-8 (a snapshot, a change log) cannot hold an unpaired surrogate ("\ud83d" in JSON)
  if (!isWellFormed(record.id)) return { field: 'id', value: record.id, reason: 'holds an unpaired UTF-16 surrogate, which UTF-8 (a snapshot) cannot keep' };
  if (!isWellFormed(record.name)) return { field: 'name', value: record.name, reason: 'holds an unpaired UTF-16 surrogate, which UTF-8 (a snapshot) cannot keep' };
  // a name of white space alone is no name, as an empty one is not (audit 73b): nothing to find it by or show
  if (blankName(record.name)) return { field: 'name', value: record.name, reason: 'must hold a character other than white space' };
  const unknown = unknownCatersFlag(record);
  if (unknown >= 0) return { field: `catersFlags[${unknown}]`, value: record.catersFlags![unknown], reason: 'unknown caters flag' };
  if (!knownTimeZone(record)) return { field: 'timeZone', value: record.timeZone, reason: 'must be an IANA time zone name such as "Europe/London"' };
  for (const field of HOURS_FIELDS) {
    try {
      checkWeeklyHours(record[field], { field });
    } catch (err) {
      if (!isVenueSearchError(err) || err.param === undefined) throw err;
      // the hours' message is "<param> must be ...; got <value>": keep its rule, the record's place goes first
      return { field: err.param, value: err.value, reason: err.message.replace(/^\S+ /, '').replace(/; got .*$/s, '') };
    }
  }
  return null;
}

/** String.prototype.isWellFormed: ES2024, in Node 20; not in the ES2023 lib the project compiles against. */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** Whether a schema-valid record's `timeZone` is absent or a zone Intl knows (cached per name). */
function knownTimeZone(record: VenueRecord): boolean {
  return record.timeZone === undefined || canonicalTimeZone(record.timeZone) !== null;
}

/** The index of the first caters flag of a schema-valid record that is not in the vocabulary, or -1. */
function unknownCatersFlag(record: VenueRecord): number {
  const flags = record.catersFlags ?? [];
  for (let k = 0; k < flags.length; k++) if (catersBit(flags[k]!) === 0) return k;
  return -1;
}

function recordError(value: unknown, where: RecordLocation, field: string, bad: unknown, reason: string): VenueSearchError {
  const id = typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
    ? (value as { id: string }).id
    : undefined;
  const place = describeLocation(where);
  const parts = [
    place || undefined,
    id !== undefined ? `venue ${JSON.stringify(id)}` : undefined,
    field ? `field ${field}` : 'record',
  ].filter(Boolean);
  const details: { -readonly [K in keyof VenueSearchErrorDetails]: VenueSearchErrorDetails[K] } = { value: bad };
  if (field) details.param = field;
  if (where.file !== undefined) details.file = where.file;
  if (where.line !== undefined) details.line = where.line;
  if (id !== undefined) details.recordId = id;
  const hint = looksLikeRawOsm(value) ? IMPORT_OSM_HINT : '';
  return new VenueSearchError('invalid_venue', `${parts.join(', ')}: ${reason}; got ${describeValue(bad)}${hint}`, details);
}

/**
 * For a field the schema does not know (`catersFlag`, `formatedAddress`, `genre`, `lat`): the
 * known field of the same object it most likely stands for (`; did you mean "catersFlags"?`),
 * or where a top-level point's parts belong; '' otherwise (audit 65a F18).
 */
function unknownFieldAdvice(error: ValueError): string {
  if (error.type !== ValueErrorType.ObjectAdditionalProperties) return '';
  const { name, known, atTop } = unknownField(error);
  return didYouMeanName(name, known, atTop ? 'venue record' : undefined);
}

/**
 * For a required field of the record reported missing, the unexpected-property error of a
 * key that is a part of it sent at the top (`lat`, `lon` or `coordinates` for `location`), so
 * the message says where that part belongs rather than only "expected required property"
 * (audit 66a F4), a GeoJSON `geometry` too (audit 66g F7); a `location` given in another shape
 * (`{lat, lon}`, an array, a Point without `coordinates`) as a whole, told the shape it must
 * have (audit 66g F7); a GeoJSON Feature told what it is and how Features are read (audit
 * 67a F3), a JSON array of them given as one record too (a line of a PUT body, audit 67g F6); the field itself in another case or misspelt (`Location`, `locaton`, `Name`) told
 * "did you mean" as any unknown field (audit 67g F4); any other error as it is (a coordinate
 * out of range keeps its own path).
 * The parts and their fields, and the hints: src/schema/unknown-name.ts (fieldPartOf, knownNameFor).
 */
function standInError(checker: TypeCheck<typeof VenueRecordSchema>, value: unknown, error: ValueError): ValueError {
  // a GeoJSON Feature (`type` is no field of a record): said so, not that its `id` is missing (audit 67a F3)
  if (isGeoJsonFeature(value)) return { ...error, type: ValueErrorType.Object, path: '/type', value: value.type, message: VENUE_FEATURE_EXPECTED };
  // a whole FeatureCollection as one record (a line of NDJSON, a PUT line): said so (audit 68b F2)
  if (hasGeoJsonType(value, 'FeatureCollection') && 'features' in value) return { ...error, type: ValueErrorType.Object, path: '/type', value: value.type, message: VENUE_FEATURE_COLLECTION_EXPECTED };
  // a JSON array of Features as one record: said so, not only "expected object" (audit 67g F6)
  if (Array.isArray(value) && isGeoJsonFeature(value[0])) return { ...error, type: ValueErrorType.Object, path: '', value, message: VENUE_FEATURE_ARRAY_EXPECTED };
  const location = typeof value === 'object' && value !== null ? (value as { location?: unknown }).location : undefined;
  const locationShape = error.path === '/location' || (error.type === ValueErrorType.ObjectRequiredProperty && error.path.startsWith('/location/') && error.path.lastIndexOf('/') === '/location'.length);
  if (location !== undefined && locationShape) return { ...error, type: ValueErrorType.Object, path: '/location', value: location, message: VENUE_LOCATION_EXPECTED };
  if (error.type !== ValueErrorType.ObjectRequiredProperty || error.path.lastIndexOf('/') !== 0) return error;
  const missing = unescapePointer(error.path.slice(1));
  // a raw source's own keys that begin with a mark (Veggiekarte's `_id`, Overpass's `@id`) are
  // no misspelling: such a record is told to be imported first (recordError). In any other
  // record `_id` (MongoDB's, CouchDB's) or ` id` stands for `id` as `ID` does (audit 68b F3).
  const rawOsm = looksLikeRawOsm(value);
  for (const other of checker.Errors(value)) {
    if (other.type !== ValueErrorType.ObjectAdditionalProperties) continue;
    const { name, known, atTop } = unknownField(other);
    if (atTop && (fieldPartOf(name, 'venue record') === missing || ((!rawOsm || /^\p{L}/u.test(name)) && knownNameFor(name, known) === missing))) return other;
  }
  return error;
}

/** True for an object shaped as a GeoJSON Feature: `type` "Feature" in any case (audit 68b F2) with `geometry` or `properties`. */
function isGeoJsonFeature(value: unknown): value is Record<string, unknown> {
  return hasGeoJsonType(value, 'Feature') && ('geometry' in value || 'properties' in value);
}

/** An unexpected property's name, the known fields of its object, and whether that object is the record itself. */
function unknownField(error: ValueError): { name: string; known: string[]; atTop: boolean } {
  const name = unescapePointer(error.path.slice(error.path.lastIndexOf('/') + 1));
  const known = Object.keys((error.schema as { properties?: Record<string, unknown> }).properties ?? {});
  return { name, known, atTop: error.path.lastIndexOf('/') === 0 };
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `/location/coordinates/0` → `location.coordinates[0]`. */
function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}
